// A game as a list of moves, each with the cell changes of its rounds: shared by Watch
// (moves arriving from a stream) and Replay (a saved game), both stepped by the page.

import { BoardView } from "./board.js";

const describe = (move) => {
  const where = `(${move.x}, ${move.y})`;
  if (move.kind !== "guess") return `move ${move.move}: ${where} ${move.kind ?? ""}`.trim();
  const p = typeof move.probability === "number" ? ` at mine probability ${move.probability.toFixed(3)}` : "";
  // The reason may repeat the cell it is about; the line names it already.
  const reason = (move.reason ?? "").replace(where, "").trim();
  return `move ${move.move}: guess ${where}${p}${reason ? `: ${reason}` : ""}`;
};

export class MoveBoard {
  /**
   * @param {HTMLElement} boardElement where the cells go
   * @param {HTMLElement} stateElement the element carrying data-game-state
   * @param {HTMLElement} infoElement one line about the current move
   */
  constructor(boardElement, stateElement, infoElement) {
    this.board = new BoardView(boardElement);
    this.stateElement = stateElement;
    this.infoElement = infoElement;
    this.moves = [];
    this.shown = 0;
    this.result = null;
  }

  start(width, height) {
    this.board.reset(width, height);
    this.moves = [];
    this.shown = 0;
    this.result = null;
    this.setState("playing");
    this.infoElement.textContent = "";
  }

  setState(state) {
    this.stateElement.dataset.gameState = state;
    this.stateElement.textContent = state;
  }

  /** The state after the shown moves: the game's result once the last one is shown. */
  currentState() {
    if (this.shown === 0) return "playing";
    const last = this.moves[this.shown - 1];
    if (this.shown === this.moves.length && this.result) return this.result;
    return last.state ?? "playing";
  }

  applyMove(move) {
    for (const round of move.rounds ?? []) this.board.apply(round);
  }

  /** Show one more move; false when none is waiting. */
  step() {
    if (this.shown >= this.moves.length) return false;
    const move = this.moves[this.shown];
    this.applyMove(move);
    this.shown += 1;
    this.board.markAdvised(move.x, move.y);
    this.infoElement.textContent = describe(move);
    this.setState(this.currentState());
    return true;
  }

  /** Show exactly the first n moves (replayed from the empty board). */
  seek(n) {
    const target = Math.max(0, Math.min(n, this.moves.length));
    this.board.reset(this.board.width, this.board.height);
    this.shown = 0;
    this.infoElement.textContent = "";
    while (this.shown < target) this.step();
    this.setState(this.currentState());
  }

  finish(result) {
    this.result = result;
    this.setState(this.currentState());
  }
}

export { describe as describeMove };
