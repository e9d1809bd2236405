// Asks JSMinesweeper's own solver for its move, for benchmarks/jsminesweeper_paired.py.
//
// Usage: node jsminesweeper_player.js JSMINESWEEPER_DIR
//
// JSMINESWEEPER_DIR holds JSMinesweeper's Minesweeper/client and Minesweeper/Utility
// folders (a checkout, or the files extracted into a temporary folder); they are read at
// start-up and never copied into this repository. The browser page loads them as plain
// scripts sharing one global scope, so they run here the same way: concatenated into one
// script in node's own global context, with the few globals its page script (main.js,
// not loaded) would set defined by us: the binomial cache, the cell code BOMB, sleep,
// showMessage, the global `board` its LongTermRiskHelper reads, and the solver's
// start-up call.
//
// Protocol: {"ready": true} once the solver is loaded, then one JSON object per line on
// stdin, one JSON reply per line on stdout:
//   {"width", "height", "mines", "grid": [flat ints]}
//       grid codes as SemiAutoMines' view: -1 covered, -2 a flagged (proven) mine,
//       0..8 a number. Flags are given to the solver as mines it found itself.
//   -> {"cell": flat index, "safety": its safety, "path": which part of the solver
//       chose it, "message": the solver's own message, "ms": wall time in node,
//       "cpu_ms": CPU time of this process for the answer}
//   (or {"error": "..."} when it returns no clear action)
// The solver is asked as JSMinesweeper's own bulk runs ask it (bulkRun in main.js: no
// flags, full probability, advanced guessing), and its first clear action is the move.
//
// Two changes make every answer a function of the position alone (so it can be cached):
// - the solver skips its tie-break when its probability engine took 50 ms or more of
//   wall time, which would make the move depend on the machine's load; the engine's
//   time is reported to it as 0, so the tie-break always runs, as on a fast machine;
// - Math.random, which only keys the brute-force analysis's position cache, is a
//   seeded generator restarted for every position.

"use strict";

const readline = require("readline");

// JSMinesweeper's scripts this driver loads: the probability engine's, then its solver's.
const { PLAYER_FILES, runScripts } = require("./jsminesweeper_scripts.js");

// Runs inside the scripts' scope, after them: it sees their classes and functions.
const DRIVER = `
globalThis.analysisMode = false;
globalThis.BOMB = 9;
globalThis.binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));
globalThis.lastMessage = "";
globalThis.showMessage = (text) => { globalThis.lastMessage = text; };
globalThis.sleep = async () => {};
solver(null);  // the page's start-up call: it sets the solver's entry points

const timedProcess = ProbabilityEngine.prototype.process;
ProbabilityEngine.prototype.process = function () {
    const result = timedProcess.apply(this, arguments);
    this.duration = 0;
    return result;
};

const OPTIONS = { playStyle: PLAY_STYLE_NOFLAGS, verbose: false, advancedGuessing: true,
    fullProbability: true, hardcore: false };

function makeBoard(position) {
    const board = new Board(0, position.width, position.height, position.mines, 0, "safe");
    for (let i = 0; i < position.grid.length; i++) {
        const code = position.grid[i];
        if (code >= 0) {
            board.getTile(i).setValue(code);
        } else if (code === -2) {
            board.getTile(i).setFoundBomb();
        } else if (code !== -1) {
            throw new Error("unknown cell code " + code);
        }
    }
    return board;
}

async function choose(position) {
    const board = makeBoard(position);
    globalThis.board = board;
    globalThis.lastMessage = "";
    const reply = await solver(board, Object.assign({}, OPTIONS));
    for (const action of reply.actions) {
        if (action.action === ACTION_CLEAR) {
            return { cell: board.xy_to_index(action.x, action.y), safety: action.prob,
                message: globalThis.lastMessage };
        }
    }
    return { error: "no clear action: " + globalThis.lastMessage };
}

globalThis.playerDriver = { choose };
`;

// Which part of the solver chose the move, from its message (the solver returns no tag).
const PATHS = [
    ["safe", /safe tiles|all the remaining tiles are safe/i],
    ["brute force", /chance to (win the game|solve the isolated edge)/i],
    ["50/50", /unavoidable 50\/50/i],
    ["dead", /dead/i],
    ["tie-break", /Guessing heuristic/i],
    ["engine", /safest guess using the probability engine/i],
    ["off edge", /best guess is off the edge/i],
];

function pathOf(message) {
    for (const [name, pattern] of PATHS) {
        if (pattern.test(message)) {
            return name;
        }
    }
    return "other";
}

// A small seeded generator (mulberry32): the brute-force cache keys need only be distinct.
function seeded(seed) {
    let state = seed >>> 0;
    return function () {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

function loadSolver(root) {
    runScripts(root, PLAYER_FILES, DRIVER);
    return globalThis.playerDriver;
}

async function answer(driver, line) {
    const position = JSON.parse(line);
    Math.random = seeded(12345);
    const start = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const reply = await driver.choose(position);
    reply.ms = Number(process.hrtime.bigint() - start) / 1e6;
    const used = process.cpuUsage(cpu);
    reply.cpu_ms = (used.user + used.system) / 1000;
    if (reply.message !== undefined) {
        reply.path = pathOf(reply.message);
    }
    return reply;
}

function main() {
    const root = process.argv[2];
    if (!root) {
        throw new Error("usage: node jsminesweeper_player.js JSMINESWEEPER_DIR");
    }
    // Ctrl-C reaches the whole process group: the Python side decides when to stop, and
    // closing stdin ends this process.
    process.on("SIGINT", () => {});
    const driver = loadSolver(root);
    process.stdout.write(JSON.stringify({ ready: true }) + "\n");  // start-up is not a move's time
    const lines = readline.createInterface({ input: process.stdin });
    // One position at a time, in order: the solver keeps state in globals.
    let queue = Promise.resolve();
    lines.on("line", (line) => {
        queue = queue.then(async () => {
            let reply;
            try {
                reply = await answer(driver, line);
            } catch (error) {
                reply = { error: String(error && error.stack ? error.stack : error) };
            }
            process.stdout.write(JSON.stringify(reply) + "\n");
        });
    });
}

main();
