// The smiley, drawn in SVG so it looks the same without any emoji font.

const FACES = {
  playing: '<circle cx="8" cy="9" r="1.4"/><circle cx="16" cy="9" r="1.4"/><path d="M7 14.5q5 4 10 0" fill="none" stroke="#000" stroke-width="1.5"/>',
  busy: '<circle cx="8" cy="9" r="1.4"/><circle cx="16" cy="9" r="1.4"/><circle cx="12" cy="16" r="2" fill="none" stroke="#000" stroke-width="1.5"/>',
  won: '<path d="M4 8h16v1.5l-2 2.5h-3l-2-2.5h-2l-2 2.5H6L4 9.5z"/><path d="M7 15q5 4 10 0" fill="none" stroke="#000" stroke-width="1.5"/>',
  lost: '<path d="M6.5 7.5l3 3m0-3l-3 3M14.5 7.5l3 3m0-3l-3 3" stroke="#000" stroke-width="1.4"/><path d="M7 17.5q5-4 10 0" fill="none" stroke="#000" stroke-width="1.5"/>',
};

/** Set the smiley button's face: "playing", "busy", "won" or "lost". */
export function setFace(button, face) {
  button.innerHTML = `<svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true"><circle cx="12" cy="12" r="10.5" fill="#ffd93b" stroke="#000" stroke-width="1"/>${FACES[face] ?? FACES.playing}</svg>`;
  button.dataset.face = face;
}
