// Watch: one or two agents play game K of seed S live, on a board or on one of the
// server's maps (serve --maps). The moves stream from GET /api/watch (Server-Sent
// Events) into a buffer; the page shows them at its own pace.

import { agents, api, boardSize, showError } from "./api.js";
import { describeMove, MoveBoard } from "./movelist.js";

class Pane {
  constructor(agent, query) {
    this.agent = agent;
    this.node = document.createElement("div");
    this.node.className = "pane";
    this.node.innerHTML = `<h2></h2><p class="status"><span data-game-state="playing">playing</span>
      <span class="info"></span></p><div class="board-scroll"><div class="board"></div></div>
      <ol class="guesses" aria-label="Guesses and their reasons"></ol>`;
    this.node.querySelector("h2").textContent = agent;
    this.view = new MoveBoard(this.node.querySelector(".board"), this.node.querySelector("[data-game-state]"),
      this.node.querySelector(".info"));
    this.log = this.node.querySelector(".guesses");
    this.query = query;
    this.ended = null;
  }

  open(size) {
    if (size) this.view.start(size[0], size[1]);
    const params = new URLSearchParams(this.query);
    params.set("agent", this.agent);
    const url = `/api/watch?${params}`;
    this.source = new EventSource(url);
    this.source.addEventListener("start", (event) => {
      const data = JSON.parse(event.data);
      if (data.width && data.height && !this.view.moves.length) this.view.start(data.width, data.height);
    });
    this.source.addEventListener("move", (event) => this.view.moves.push(JSON.parse(event.data)));
    this.source.addEventListener("end", (event) => {
      this.ended = JSON.parse(event.data);
      this.source.close();
    });
    this.source.addEventListener("error", () => {
      if (this.ended) return;
      this.source.close();
      // EventSource hides the answer's body: ask once more to show the server's line.
      fetch(url).then((r) => r.json()).then((d) => showError(d.error ?? "the watch stream stopped"))
        .catch(() => showError("the watch stream stopped"));
    });
  }

  close() {
    this.source?.close();
  }

  /** Show the next buffered move; its guess goes into the log with its reason. */
  step() {
    const moved = this.view.step();
    if (moved) {
      const move = this.view.moves[this.view.shown - 1];
      if (move.kind === "guess") {
        const item = document.createElement("li");
        item.textContent = describeMove(move);
        this.log.prepend(item);
      }
    }
    if (this.ended && this.view.shown === this.view.moves.length) {
      this.view.finish(this.ended.state);
      this.view.infoElement.textContent = `${this.ended.state}: ${this.ended.moves} moves, ${this.ended.guesses} guesses`;
    }
    return moved;
  }

  done() {
    return Boolean(this.ended) && this.view.shown === this.view.moves.length;
  }
}

export class WatchMode {
  constructor(root, params) {
    this.root = root;
    this.$ = (selector) => root.querySelector(selector);
    this.form = this.$("#watch-form");
    this.panes = [];
    this.timer = null;
    agents().then((a) => { this.form.agent.value ||= a.default; });
    this.form.addEventListener("submit", (event) => { event.preventDefault(); this.start(); });
    this.$("#watch-play").addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    this.$("#watch-step").addEventListener("click", () => { this.pause(); this.stepAll(); });
    this.$("#watch-speed").addEventListener("input", () => {
      this.$("#watch-speed-out").textContent = `${this.$("#watch-speed").value}/s`;
      if (this.timer) { this.pause(); this.play(); }
    });
    const names = ["agent", "agent2", "board", "seed", "game", "rules", "first_click"];
    for (const name of names) if (params.get(name) !== null) this.form[name].value = params.get(name);
    if (params.get("speed") !== null) {
      this.$("#watch-speed").value = params.get("speed");
      this.$("#watch-speed-out").textContent = `${this.$("#watch-speed").value}/s`;
    }
    const listed = this.listMaps(params.get("map"));
    if (params.get("agent")) listed.then(() => this.start());
  }

  /** Offer the server's maps (GET /api/maps) beside the board, when it has any. */
  async listMaps(wanted) {
    try {
      const { maps } = await api("/api/maps");
      if (!maps.length) return;
      const select = this.form.map;
      for (const m of maps) select.append(new Option(`${m.name} (${m.width}×${m.height}, ${m.mines} mines)`, m.name));
      this.$("#watch-map-choice").hidden = false;
      if (wanted) select.value = wanted;
    } catch (error) {
      showError(error.message);
    }
  }

  start() {
    this.pause();
    for (const pane of this.panes) pane.close();
    const f = this.form;
    const where = f.map.value ? { map: f.map.value } : { board: f.board.value.trim() };
    const query = { ...where, seed: f.seed.value, game: f.game.value,
      rules: f.rules.value, first_click: f.first_click.value };
    const names = [f.agent.value.trim(), f.agent2.value.trim()].filter(Boolean);
    if (!names.length) { showError("name an agent to watch"); return; }
    showError("");
    // A map's size comes with the stream's start event.
    const size = query.map ? null : boardSize(query.board);
    this.panes = names.map((name) => new Pane(name, query));
    this.$("#watch-panes").replaceChildren(...this.panes.map((p) => p.node));
    for (const pane of this.panes) pane.open(size);
    this.play();
  }

  stepAll() {
    for (const pane of this.panes) pane.step();
  }

  play() {
    const perSecond = Number(this.$("#watch-speed").value);
    this.$("#watch-play").textContent = "Pause";
    this.timer = setInterval(() => {
      this.stepAll();
      if (this.panes.every((p) => p.done())) this.pause();
    }, 1000 / perSecond);
  }

  pause() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.$("#watch-play").textContent = "Play";
  }

  key(event) {
    if (event.key === " ") { event.preventDefault(); this.timer ? this.pause() : this.play(); }
    else if (event.key === "n" || event.key === "ArrowRight") { this.pause(); this.stepAll(); }
  }
}
