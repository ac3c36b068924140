// Icons as inline SVG (never font glyphs, which some phones draw as empty boxes). Each icon is
// decorative: the button or link it sits in carries the words.
import {svg} from "./common.js";

const PATHS = {
  first: "M6 5h2v14H6zM20 5v14L9 12z",
  back: "M17 5v14L6 12z",
  forward: "M7 5v14l11-7z",
  last: "M16 5h2v14h-2zM4 5v14l11-7z",
  online: "M12 7a5 5 0 1 0 0 10a5 5 0 1 0 0-10z",
  clock: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zm0 2a7 7 0 1 1 0 14a7 7 0 1 1 0-14zm-1 2v6l5 3 1-1.7-4-2.3V7z",
  sound: "M4 9h4l5-4v14l-5-4H4zM16 8a5 5 0 0 1 0 8l-1-1.4a3.3 3.3 0 0 0 0-5.2z",
  bot: "M9 2h6v3h3a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2h3zm0 8a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3zm6 0a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3z",
  trophy: "M7 3h10v3h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 16v2h3v3H8v-3h3v-2a5 5 0 0 1-2.7-3H8a4 4 0 0 1-4-4V6h3zm-1 5v1a2 2 0 0 0 1 1.7V8zm12 0v2.7A2 2 0 0 0 19 9V8z",
};

/** An icon element: a 24×24 SVG drawn in the current text colour. */
export function icon(name, size = 18) {
  const node = svg("svg", {viewBox: "0 0 24 24", width: size, height: size, class: `icon icon-${name}`, "aria-hidden": "true", focusable: "false"});
  node.append(svg("path", {d: PATHS[name], fill: "currentColor"}));
  return node;
}

/** Put icons in every element marked data-icon="NAME" (static pages). */
export function placeIcons(root = document) {
  for (const node of root.querySelectorAll("[data-icon]")) {
    if (!node.querySelector("svg.icon")) node.prepend(icon(node.dataset.icon));
  }
}
