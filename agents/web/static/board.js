// One board on the page: a grid of buttons, each carrying the test hooks
// data-x, data-y and data-state ("covered", "flag", "0".."8", "mine").

const LONG_PRESS_MS = 450;
const NAMES = { covered: "covered", flag: "flagged", mine: "mine" };

function label(x, y, state, extra) {
  const what = NAMES[state] ?? `shows ${state}`;
  return `column ${x + 1}, row ${y + 1}: ${what}${extra ? `, ${extra}` : ""}`;
}

/** Colour of a mine probability: green (safe) through yellow to red (a mine). */
export function probabilityColour(p) {
  const hue = Math.round(120 * (1 - p));
  return `hsl(${hue} 70% 72%)`;
}

export class BoardView {
  /**
   * @param {HTMLElement} element the container the cells go in
   * @param {object} handlers onProbe(x, y, event), onFlag(x, y), onKey(x, y, key), onHover(x, y | null)
   */
  constructor(element, handlers = {}) {
    this.element = element;
    this.handlers = handlers;
    this.width = 0;
    this.height = 0;
    this.cells = [];
    this.focusIndex = 0;
    this.pressTimer = null;
    this.lastLongPress = 0;
    this.element.setAttribute("role", "grid");
    this.listen();
  }

  /** Build a fresh width x height board, every cell covered unless grid says otherwise. */
  reset(width, height, grid = null) {
    this.width = width;
    this.height = height;
    this.element.style.setProperty("--columns", width);
    this.element.replaceChildren();
    this.cells = [];
    for (let y = 0; y < height; y += 1) {
      const row = document.createElement("div");
      row.className = "board-row";
      row.setAttribute("role", "row");
      for (let x = 0; x < width; x += 1) {
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "cell";
        cell.dataset.x = x;
        cell.dataset.y = y;
        cell.setAttribute("role", "gridcell");
        cell.tabIndex = -1;
        row.append(cell);
        this.cells.push(cell);
        this.set(x, y, grid ? grid[y][x] : "covered");
      }
      this.element.append(row);
    }
    this.focusIndex = 0;
    if (this.cells.length) this.cells[0].tabIndex = 0;
  }

  cell(x, y) {
    return this.cells[y * this.width + x];
  }

  get(x, y) {
    return this.cell(x, y).dataset.state;
  }

  /** The board as H lists of W states. */
  grid() {
    const rows = [];
    for (let y = 0; y < this.height; y += 1) {
      rows.push(this.cells.slice(y * this.width, (y + 1) * this.width).map((c) => c.dataset.state));
    }
    return rows;
  }

  set(x, y, state) {
    const cell = this.cell(x, y);
    if (!cell) return;
    cell.dataset.state = state;
    cell.textContent = /^[1-8]$/.test(state) ? state : "";
    cell.setAttribute("aria-label", label(x, y, state));
    if (state !== "covered") this.unpaintCell(cell);
  }

  /** Apply a list of {x, y, state} changes (one auto-solver round, or a move). */
  apply(changes) {
    for (const change of changes) this.set(change.x, change.y, change.state);
  }

  /** Set every cell from H lists of W states, keeping the board when the size is unchanged. */
  load(grid) {
    const height = grid.length;
    const width = height ? grid[0].length : 0;
    if (width !== this.width || height !== this.height) {
      this.reset(width, height, grid);
      return;
    }
    grid.forEach((row, y) => row.forEach((state, x) => {
      if (this.get(x, y) !== state) this.set(x, y, state);
    }));
  }

  unpaintCell(cell) {
    if (cell.classList.contains("painted")) {
      const [x, y, state] = [Number(cell.dataset.x), Number(cell.dataset.y), cell.dataset.state];
      cell.textContent = /^[1-8]$/.test(state) ? state : "";
      cell.setAttribute("aria-label", label(x, y, state));
    }
    delete cell.dataset.mineProbability;
    delete cell.dataset.proven;
    cell.style.removeProperty("--paint");
    cell.classList.remove("painted");
    cell.removeAttribute("data-advised");
  }

  /** Remove every overlay: probabilities, proven marks, the advised cell. */
  clearPaint() {
    for (const cell of this.cells) this.unpaintCell(cell);
    if (this.numbers) this.numbers = null;
  }

  /**
   * Paint an analysis on the covered cells: its probability as data-mine-probability
   * (the API's number, as text), a colour, and a short percentage (mine or safety).
   */
  paint(analysis, show = "mine") {
    this.numbers = analysis.numbers ?? null;
    const proven = new Map();
    for (const [x, y] of analysis.safe ?? []) proven.set(`${x},${y}`, "safe");
    for (const [x, y] of analysis.mines ?? []) proven.set(`${x},${y}`, "mine");
    analysis.probabilities.forEach((row, y) => row.forEach((p, x) => {
      const cell = this.cell(x, y);
      if (!cell) return;
      this.unpaintCell(cell);
      if (p === null || p === undefined || cell.dataset.state !== "covered") return;
      cell.dataset.mineProbability = String(p);
      const shown = show === "safety" ? 1 - p : p;
      cell.style.setProperty("--paint", probabilityColour(p));
      cell.classList.add("painted");
      const kind = proven.get(`${x},${y}`);
      if (kind) cell.dataset.proven = kind;
      const percent = Math.round(shown * 100);
      cell.textContent = kind === "safe" ? "✓" : kind === "mine" ? "✗" : String(percent);
      const words = kind ? `proven ${kind}` : `${show === "safety" ? "safe" : "mine"} ${percent}%`;
      cell.setAttribute("aria-label", label(x, y, "covered", words));
    }));
  }

  markAdvised(x, y) {
    for (const cell of this.cells) cell.removeAttribute("data-advised");
    const cell = this.cell(x, y);
    if (cell) cell.dataset.advised = "true";
  }

  /** P(0..8) of a covered cell from the last painted analysis, or null. */
  numberChances(x, y) {
    return this.numbers?.[y]?.[x] ?? null;
  }

  focusCell(index) {
    if (index < 0 || index >= this.cells.length) return;
    this.cells[this.focusIndex].tabIndex = -1;
    this.focusIndex = index;
    this.cells[index].tabIndex = 0;
    this.cells[index].focus();
  }

  listen() {
    const at = (event) => {
      const cell = event.target.closest?.(".cell");
      return cell && this.element.contains(cell) ? [Number(cell.dataset.x), Number(cell.dataset.y), cell] : null;
    };
    this.element.addEventListener("click", (event) => {
      const hit = at(event);
      if (!hit) return;
      this.cells[this.focusIndex].tabIndex = -1;
      this.focusIndex = hit[1] * this.width + hit[0];
      hit[2].tabIndex = 0;
      if (Date.now() - this.lastLongPress < 800) return; // the tap that ended a long press
      this.handlers.onProbe?.(hit[0], hit[1], event);
    });
    this.element.addEventListener("contextmenu", (event) => {
      const hit = at(event);
      if (!hit) return;
      event.preventDefault();
      if (Date.now() - this.lastLongPress < 800) return; // a long press already flagged it
      if (this.pressTimer) {
        // The browser's own long-press menu came first: it flags, the timer must not.
        this.cancelPress();
        this.lastLongPress = Date.now();
      }
      this.handlers.onFlag?.(hit[0], hit[1]);
    });
    this.element.addEventListener("pointerdown", (event) => {
      const hit = at(event);
      if (!hit || event.pointerType === "mouse") return;
      this.cancelPress();
      this.pressStart = [event.clientX, event.clientY];
      this.pressTimer = setTimeout(() => {
        this.pressTimer = null;
        this.lastLongPress = Date.now();
        this.handlers.onFlag?.(hit[0], hit[1]);
      }, LONG_PRESS_MS);
    });
    this.element.addEventListener("pointermove", (event) => {
      if (!this.pressTimer || !this.pressStart) return;
      const moved = Math.hypot(event.clientX - this.pressStart[0], event.clientY - this.pressStart[1]);
      if (moved > 10) this.cancelPress(); // a scroll, not a press
    });
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
      this.element.addEventListener(type, () => this.cancelPress());
    }
    this.element.addEventListener("pointerover", (event) => {
      const hit = at(event);
      if (hit) this.handlers.onHover?.(hit[0], hit[1]);
    });
    this.element.addEventListener("focusin", (event) => {
      const hit = at(event);
      if (hit) this.handlers.onHover?.(hit[0], hit[1]);
    });
    this.element.addEventListener("keydown", (event) => this.key(event, at(event)));
  }

  cancelPress() {
    if (this.pressTimer) clearTimeout(this.pressTimer);
    this.pressTimer = null;
  }

  key(event, hit) {
    if (!hit) return;
    const [x, y] = hit;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[event.key]) {
      event.preventDefault();
      const [dx, dy] = moves[event.key];
      const nx = Math.min(this.width - 1, Math.max(0, x + dx));
      const ny = Math.min(this.height - 1, Math.max(0, y + dy));
      this.focusCell(ny * this.width + nx);
      return;
    }
    if (event.key === "f" || event.key === "F") {
      if (this.handlers.onKey?.(x, y, event.key)) return;
      event.preventDefault();
      this.handlers.onFlag?.(x, y);
      return;
    }
    if (this.handlers.onKey?.(x, y, event.key)) event.preventDefault();
  }
}
