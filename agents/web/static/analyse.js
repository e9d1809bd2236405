// Analyse: draw, paste or load a position, then paint what POST /api/analyse says about
// it (mine probabilities, proven cells, the number each cell would show) with the advice.

import { renderAdvice } from "./advice.js";
import { agents, api, guarded, showError } from "./api.js";
import { BoardView } from "./board.js";
import { parsePosition, positionText } from "./position.js";

const CYCLE = ["covered", "0", "1", "2", "3", "4", "5", "6", "7", "8", "flag"];

export class AnalyseMode {
  constructor(root, params) {
    this.root = root;
    this.$ = (selector) => root.querySelector(selector);
    this.analysis = null;
    this.board = new BoardView(this.$("#an-board"), {
      onProbe: (x, y, event) => this.cycle(x, y, event.shiftKey ? -1 : 1),
      onFlag: (x, y) => this.draw(x, y, this.board.get(x, y) === "flag" ? "covered" : "flag"),
      onKey: (x, y, key) => this.typed(x, y, key),
      onHover: (x, y) => this.hover(x, y),
    });
    agents().then((a) => { this.$("#an-agent").value ||= a.default; });
    this.$("#an-blank").addEventListener("click", () => this.blank());
    this.$("#an-run").addEventListener("click", () => this.analyse());
    this.$("#an-overlay").addEventListener("change", () => this.repaint());
    this.$("#an-load-text").addEventListener("click", () => this.loadText(this.$("#an-text").value));
    this.$("#an-copy-text").addEventListener("click", () => {
      this.$("#an-text").value = positionText(this.board.grid(), this.totalMines());
    });
    this.$("#an-file").addEventListener("change", (event) => this.loadFile(event.target.files[0]));
    const position = params.get("position");
    if (position) this.loadText(position);
    else this.blank();
  }

  blank() {
    const width = Number(this.$("#an-width").value);
    const height = Number(this.$("#an-height").value);
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width * height > 10000) {
      showError("width and height must be whole numbers from 1, at most 10000 cells");
      return;
    }
    showError("");
    this.board.reset(width, height);
    this.stale();
  }

  /** The analysis no longer matches the drawing: take its overlay and advice away. */
  stale() {
    this.analysis = null;
    delete this.root.dataset.analysed;
    this.board.clearPaint();
    this.$("#an-advice").replaceChildren();
  }

  draw(x, y, state) {
    this.board.set(x, y, state);
    this.stale();
  }

  cycle(x, y, step) {
    const at = CYCLE.indexOf(this.board.get(x, y));
    this.draw(x, y, CYCLE[(at + step + CYCLE.length) % CYCLE.length]);
  }

  /** Keys on a focused cell: 0-8 a number, f or ! a flag, ? space or Backspace covered. */
  typed(x, y, key) {
    if (/^[0-8]$/.test(key)) this.draw(x, y, key);
    else if (key === "f" || key === "F" || key === "!") this.draw(x, y, "flag");
    else if (["?", " ", "Backspace", "Delete"].includes(key)) this.draw(x, y, "covered");
    else if (key === "Enter") this.analyse();
    else return false;
    return true;
  }

  hover(x, y) {
    const out = this.$("#an-numbers");
    const chances = this.board.numberChances(x, y);
    if (!chances) {
      out.textContent = this.analysis && this.board.get(x, y) === "covered"
        ? `(${x}, ${y}): proven mine or no number known`
        : "Hover a covered cell for the number it would show.";
      return;
    }
    out.replaceChildren(`If (${x}, ${y}) is safe it shows: `);
    chances.forEach((p, n) => {
      if (p <= 0) return;
      const part = document.createElement("span");
      part.className = `chance n${n}`;
      part.textContent = `${n}: ${(100 * p).toFixed(1)}%`;
      out.append(part, " ");
    });
  }

  flags() {
    return this.board.grid().flat().filter((s) => s === "flag").length;
  }

  /** Total mines for the API: the mines left plus the flags, or null when left is blank. */
  totalMines() {
    const left = this.$("#an-mines").value.trim();
    return left === "" ? null : Number(left) + this.flags();
  }

  loadText(text) {
    try {
      const { grid, total } = parsePosition(text);
      this.$("#an-width").value = grid[0]?.length ?? 0;
      this.$("#an-height").value = grid.length;
      this.board.reset(grid[0]?.length ?? 0, grid.length, grid);
      this.$("#an-mines").value = total === null ? "" : String(total - this.flags());
      this.stale();
      showError("");
    } catch (err) {
      showError(`position text: ${err.message}`);
      return;
    }
    this.analyse();
  }

  async loadFile(file) {
    if (!file) return;
    const text = await file.text();
    this.$("#an-text").value = text;
    this.loadText(text);
  }

  async analyse() {
    const agent = this.$("#an-agent").value.trim() || null;
    const body = { board: positionText(this.board.grid(), null), mines: this.totalMines(), agent };
    const button = this.$("#an-run");
    button.disabled = true;
    await guarded(async () => {
      this.analysis = await api("/api/analyse", body);
      this.repaint();
    });
    button.disabled = false;
  }

  repaint() {
    if (!this.analysis) return;
    this.board.paint(this.analysis, this.$("#an-overlay").value);
    const advice = this.analysis.advice;
    if (advice) this.board.markAdvised(advice.x, advice.y);
    renderAdvice(this.$("#an-advice"), advice, this.board);
    this.root.dataset.analysed = "true";
  }
}
