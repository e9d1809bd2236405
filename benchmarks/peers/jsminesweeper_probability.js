// Times JSMinesweeper's probability engine live, for benchmarks/peers/jsminesweeper.py.
//
// Usage: node jsminesweeper_probability.js JSMINESWEEPER_DIR
//
// JSMINESWEEPER_DIR is a checkout of https://github.com/DavidNHill/JSMinesweeper; its
// engine files are read from there at start-up and never copied into this repository.
// The browser page loads them as plain scripts sharing one global scope, so they are run
// here the same way: concatenated into one script run in node's own global context, with
// the globals the page's main.js would set (the binomial cache, analysisMode) set by us.
//
// Protocol, one JSON object per line on stdin, one JSON reply per line on stdout, so the
// Python side can interleave this engine with its own per position (A B A B ...):
//   {"cmd": "load", "positions": [{"width", "height", "mines", "grid": [flat ints]}]}
//       grid codes as SemiAutoMines' view: -1 covered, -2 flag, 0..8 a number.
//   {"cmd": "time", "index": i, "repeat": n, "full": true} -> {"ms": [n wall times in ms]}
//       full false: the engine as its solver runs it by default, which stops at the
//       first part of the frontier with a certain safe cell (no whole-board probabilities).
//   {"cmd": "probs", "index": i} -> {"total": "N", "mine_tally": [per cell "n" or null]}
//       exact integers: cell i's mine probability is mine_tally[i] / total.
//   {"cmd": "rounded", "index": i} -> {"mine_probability": [per cell float or null]}
//       the engine's own float output (1 - its safety, which it rounds to 8 decimals).
//   {"cmd": "quit"}
// One call (what "time" measures) goes from the position to every covered cell's
// probability, as ours and ms-toollib's do: the witness scan of its solver_main.js's
// doSolve, the engine's constructor and process() with fullProbability (no early exit
// on the first safe cell), and reading every covered cell's probability.

"use strict";

const readline = require("readline");

// JSMinesweeper's probability engine scripts, loaded as the playing driver loads its own.
const { ENGINE_FILES, runScripts } = require("./jsminesweeper_scripts.js");

// Runs inside the context, after the engine files: it sees their classes and functions.
const DRIVER = `
globalThis.analysisMode = false;
globalThis.binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));
const FULL = { playStyle: PLAY_STYLE_FLAGS, verbose: false, fullProbability: true };
const EARLY_EXIT = { playStyle: PLAY_STYLE_FLAGS, verbose: false, fullProbability: false };

function makeBoard(position) {
    const board = new Board(0, position.width, position.height, position.mines, 0, "safe");
    for (let i = 0; i < position.grid.length; i++) {
        const code = position.grid[i];
        const tile = board.getTile(i);
        if (code >= 0) {
            tile.setValue(code);
        } else if (code === -2) {
            tile.toggleFlag();
            tile.setFoundBomb();
        } else if (code !== -1) {
            throw new Error("unknown cell code " + code);
        }
    }
    return board;
}

// The witness scan of doSolve, then the engine. Returns the engine and the covered tiles.
function runEngine(board, full = true) {
    const witnesses = [];
    const work = new Set();
    const covered = [];
    let minesLeft = board.num_bombs;
    for (const tile of board.tiles) {
        if (tile.isSolverFoundBomb()) {
            minesLeft--;
            continue;
        }
        if (tile.isCovered()) {
            covered.push(tile);
            continue;
        }
        let needsWork = false;
        for (const adj of board.getAdjacent(tile)) {
            if (adj.isCovered() && !adj.isSolverFoundBomb()) {
                needsWork = true;
                work.add(adj.index);
            }
        }
        if (needsWork) {
            witnesses.push(tile);
        }
    }
    const witnessed = [];
    for (const index of work) {
        witnessed.push(board.getTile(index));
    }
    const engine = new ProbabilityEngine(board, witnesses, witnessed, covered.length, minesLeft, full ? FULL : EARLY_EXIT);
    engine.process();
    return [engine, covered];
}

function oneCall(board, full) {
    const [engine, covered] = runEngine(board, full);
    const safety = new Float64Array(covered.length);
    for (let i = 0; i < covered.length; i++) {
        safety[i] = engine.getProbability(covered[i]);
    }
    return safety;
}

function boxOf(engine, tile) {
    for (const box of engine.boxes) {
        if (box.contains(tile)) {
            return box;
        }
    }
    return null;
}

globalThis.driver = { makeBoard, runEngine, oneCall, boxOf };
`;

function loadEngine(root) {
    runScripts(root, ENGINE_FILES, DRIVER);
    return globalThis.driver;
}

function main() {
    const root = process.argv[2];
    if (!root) {
        throw new Error("usage: node jsminesweeper_probability.js JSMINESWEEPER_DIR");
    }
    const driver = loadEngine(root);
    let positions = [];
    let boards = [];
    const reply = (object) => process.stdout.write(JSON.stringify(object) + "\n");
    const lines = readline.createInterface({ input: process.stdin });
    lines.on("line", (line) => {
        const request = JSON.parse(line);
        if (request.cmd === "load") {
            positions = request.positions;
            boards = positions.map((p) => driver.makeBoard(p));
            reply({ loaded: boards.length });
        } else if (request.cmd === "time") {
            const board = boards[request.index];
            const ms = [];
            for (let r = 0; r < request.repeat; r++) {
                const start = process.hrtime.bigint();
                driver.oneCall(board, request.full !== false);
                ms.push(Number(process.hrtime.bigint() - start) / 1e6);
            }
            reply({ ms });
        } else if (request.cmd === "probs") {
            const board = boards[request.index];
            const [engine, covered] = driver.runEngine(board);
            const tally = new Array(positions[request.index].grid.length).fill(null);
            for (const tile of covered) {
                const box = driver.boxOf(engine, tile);
                tally[tile.index] = (box === null ? engine.offEdgeMineTally : box.mineTally).toString();
            }
            reply({ total: engine.finalSolutionsCount.toString(), mine_tally: tally });
        } else if (request.cmd === "rounded") {
            const board = boards[request.index];
            const [engine, covered] = driver.runEngine(board);
            const probability = new Array(positions[request.index].grid.length).fill(null);
            for (const tile of covered) {
                probability[tile.index] = 1 - engine.getProbability(tile);
            }
            reply({ mine_probability: probability });
        } else if (request.cmd === "quit") {
            lines.close();
        } else {
            throw new Error("unknown command " + request.cmd);
        }
    });
}

main();
