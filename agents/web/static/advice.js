// The advice panel: the advised cell, the quantity that decided it (for it and for each
// candidate) and, when it is not the safest cell, the sentence saying why it beats it.

const fixed = (value, digits = 3) => (typeof value === "number" ? value.toFixed(digits) : value ?? "–");

function element(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function candidateTable(advice, board) {
  const table = element("table", null, { class: "candidates" });
  table.append(element("caption", "Candidates the adviser weighed"));
  const head = element("tr");
  for (const name of ["cell", "mine P", "progress", "survival", "50/50 factor", "score"]) {
    head.append(element("th", name, { scope: "col" }));
  }
  table.appendChild(element("thead")).append(head);
  const body = table.appendChild(element("tbody"));
  for (const c of advice.candidates ?? []) {
    const row = element("tr", null, { "data-x": c.x, "data-y": c.y });
    if (c.x === advice.x && c.y === advice.y) row.classList.add("chosen");
    for (const value of [`(${c.x}, ${c.y})`, fixed(c.probability), fixed(c.progress), fixed(c.survival), fixed(c.factor), fixed(c.score, 4)]) {
      row.append(element("td", value));
    }
    if (board) {
      row.addEventListener("mouseenter", () => board.cell(c.x, c.y)?.classList.add("highlight"));
      row.addEventListener("mouseleave", () => board.cell(c.x, c.y)?.classList.remove("highlight"));
    }
    body.append(row);
  }
  return table;
}

/** Fill container with the advice (the object `semiautomines guess --json` prints), or a note. */
export function renderAdvice(container, advice, board = null) {
  container.replaceChildren();
  if (!advice) {
    container.append(element("p", "Probabilities only: no adviser asked.", { class: "muted" }));
    return;
  }
  const head = element("h2", `Probe (${advice.x}, ${advice.y})`);
  head.dataset.adviceX = advice.x;
  head.dataset.adviceY = advice.y;
  container.append(head);
  const facts = element("dl", null, { class: "facts" });
  const fact = (name, value) => facts.append(element("dt", name), element("dd", value));
  fact("reason", advice.reason);
  fact("mine probability", fixed(advice.probability));
  fact("decided by", advice.decided_by ?? advice.reason);
  if (advice.value !== null && advice.value !== undefined) fact("its value", fixed(advice.value, 4));
  if (advice.win_probability !== null && advice.win_probability !== undefined) {
    fact("win probability", fixed(advice.win_probability));
  }
  if (advice.safest) {
    fact("safest cell", `(${advice.safest.x}, ${advice.safest.y}) at ${fixed(advice.safest.probability)}`);
  }
  if (advice.mines !== null && advice.mines !== undefined) fact("mines", String(advice.mines));
  container.append(facts);
  const why = advice.why ?? "It is the safest cell.";
  container.append(element("p", why, { class: "why" }));
  if ((advice.candidates ?? []).length) container.append(candidateTable(advice, board));
}
