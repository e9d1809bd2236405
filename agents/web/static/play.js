// Play: a game on the server (POST /api/games); a click probes, a right-click or a long
// press flags, and the auto-solver's rounds are shown one after another.

import { renderAdvice } from "./advice.js";
import { agents, api, guarded } from "./api.js";
import { BoardView } from "./board.js";
import { positionText } from "./position.js";
import { setFace } from "./smiley.js";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ROUND_MS = 70;
const three = (n) => String(Math.max(-99, Math.min(999, n))).padStart(3, "0");

export class PlayMode {
  constructor(root, params) {
    this.root = root;
    this.$ = (selector) => root.querySelector(selector);
    this.form = this.$("#play-form");
    this.board = new BoardView(this.$("#play-board"), {
      onProbe: (x, y) => this.move("probe", x, y),
      onFlag: (x, y) => this.move("flag", x, y),
    });
    this.game = null;
    this.busy = false;
    this.started = null;
    this.clock = null;
    agents().then((a) => { this.$("#play-agent").value ||= a.default; });
    this.form.board.addEventListener("change", () => {
      this.$(".custom-size").hidden = this.form.board.value !== "custom";
    });
    this.form.addEventListener("submit", (event) => { event.preventDefault(); this.newGame(); });
    this.$("#play-smiley").addEventListener("click", () => this.newGame(this.game?.seed ?? null));
    this.$("#play-hint").addEventListener("click", () => this.hint());
    this.$("#play-probs").addEventListener("change", () => this.showProbabilities());
    this.$("#play-share").addEventListener("click", () => this.share());
    setFace(this.$("#play-smiley"), "playing");
    this.fromQuery(params);
  }

  /** A shared URL (?board=...&seed=...) opens that game; otherwise a beginner game. */
  fromQuery(params) {
    const board = params.get("board");
    if (board) {
      const preset = [...this.form.board.options].some((o) => o.value === board && board !== "custom");
      this.form.board.value = preset ? board : "custom";
      this.form.custom.value = preset ? this.form.custom.value : board;
      this.$(".custom-size").hidden = preset;
    }
    for (const name of ["rules", "first_click", "seed"]) {
      if (params.get(name) !== null) this.form[name].value = params.get(name);
    }
    this.form.no_guess.checked = ["1", "true"].includes(params.get("no_guess"));
    this.newGame();
  }

  setup(seed) {
    const f = this.form;
    const board = f.board.value === "custom" ? f.custom.value.trim() : f.board.value;
    const typed = f.seed.value.trim();
    return {
      board,
      rules: f.rules.value,
      first_click: f.first_click.value,
      seed: seed ?? (typed === "" ? null : Number(typed)),
      no_guess: f.no_guess.checked,
    };
  }

  async newGame(seed = undefined) {
    await guarded(async () => {
      const game = await api("/api/games", this.setup(seed));
      this.game = game;
      this.stopClock();
      this.started = null;
      this.board.reset(game.width, game.height, game.grid);
      this.$("#play-advice").replaceChildren();
      this.$("#play-probs").checked = false;
      this.$("#play-share-url").hidden = true;
      this.show(game);
    });
  }

  /** Show a game's state: counters, smiley, data-game-state. */
  show(game) {
    this.root.dataset.gameId = game.id;
    const state = this.$("#play-state");
    state.dataset.gameState = game.state;
    state.textContent = game.state;
    this.$("#play-mines").textContent = three(game.mines_left);
    this.$("#play-info").textContent = `${game.width}×${game.height}, ${game.mines} mines, seed ${game.seed}, ${game.moves} moves`;
    setFace(this.$("#play-smiley"), game.state);
    if (game.state !== "playing") this.stopClock();
  }

  async move(kind, x, y) {
    const game = this.game;
    if (!game || this.busy || game.state !== "playing") return;
    const state = this.board.get(x, y);
    if (kind === "probe" && state !== "covered") return;
    if (kind === "flag" && state !== "covered" && state !== "flag") return;
    this.busy = true;
    setFace(this.$("#play-smiley"), "busy");
    await guarded(async () => {
      const answer = await api(`/api/games/${game.id}/${kind}`, { x, y });
      if (kind === "probe" && !this.started) this.startClock();
      this.board.clearPaint();
      this.$("#play-advice").replaceChildren();
      const rounds = answer.rounds ?? [];
      const pause = Math.min(ROUND_MS, 1500 / Math.max(1, rounds.length));
      for (const [index, round] of rounds.entries()) {
        this.board.apply(round);
        if (index < rounds.length - 1) await sleep(pause);
      }
      this.game = answer.game;
      this.board.load(answer.game.grid);
    });
    this.busy = false;
    this.show(this.game);
    if (this.$("#play-probs").checked && this.game.state === "playing") await this.showProbabilities();
  }

  startClock() {
    this.started = Date.now();
    this.clock = setInterval(() => {
      this.$("#play-time").textContent = three(Math.floor((Date.now() - this.started) / 1000));
    }, 250);
  }

  stopClock() {
    if (this.clock) clearInterval(this.clock);
    this.clock = null;
    if (!this.started) this.$("#play-time").textContent = "000";
  }

  async hint() {
    if (!this.game || this.game.state !== "playing") return;
    const agent = this.$("#play-agent").value.trim() || null;
    await guarded(async () => {
      const analysis = await api(`/api/games/${this.game.id}/hint`, { agent });
      if (this.$("#play-probs").checked) this.board.paint(analysis);
      else this.board.clearPaint();
      if (analysis.advice) this.board.markAdvised(analysis.advice.x, analysis.advice.y);
      renderAdvice(this.$("#play-advice"), analysis.advice, this.board);
    });
  }

  async showProbabilities() {
    if (!this.$("#play-probs").checked) {
      this.board.clearPaint();
      return;
    }
    if (!this.game || this.game.state !== "playing") return;
    await guarded(async () => {
      // The position as the player sees it (flags as known mines), probabilities only.
      const board = positionText(this.board.grid(), null);
      const analysis = await api("/api/analyse", { board, mines: this.game.mines, agent: null });
      this.board.paint(analysis);
    });
  }

  shareUrl() {
    const setup = this.setup(this.game?.seed ?? null);
    const url = new URL(location.href);
    url.search = "";
    url.searchParams.set("mode", "play");
    url.searchParams.set("board", setup.board);
    if (setup.seed !== null) url.searchParams.set("seed", setup.seed);
    url.searchParams.set("rules", setup.rules);
    url.searchParams.set("first_click", setup.first_click);
    if (setup.no_guess) url.searchParams.set("no_guess", "1");
    return url.toString();
  }

  async share() {
    const field = this.$("#play-share-url");
    field.value = this.shareUrl();
    field.hidden = false;
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      // No clipboard (an insecure origin or a refused permission): the field shows the URL.
    }
  }
}
