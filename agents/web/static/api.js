// The JSON API, and the one place an error line reaches the user.

const errorBox = () => document.getElementById("error");

/** Show one line of error text at the top of the page (or clear it with ""). */
export function showError(message) {
  const box = errorBox();
  box.textContent = message;
  box.hidden = !message;
}

/** GET or POST JSON; a 4xx/5xx answer becomes an Error carrying the server's one line. */
export async function api(path, body) {
  const init = body === undefined
    ? {}
    : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new Error(`the server did not answer (${err.message})`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const line = data && typeof data.error === "string" ? data.error : `${response.status} ${response.statusText}`;
    throw new Error(line);
  }
  return data;
}

/** Run an async action; its failure is shown, never thrown into the console only. */
export async function guarded(action) {
  try {
    showError("");
    return await action();
  } catch (err) {
    showError(err.message);
    return undefined;
  }
}

let agentsPromise = null;

/** The agent names and the default adviser, asked once. */
export function agents() {
  if (!agentsPromise) {
    agentsPromise = api("/api/agents").catch(() => ({ agents: ["search"], default: "search" }));
  }
  return agentsPromise;
}

export const RULE_SETS = ["complete", "endoh", "endoh-alt", "groups", "mysweeper", "substitution"];

/** Width, height and mines of a board name (a preset or WxHxM), or null. */
export function boardSize(board) {
  const presets = { beginner: [9, 9, 10], intermediate: [16, 16, 40], expert: [30, 16, 99] };
  if (presets[board]) return presets[board];
  const match = /^(\d+)x(\d+)x(\d+)$/i.exec(board.trim());
  return match ? match.slice(1, 4).map(Number) : null;
}
