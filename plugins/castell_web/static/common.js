// Small helpers shared by the pages. Everything from the network or a rule file is put in the
// page with textContent or setAttribute, never as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element: el("button", {class: "x", onclick: f}, "text", child…). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An SVG element, with optional text content. */
export function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  if (text !== null) node.textContent = String(text);
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

/** GET or POST JSON; throws an Error with the server's message on failure. */
export async function api(path, body = undefined) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

/** Load a game's renderer module, or the generic one when the game ships none. */
export async function loadRenderer(url) {
  if (url) {
    try {
      return await import(url);
    } catch (error) {
      console.warn("renderer failed to load; using the generic view", error);
    }
  }
  return import("/static/generic.js");
}

/** Make an SVG group a button for mouse and keyboard alike: clickable, focusable, and pressed
 * by Enter or Space. The pages hand it to the games' renderers (`context.pressable`), so every
 * board's controls behave the same. */
export function pressable(g, label, onPress) {
  g.setAttribute("class", `${g.getAttribute("class") ?? ""} clickable`.trim());
  g.setAttribute("role", "button");
  g.setAttribute("tabindex", "0");
  g.setAttribute("aria-label", label);
  g.addEventListener("click", (e) => { e.stopPropagation(); onPress(); });
  g.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); onPress(); }
  });
}

/** Replace a node's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Each seat's colour, the same on every page and in every game's board: its name is said
 * beside it (never colour alone). */
export const SEAT_COLOURS = [
  {name: "red", hex: "#c0392b"}, {name: "blue", hex: "#2e6fbe"},
  {name: "green", hex: "#2f9e44"}, {name: "purple", hex: "#8e44ad"},
];

export function seatColour(seat) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

/** A seat's label: its player's name (or "seat 2", "seat 1 (greedy)"), "(you)" on one's own. */
export function seatLabel(names, seat, mine = null) {
  const name = names?.[seat] ?? `seat ${seat}`;
  return seat === mine ? `${name} (you)` : name;
}

/** A coloured dot with the colour's name for screen readers. */
export function swatch(seat) {
  const colour = seatColour(seat);
  const node = el("span", {class: "swatch", title: colour.name, role: "img", "aria-label": colour.name});
  node.style.backgroundColor = colour.hex;  // CSSOM, which the page's CSP allows
  return node;
}

/** One log line: the seat's colour and name, the action, and "stand-in" when a bot stood in. */
export function logLine(names, seat, text, {mine = null, standIn = false} = {}) {
  const who = seat === null || seat === undefined ? [] : [swatch(seat), el("span", {class: "who"}, seatLabel(names, seat, mine)), " "];
  return [...who, el("span", {class: "what"}, text), standIn ? el("span", {class: "standin"}, " (stand-in)") : null];
}

export function describeResult(result, names = null) {
  if (!result) return "";
  const label = (seat) => seatLabel(names, seat);
  if (result.players.length === 1) return `Game over — final score ${result.players[0].total}`;
  const scores = result.players.map((p) => `${label(p.seat)}: ${p.total}`).join(", ");
  return `Game over — winner${result.winners.length > 1 ? "s" : ""}: ${result.winners.map(label).join(", ")} (${scores})`;
}

/** The scores by category as a table: a column per seat (two to four fit a phone), a row per
 * category, the total last. */
export function scoreTable(rows, names, mine, winners = []) {
  if (!rows?.length) return el("p", {}, "No scores yet.");
  const categories = Object.keys(rows[0].categories);
  const heading = (name) => name.replace(/_/g, " ");
  const mark = (row) => (winners.includes(row.seat) ? "winner" : null);
  return el("div", {class: "scroll"}, el("table", {class: "scores", "data-testid": "score-table"},
    el("thead", {}, el("tr", {}, el("th", {scope: "col"}, "Category"),
      rows.map((row) => el("th", {scope: "col", class: mark(row)}, swatch(row.seat), seatLabel(names, row.seat, mine))))),
    el("tbody", {},
      categories.map((c) => el("tr", {}, el("th", {scope: "row"}, heading(c)), rows.map((row) => el("td", {class: mark(row)}, String(row.categories[c]))))),
      el("tr", {class: "total"}, el("th", {scope: "row"}, "Total"), rows.map((row) => el("td", {class: mark(row)}, String(row.total)))))));
}

/** The end of a game: scores by category per seat, the winners and what decided, the game's
 * own verdict, and where to replay it. */
export function resultPanel(result, {names, mine = null, decided = "", outcome = [], replay = null}) {
  const label = (seat) => seatLabel(names, seat, mine);
  const alone = result.players.length === 1;
  const title = alone ? `Final score: ${result.players[0].total}`
    : `Winner${result.winners.length > 1 ? "s" : ""}: ${result.winners.map(label).join(" and ")}`;
  return el("section", {class: "result", "data-testid": "result", "aria-labelledby": "result-title"},
    el("h2", {id: "result-title"}, title),
    decided ? el("p", {"data-testid": "decided"}, decided) : null,
    outcome.map((line) => el("p", {"data-testid": "outcome"}, line)),
    scoreTable(result.players, names, mine, alone ? [] : result.winners),
    replay ? el("p", {}, el("a", {href: replay, "data-testid": "replay-link"}, "Replay this game step by step")) : null);
}
