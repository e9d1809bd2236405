// Replay: the run folders the server was given (--runs), their games filtered by result
// and guesses, and people's replay files (--replays); a game stepped move by move
// ("n" jumps to the next guess).

import { api, guarded } from "./api.js";
import { MoveBoard } from "./movelist.js";

export class ReplayMode {
  constructor(root, params) {
    this.root = root;
    this.$ = (selector) => root.querySelector(selector);
    this.view = new MoveBoard(this.$("#rp-board"), this.$("#rp-state"), this.$("#rp-info"));
    this.$("#rp-list").addEventListener("click", () => this.listGames());
    this.$("#rp-run").addEventListener("change", () => this.listGames());
    this.$("#rp-first").addEventListener("click", () => this.seek(0));
    this.$("#rp-prev").addEventListener("click", () => this.seek(this.view.shown - 1));
    this.$("#rp-next").addEventListener("click", () => this.seek(this.view.shown + 1));
    this.$("#rp-last").addEventListener("click", () => this.seek(this.view.moves.length));
    this.$("#rp-next-guess").addEventListener("click", () => this.nextGuess());
    this.$("#rp-open-file").addEventListener("click", () => this.openFile(this.$("#rp-file").value));
    this.wanted = { run: params.get("run"), game: params.get("game") };
    this.listRuns();
    this.listReplays(params.get("replay"));
  }

  /** Offer the server's replay files (GET /api/replays), when it has any. */
  async listReplays(wanted) {
    await guarded(async () => {
      const { replays } = await api("/api/replays");
      if (!replays.length) return;
      const select = this.$("#rp-file");
      select.replaceChildren(...replays.map((r) => new Option(r.name, r.name)));
      this.$("#rp-file-choice").hidden = false;
      this.$("#rp-open-file").hidden = false;
      if (wanted) {
        select.value = wanted;
        await this.openFile(wanted);
      }
    });
  }

  async listRuns() {
    await guarded(async () => {
      const { runs } = await api("/api/runs");
      const select = this.$("#rp-run");
      select.replaceChildren(...runs.map((r) => new Option(`${r.name} (${r.games} games)`, r.name)));
      if (this.wanted.run) select.value = this.wanted.run;
      if (runs.length) await this.listGames();
      else if (!this.gameLabel) this.$("#rp-info").textContent = "No run folders: start the server with --runs DIR (or --replays PATH).";
    });
  }

  async listGames() {
    const run = this.$("#rp-run").value;
    if (!run) return;
    const query = new URLSearchParams();
    if (this.$("#rp-result").value) query.set("result", this.$("#rp-result").value);
    const least = this.$("#rp-min").value.trim();
    if (least !== "" && Number(least) > 0) query.set("min_guesses", least);
    await guarded(async () => {
      const answer = await api(`/api/runs/${encodeURIComponent(run)}/games?${query}`);
      const games = Array.isArray(answer) ? answer : answer.games ?? [];
      const body = this.$("#rp-games tbody");
      body.replaceChildren(...games.map((g) => this.gameRow(run, g)));
      if (this.wanted.game !== null) {
        const wanted = Number(this.wanted.game);
        this.wanted.game = null;
        await this.open(run, wanted);
      }
    });
  }

  gameRow(run, game) {
    const row = document.createElement("tr");
    for (const value of [game.game, game.agent ?? "", game.board, game.result, game.guesses, game.moves]) {
      const cell = document.createElement("td");
      cell.textContent = value;
      row.append(cell);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Open ${game.game}`;
    button.dataset.game = game.game;
    button.addEventListener("click", () => this.open(run, game.game));
    row.firstChild.replaceChildren(button);
    return row;
  }

  async open(run, number) {
    await guarded(async () => {
      const game = await api(`/api/runs/${encodeURIComponent(run)}/games/${number}`);
      const who = game.agent ? `${game.agent}, ` : "";
      this.show(game, `${run} game ${number}: ${who}${game.width}×${game.height}, ${game.mines} mines, ${game.result}`);
      this.root.dataset.replayGame = number;
    });
  }

  /** A person's replay file, stepped as a saved game: its moves are the guesses left
   *  once the auto-solver has made every proven move. */
  async openFile(name) {
    if (!name) return;
    await guarded(async () => {
      const game = await api(`/api/replays/${encodeURIComponent(name)}`);
      const s = game.summary;
      this.show(game, `${name}: ${game.player}, ${game.width}×${game.height}, ${game.mines} mines, ` +
        `${game.result}; ${s.guesses} guesses, survival ${(s.survival_taken * 100).toFixed(1)}% ` +
        `taken against ${(s.survival_best * 100).toFixed(1)}% on the safest cells, 3BV ${s.bbbv}`);
      this.root.dataset.replayFile = name;
    });
  }

  show(game, label) {
    this.view.start(game.width, game.height);
    this.view.moves = game.moves;
    this.view.result = game.result === "unfinished" ? game.state : game.result;
    this.gameLabel = label;
    this.seek(0);
  }

  seek(n) {
    this.view.seek(n);
    this.$("#rp-pos").textContent = `${this.view.shown} / ${this.view.moves.length}`;
    if (this.view.shown === 0) this.$("#rp-info").textContent = this.gameLabel ?? "";
  }

  /** Step to the next move that was a guess (or to the end). */
  nextGuess() {
    const moves = this.view.moves;
    let target = this.view.shown;
    while (target < moves.length && moves[target].kind !== "guess") target += 1;
    this.seek(Math.min(moves.length, target + 1));
  }

  key(event) {
    const actions = { n: () => this.nextGuess(), ArrowRight: () => this.seek(this.view.shown + 1),
      ArrowLeft: () => this.seek(this.view.shown - 1), Home: () => this.seek(0),
      End: () => this.seek(this.view.moves.length) };
    if (actions[event.key] && (event.key === "n" || !event.target.closest?.(".board"))) {
      event.preventDefault();
      actions[event.key]();
    }
  }
}
