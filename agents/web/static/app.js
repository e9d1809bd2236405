// The page: four modes (Play, Analyse, Watch, Replay). Only the open mode's section is
// in the document, so every data-x/data-y/data-game-state on the page belongs to it.
// The URL's query names the mode (?mode=analyse) and, for Play, the game (board, seed, ...).

import { agents, RULE_SETS } from "./api.js";
import { AnalyseMode } from "./analyse.js";
import { PlayMode } from "./play.js";
import { ReplayMode } from "./replay.js";
import { WatchMode } from "./watch.js";

const MODES = { play: PlayMode, analyse: AnalyseMode, watch: WatchMode, replay: ReplayMode };
const opened = {};
let current = null;

function section(name) {
  const template = document.getElementById(`${name}-template`);
  const node = template.content.firstElementChild.cloneNode(true);
  for (const select of node.querySelectorAll(".rules-select")) {
    const chosen = select.dataset.default ?? "complete";
    for (const rule of RULE_SETS) select.append(new Option(rule, rule, rule === chosen, rule === chosen));
  }
  return node;
}

/** Open a mode: build it the first time, then swap its section into <main>. */
export function openMode(name, params = new URLSearchParams()) {
  if (!MODES[name]) name = "play";
  if (!opened[name]) {
    const node = section(name);
    opened[name] = { node, mode: null };
    document.getElementById("main").replaceChildren(node);
    opened[name].mode = new MODES[name](node, params);
  } else {
    document.getElementById("main").replaceChildren(opened[name].node);
  }
  current = name;
  for (const tab of document.querySelectorAll("[data-mode]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.mode === name));
  }
  document.body.dataset.mode = name;
  opened[name].mode.shown?.();
  const query = new URLSearchParams(location.search);
  if (query.get("mode") !== name) {
    const url = new URL(location.href);
    url.search = name === "play" ? "" : `?mode=${name}`;
    history.replaceState(null, "", url);
  }
}

document.addEventListener("keydown", (event) => {
  if (event.target.closest?.("input, textarea, select")) return;
  opened[current]?.mode.key?.(event);
});

for (const tab of document.querySelectorAll("[data-mode]")) {
  tab.addEventListener("click", () => openMode(tab.dataset.mode));
}

agents().then(({ agents: names, default: fallback }) => {
  const list = document.getElementById("agent-list");
  for (const name of names) list.append(new Option(name, name));
  for (const input of document.querySelectorAll(".agent-input")) {
    if (!input.value && input.name !== "agent2") input.value = fallback;
  }
  document.body.dataset.defaultAgent = fallback;
});

const params = new URLSearchParams(location.search);
openMode(params.get("mode") ?? "play", params);
