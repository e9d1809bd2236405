// The position format (what a player sees, as text): "W H [mines]" then H rows of
// "?" covered, "!" a known mine, a digit a probed cell; spaces inside rows ignored.

/** Grid of cell states ("covered", "flag", "0".."8") -> position text. */
export function positionText(grid, totalMines) {
  const height = grid.length;
  const width = height ? grid[0].length : 0;
  const header = totalMines === null || totalMines === undefined ? `${width} ${height}` : `${width} ${height} ${totalMines}`;
  const rows = grid.map((row) => row.map((state) => {
    if (state === "flag" || state === "mine") return "!";
    if (state === "covered") return "?";
    return state;
  }).join(""));
  return [header, ...rows].join("\n") + "\n";
}

/** Position text -> {grid, total}; throws an Error with one line when it is not one. */
export function parsePosition(text) {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() && !line.trim().startsWith("#"));
  if (!lines.length) throw new Error("empty position: expected a 'width height' header");
  const header = lines[0].trim().split(/\s+/).map(Number);
  if (![2, 3].includes(header.length) || header.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new Error(`header must be 'width height' or 'width height mines', got '${lines[0].trim()}'`);
  }
  const [width, height] = header;
  const rows = lines.slice(1);
  if (rows.length !== height) throw new Error(`expected ${height} rows, found ${rows.length}`);
  const grid = rows.map((line, y) => {
    const cells = line.replace(/\s+/g, "");
    if (cells.length !== width) throw new Error(`row ${y + 1} has ${cells.length} cells, expected ${width}`);
    return [...cells].map((char) => {
      if (char === "?") return "covered";
      if (char === "!") return "flag";
      if (/^[0-8]$/.test(char)) return char;
      throw new Error(`unexpected character '${char}' in row ${y + 1}: use '?', '!' or a digit`);
    });
  });
  return { grid, total: header.length === 3 ? header[2] : null };
}
