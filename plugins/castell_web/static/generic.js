// The generic view, for a game that ships no renderer: the view as a readable tree. The legal
// actions are clickable in the page's list, so every game is playable through it.
import {svg} from "./common.js";

export function render(view, board, _context) {
  board.replaceChildren();
  const lines = [];
  walk(view.table ?? view, "", 0, lines);
  const height = 18 * lines.length + 20;
  board.setAttribute("viewBox", `0 0 900 ${height}`);
  lines.forEach(([depth, text], i) => {
    board.append(svg("text", {x: 10 + depth * 18, y: 20 + i * 18, class: "tree"}, text));
  });
}

function walk(value, label, depth, lines) {
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    const flat = entries.every(([, v]) => v === null || typeof v !== "object");
    if (flat && entries.length <= 12) {
      const body = entries.map(([k, v]) => (Array.isArray(value) ? String(v) : `${k}: ${v}`));
      lines.push([depth, `${label}${label ? ": " : ""}${Array.isArray(value) ? "[" : "{"}${body.join(", ")}${Array.isArray(value) ? "]" : "}"}`]);
      return;
    }
    if (label) lines.push([depth, label]);
    for (const [key, child] of entries) walk(child, key, depth + 1, lines);
    return;
  }
  lines.push([depth, `${label}: ${value}`]);
}
