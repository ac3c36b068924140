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

/** Replace a node's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function describeResult(result) {
  if (!result) return "";
  const scores = result.players.map((p) => `seat ${p.seat}: ${p.total}`).join(", ");
  return `Game over — winner${result.winners.length > 1 ? "s" : ""}: seat ${result.winners.join(", seat ")} (${scores})`;
}
