// Calico's quilts in SVG, for `castell serve`. To play: pick a hand patch, then a highlighted
// hex of your quilt, then a market patch. Goals are chosen from the legal-action list.
// Everything shown comes from the view (names, not indices); text goes in with textContent.

const NS = "http://www.w3.org/2000/svg";
const COLOURS = {
  dark_blue: "#2c4f8c", light_blue: "#7fb8e0", yellow: "#f2c94c",
  pink: "#ee8fb0", purple: "#8e6bbf", green: "#5fa35f",
};
const SIZE = 22; // hex radius
const W = Math.sqrt(3) * SIZE;

let picked = null; // the hand patch picked, as "colour/pattern"

function node(tag, attrs = {}, text = null) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) n.setAttribute(k, String(v));
  if (text !== null) n.textContent = String(text);
  return n;
}

function colourOf(name) {
  if (COLOURS[name]) return COLOURS[name];
  let h = 0;
  for (const c of String(name)) h = (h * 31 + c.charCodeAt(0)) % 360;
  return `hsl(${h} 45% 60%)`;
}

function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

/** One patch: a coloured hex with the pattern's first letters. */
function patch(cx, cy, r, colour, pattern, attrs = {}) {
  const g = node("g", attrs);
  g.append(node("polygon", {points: hexPoints(cx, cy, r), fill: colourOf(colour), stroke: "#fff", "stroke-width": 2}));
  g.append(node("text", {x: cx, y: cy + 4, "text-anchor": "middle", "font-size": r * 0.55, fill: "#1b1b1b"}, pattern.slice(0, 3)));
  const title = node("title", {}, `${colour} ${pattern}`);
  g.append(title);
  return g;
}

function clickable(g, action, act) {
  g.setAttribute("class", "clickable");
  g.setAttribute("data-action", action);
  g.addEventListener("click", (event) => { event.stopPropagation(); act(action); });
}

export function render(view, svg, context) {
  const table = view.table;
  const {columns, rows} = table.quilt;
  const legal = new Set(context.legal);
  const places = context.legal.filter((a) => a.startsWith("place "));
  const hands = new Set(places.map((a) => a.split(" ")[1]));
  if (!hands.has(picked)) picked = hands.size === 1 ? [...hands][0] : null;
  svg.replaceChildren();

  const quiltW = columns * W + W / 2 + 20;
  const quiltH = rows * SIZE * 1.5 + SIZE + 64;
  const perRow = Math.min(2, table.seats.length);
  const width = Math.max(perRow * quiltW, 720);
  const top = 120;
  const height = top + Math.ceil(table.seats.length / perRow) * quiltH;
  svg.setAttribute("viewBox", `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`);

  // Market, then cats.
  svg.append(node("text", {x: 10, y: 22, "font-weight": "bold"}, "Market"));
  table.market.forEach((m, i) => {
    const g = patch(40 + i * 56, 60, 24, m.colour, m.pattern, {"data-testid": `market-${m.slot}`});
    const take = `take ${m.colour}/${m.pattern}`;
    if (legal.has(take)) clickable(g, take, context.act);
    svg.append(g);
  });
  svg.append(node("text", {x: 10, y: 104, "font-size": 12, fill: "#555"}, `bag ${table.bag}`));
  table.cats.forEach((cat, i) => {
    const want = cat.group ? `group of ${cat.group}+` : `shape of ${cat.shape.length}`;
    svg.append(node("text", {x: 240, y: 22 + i * 18, "font-size": 13},
      `${cat.name} (${cat.points}): ${want} — ${cat.patterns.join(", ")}`));
  });

  table.seats.forEach((seat, index) => {
    const ox = (index % perRow) * quiltW + 10;
    const oy = top + Math.floor(index / perRow) * quiltH;
    const toPlay = view.current_player === seat.seat;
    const label = `Seat ${seat.seat}${context.seat === seat.seat ? " (you)" : ""}: ${seat.board ?? ""} board${toPlay ? " — to play" : ""}`;
    svg.append(node("text", {x: ox, y: oy + 12, "font-weight": toPlay ? "bold" : "normal"}, label));
    svg.append(node("text", {x: ox, y: oy + 36, "font-size": 12, fill: "#555"}, "hand"));
    // The hand, under the label.
    seat.hand.forEach((h, i) => {
      const key = `${h.colour}/${h.pattern}`;
      const mine = toPlay && hands.has(key);
      const hx = ox + 60 + i * 40, hy = oy + 32;
      const g = patch(hx, hy, 16, h.colour, h.pattern,
        {"data-testid": `hand-${seat.seat}-${i}`, "data-patch": key});
      if (mine) {
        g.setAttribute("class", "clickable");
        g.addEventListener("click", () => { picked = key; render(view, svg, context); });
        if (picked === key) g.append(node("polygon", {points: hexPoints(hx, hy, 19), fill: "none", stroke: "#b5403a", "stroke-width": 3}));
      }
      svg.append(g);
    });
    for (const cell of seat.cells) {
      const cx = ox + W / 2 + cell.col * W + (cell.row % 2 ? W / 2 : 0);
      const cy = oy + 66 + cell.row * SIZE * 1.5;
      const at = `${cell.col},${cell.row}`;
      if (cell.colour) {
        const g = patch(cx, cy, SIZE, cell.colour, cell.pattern, {"data-hex": at});
        if (cell.cat) g.append(node("circle", {cx: cx - 8, cy: cy - 9, r: 5, fill: "#333"}, null));
        if (cell.button) g.append(node("circle", {cx: cx + 9, cy: cy - 9, r: 5, fill: "#fff", stroke: colourOf(cell.button), "stroke-width": 3}));
        svg.append(g);
      } else if (cell.goal_space) {
        const g = node("g", {"data-hex": at});
        g.append(node("polygon", {points: hexPoints(cx, cy, SIZE), fill: "#444", stroke: "#fff", "stroke-width": 2}));
        g.append(node("text", {x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 8, fill: "#fff"}, (cell.goal ?? `G${cell.goal_space}`).slice(0, 8)));
        g.append(node("title", {}, cell.goal ?? `design goal space ${cell.goal_space}`));
        svg.append(g);
      } else {
        const place = picked && toPlay ? `place ${picked} ${at}` : null;
        const target = place && legal.has(place);
        const g = node("g", {"data-hex": at, "data-target": target ? "yes" : null});
        g.append(node("polygon", {points: hexPoints(cx, cy, SIZE), fill: target ? "#fde9a9" : "#eee", stroke: target ? "#b5403a" : "#fff", "stroke-width": 2}));
        if (target) clickable(g, place, context.act);
        svg.append(g);
      }
    }
    const met = seat.goals_met.both_ways.length + seat.goals_met.one_way.length;
    svg.append(node("text", {x: ox, y: oy + quiltH - 14, "font-size": 12, fill: "#555"},
      `cats: ${seat.cat_tokens.join(", ") || "–"}   buttons: ${seat.buttons.join(", ") || "–"}   goals met: ${met}`));
  });
}
