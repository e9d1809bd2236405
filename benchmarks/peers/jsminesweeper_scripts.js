// JSMinesweeper's browser scripts, loaded into node for our two drivers
// (jsminesweeper_player.js, jsminesweeper_probability.js). Which scripts, in order,
// is one list in jsminesweeper_files.json, also read by the Python side.

"use strict";

const fs = require("fs");
const path = require("path");
const vm = require("vm");

const LISTS = require("./jsminesweeper_files.json");

// Runs `files` of the checkout at `root`, then `driverSource` in their scope (it sees
// their classes and functions). Their log lines go to stderr: stdout carries replies.
function runScripts(root, files, driverSource) {
    const sources = files.map((file) => {
        const full = path.join(root, file);
        if (!fs.existsSync(full)) {
            throw new Error(full + " not found: is " + root + " a JSMinesweeper checkout?");
        }
        return fs.readFileSync(full, "utf8");
    });
    globalThis.console = new console.Console(process.stderr);
    // This context, not a new vm context: there every global the scripts read (BigInt,
    // their own top-level functions) would go through the sandbox's interceptors, which
    // slows them several-fold and would not be the solver as a browser runs it.
    vm.runInThisContext(sources.join("\n;\n") + "\n" + driverSource, { filename: "jsminesweeper" });
}

module.exports = {
    ENGINE_FILES: LISTS.engine,
    PLAYER_FILES: [...LISTS.engine, ...LISTS.player],
    runScripts,
};
