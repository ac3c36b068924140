// Calico's quilts in SVG, for `castell serve`. To play: pick a hand patch, then a highlighted
// hex of your quilt, then a market patch; goals are chosen from the legal-action list. Each of
// the six patterns is drawn as a pattern (an SVG <pattern> in dark and light ink over the
// colour), so patches differ in greyscale as well as by colour; design goals show their
// condition (groups of alike neighbours), cats the patterns they want. Every clickable part is
// a button for the keyboard too. Everything shown comes from the view and the legend.

const NS = "http://www.w3.org/2000/svg";
const COLOURS = {
  dark_blue: "#2c4f8c", light_blue: "#7fb8e0", yellow: "#f2c94c",
  pink: "#ee8fb0", purple: "#8e6bbf", green: "#5fa35f",
};
const ACCENT = "#a3352f";
const SIZE = 22; // hex radius
const W = Math.sqrt(3) * SIZE;

let picked = null; // the hand patch picked, as "colour/pattern"

function node(tag, attrs = {}, text = null) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) n.setAttribute(k, String(v));
  if (text !== null) n.textContent = String(text);
  return n;
}

/** The host page's button maker (`context.pressable`: mouse and keyboard alike). */
let pressable = () => {};

function colourOf(name) {
  if (COLOURS[name]) return COLOURS[name];
  let h = 0;
  for (const c of String(name)) h = (h * 31 + c.charCodeAt(0)) % 360;
  return `hsl(${h} 45% 60%)`;
}

const words = (name) => String(name).replace(/_/g, " ");

/** The six patterns, each drawn in dark ink with a light halo so it reads on any colour. */
const PATTERN_SHAPES = {
  dots: (p) => { for (const [x, y] of [[3, 3], [9, 9]]) p.append(node("circle", {cx: x, cy: y, r: 1.9, fill: "#111", stroke: "#fff", "stroke-width": 0.7})); },
  stripes: (p) => { p.append(node("path", {d: "M-3,3 L3,-3 M0,12 L12,0 M9,15 L15,9", stroke: "#111", "stroke-width": 2.2})); p.append(node("path", {d: "M-3,3 L3,-3 M0,12 L12,0 M9,15 L15,9", stroke: "#fff", "stroke-width": 0.6})); },
  ferns: (p) => { p.append(node("path", {d: "M6,1 L6,11 M6,4 L2,2 M6,4 L10,2 M6,7 L2,5 M6,7 L10,5 M6,10 L2,8 M6,10 L10,8", stroke: "#111", "stroke-width": 1.1, fill: "none"})); },
  flowers: (p) => { for (const [x, y] of [[6, 3.5], [8.5, 6], [6, 8.5], [3.5, 6]]) p.append(node("circle", {cx: x, cy: y, r: 1.8, fill: "#fff", stroke: "#111", "stroke-width": 0.8})); p.append(node("circle", {cx: 6, cy: 6, r: 1.1, fill: "#111"})); },
  quatrefoil: (p) => { p.append(node("path", {d: "M6,1 Q11,6 6,11 Q1,6 6,1 Z M1,6 Q6,1 11,6 Q6,11 1,6 Z", fill: "none", stroke: "#111", "stroke-width": 1.1})); },
  vines: (p) => { p.append(node("path", {d: "M0,4 Q3,0 6,4 T12,4 M0,10 Q3,6 6,10 T12,10", fill: "none", stroke: "#111", "stroke-width": 1.4})); },
};

function defs(svg, patterns) {
  const d = node("defs");
  for (const name of patterns) {
    const p = node("pattern", {id: `calico-${name}`, patternUnits: "userSpaceOnUse", width: 12, height: 12});
    (PATTERN_SHAPES[name] ?? ((q) => q.append(node("text", {x: 1, y: 9, "font-size": 7}, name.slice(0, 2)))))(p);
    d.append(p);
  }
  svg.append(d);
}

function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

/** One patch: its colour, its pattern drawn over it, and its name in a tooltip. */
function patch(cx, cy, r, colour, pattern, attrs = {}) {
  const g = node("g", attrs);
  g.append(node("polygon", {points: hexPoints(cx, cy, r), fill: colourOf(colour), stroke: "#fff", "stroke-width": 2}));
  g.append(node("polygon", {points: hexPoints(cx, cy, r - 2), fill: `url(#calico-${pattern})`, "fill-opacity": 0.85}));
  g.append(node("title", {}, `${words(colour)} ${words(pattern)}`));
  return g;
}

/** A cat token: a small cat's head. */
function catHead(cx, cy, r, name) {
  const g = node("g", {});
  g.append(node("path", {d: `M${cx - r},${cy - r * 0.2} L${cx - r * 0.8},${cy - r * 1.3} L${cx - r * 0.25},${cy - r * 0.75} L${cx + r * 0.25},${cy - r * 0.75} L${cx + r * 0.8},${cy - r * 1.3} L${cx + r},${cy - r * 0.2} A${r},${r * 0.85} 0 0 1 ${cx - r},${cy - r * 0.2} Z`, fill: "#333", stroke: "#fff", "stroke-width": 1}));
  g.append(node("title", {}, `cat token${name ? `: ${name}` : ""}`));
  return g;
}

/** A button: a round button with four holes in its colour. */
function buttonIcon(cx, cy, r, colour) {
  const g = node("g", {});
  g.append(node("circle", {cx, cy, r, fill: colour === "rainbow" ? "#fff" : colourOf(colour), stroke: "#222", "stroke-width": 1.2}));
  for (const [dx, dy] of [[-1, -1], [1, -1], [-1, 1], [1, 1]]) g.append(node("circle", {cx: cx + dx * r * 0.3, cy: cy + dy * r * 0.3, r: r * 0.14, fill: "#222"}));
  g.append(node("title", {}, `${words(colour)} button`));
  return g;
}

/** A design goal's condition: its groups of alike neighbours as dots, group by group. */
function goalGlyph(cx, cy, counts, ink = "#fff") {
  const g = node("g", {"aria-hidden": "true"});
  const dots = counts.reduce((a, b) => a + b, 0) + counts.length - 1;
  const step = 5.2;
  let x = cx - ((dots - 1) * step) / 2;
  counts.forEach((count, group) => {
    for (let i = 0; i < count; i++) {
      g.append(node("circle", {cx: x, cy, r: 2.1, fill: group % 2 ? "none" : ink, stroke: ink, "stroke-width": 1}));
      x += step;
    }
    x += step;
  });
  return g;
}

function goalText(name, goal) {
  if (!goal) return words(name);
  return `${goal.title}: among the six neighbours, groups of ${goal.counts.join(", ")} alike (colour or pattern): ${goal.one_way} points one way, ${goal.both_ways} both ways`;
}

export function render(view, svg, context) {
  pressable = context.pressable;
  const table = view.table;
  const {columns, rows} = table.quilt;
  const legal = new Set(context.legal);
  const places = context.legal.filter((a) => a.startsWith("place "));
  const hands = new Set(places.map((a) => a.split(" ")[1]));
  if (!hands.has(picked)) picked = hands.size === 1 ? [...hands][0] : null;
  const narrow = !!context.narrow;
  const names = context.names ?? [];
  const goals = context.legend?.goals ?? {};
  const patterns = context.legend?.patterns ?? Object.keys(PATTERN_SHAPES);
  svg.replaceChildren();
  defs(svg, patterns);

  const quiltW = columns * W + W / 2 + 20;
  const quiltBottom = 78 + (rows - 1) * SIZE * 1.5 + SIZE + 10;  // below the quilt's last row
  const choosing = table.seats.some((s) => s.revealed_goals?.length && view.current_player === s.seat);
  const quiltH = quiltBottom + (choosing ? 52 : 0) + 52;
  const perRow = narrow ? 1 : Math.min(2, table.seats.length);
  const width = Math.max(perRow * quiltW, narrow ? 340 : 720);

  // Market.
  svg.append(node("text", {x: 10, y: 22, "font-weight": "bold"}, "Market"));
  table.market.forEach((m, i) => {
    const g = patch(36 + i * 56, 58, 24, m.colour, m.pattern, {"data-testid": `market-${m.slot}`});
    const take = `take ${m.colour}/${m.pattern}`;
    if (legal.has(take)) {
      g.setAttribute("data-action", take);
      pressable(g, take, () => context.act(take));
    }
    svg.append(g);
  });
  svg.append(node("text", {x: 10, y: 102, "font-size": 12, fill: "#555"}, `bag: ${table.bag} patches`));

  // Cats: name, points, what they want, and their two patterns as swatches.
  let y = narrow ? 128 : 22;
  const catX = narrow ? 10 : 200;
  svg.append(node("text", {x: catX, y, "font-weight": "bold"}, "Cats"));
  table.cats.forEach((cat) => {
    y += 26;
    const want = cat.group ? `a group of ${cat.group}+` : `the shape of ${cat.shape.length}`;
    const g = node("g", {});
    g.append(catHead(catX + 8, y - 4, 8, cat.name));
    g.append(node("text", {x: catX + 22, y, "font-size": 13}, `${cat.name} (${cat.points}): ${want} of`));
    if (narrow) y += 22;
    const sx = narrow ? catX + 30 : catX + 230;
    cat.patterns.forEach((pattern, i) => {
      const s = patch(sx + i * 104, y - 4, 10, "none", pattern);
      s.firstChild.setAttribute("fill", "#f4f1ea");
      s.firstChild.setAttribute("stroke", "#777");
      g.append(s);
      g.append(node("text", {x: sx + i * 104 + 13, y, "font-size": 11, fill: "#333"}, words(pattern)));
    });
    g.append(node("title", {}, `${cat.name}: ${cat.points} points for ${want} patches of ${cat.patterns.map(words).join(" or ")}`));
    svg.append(g);
  });
  y += 18;
  // The pattern key: each pattern drawn beside its name.
  const keyX = narrow ? 10 : 200;
  patterns.forEach((pattern, i) => {
    const kx = keyX + (i % 3) * 105, ky = y + Math.floor(i / 3) * 22;
    const s = patch(kx + 8, ky - 4, 9, "none", pattern);
    s.firstChild.setAttribute("fill", "#f4f1ea");
    s.firstChild.setAttribute("stroke", "#777");
    svg.append(s);
    svg.append(node("text", {x: kx + 21, y: ky, "font-size": 11, fill: "#333"}, words(pattern)));
  });
  y += Math.ceil(patterns.length / 3) * 22 + 6;
  const top = Math.max(y, narrow ? 0 : 140);

  table.seats.forEach((seat, index) => {
    const ox = (index % perRow) * quiltW + 10;
    const oy = top + Math.floor(index / perRow) * quiltH;
    const toPlay = view.current_player === seat.seat;
    const who = names[seat.seat] ?? `seat ${seat.seat}`;
    const label = `${who}${context.seat === seat.seat ? " (you)" : ""}: ${seat.board ?? ""} board${toPlay ? " — to play" : ""}`;
    svg.append(node("text", {x: ox, y: oy + 14, "font-weight": toPlay ? "bold" : "normal"}, label));
    svg.append(node("text", {x: ox, y: oy + 42, "font-size": 12, fill: "#555"}, "hand"));
    seat.hand.forEach((h, i) => {
      const key = `${h.colour}/${h.pattern}`;
      const mine = toPlay && hands.has(key);
      const hx = ox + 60 + i * 44, hy = oy + 38;
      const g = patch(hx, hy, 18, h.colour, h.pattern, {"data-testid": `hand-${seat.seat}-${i}`, "data-patch": key});
      if (mine) {
        pressable(g, `pick ${words(h.colour)} ${words(h.pattern)} from your hand`, () => { picked = key; render(view, svg, context); });
        if (picked === key) g.append(node("polygon", {points: hexPoints(hx, hy, 21), fill: "none", stroke: ACCENT, "stroke-width": 3}));
      }
      svg.append(g);
    });
    for (const cell of seat.cells) {
      const cx = ox + W / 2 + cell.col * W + (cell.row % 2 ? W / 2 : 0);
      const cy = oy + 78 + cell.row * SIZE * 1.5;
      const at = `${cell.col},${cell.row}`;
      if (cell.colour) {
        const g = patch(cx, cy, SIZE, cell.colour, cell.pattern, {"data-hex": at});
        if (cell.cat) g.append(catHead(cx - 8, cy - 5, 6, cell.cat));
        if (cell.button) g.append(buttonIcon(cx + 9, cy - 9, 6, cell.button));
        svg.append(g);
      } else if (cell.goal_space) {
        const goal = cell.goal ? goals[cell.goal] : null;
        const g = node("g", {"data-hex": at, "data-goal": cell.goal ?? null});
        g.append(node("polygon", {points: hexPoints(cx, cy, SIZE), fill: "#3b3b3b", stroke: "#fff", "stroke-width": 2}));
        if (goal) {
          g.append(goalGlyph(cx, cy - 4, goal.counts));
          g.append(node("text", {x: cx, y: cy + 11, "text-anchor": "middle", "font-size": 8, fill: "#fff"}, `${goal.one_way}/${goal.both_ways}`));
        } else {
          g.append(node("text", {x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 10, fill: "#fff"}, `G${cell.goal_space}`));
        }
        g.append(node("title", {}, cell.goal ? goalText(cell.goal, goal) : `design goal space ${cell.goal_space}: choose its goal`));
        svg.append(g);
      } else {
        const place = picked && toPlay ? `place ${picked} ${at}` : null;
        const target = place && legal.has(place);
        const g = node("g", {"data-hex": at, "data-target": target ? "yes" : null});
        g.append(node("polygon", {points: hexPoints(cx, cy, SIZE), fill: target ? "#fde9a9" : "#eee", stroke: target ? ACCENT : "#fff", "stroke-width": 2}));
        if (target) {
          g.setAttribute("data-action", place);
          pressable(g, `${place}`, () => context.act(place));
        }
        svg.append(g);
      }
    }
    // Below the quilt: goals still to choose (with their conditions), tokens, buttons, goals met.
    let by = oy + quiltBottom;
    if (seat.revealed_goals?.length && toPlay) {
      seat.revealed_goals.forEach((name, i) => {
        const goal = goals[name];
        const gx = ox + 4 + (i % 2) * 150, gy = by + 12 + Math.floor(i / 2) * 24;
        const box = node("g", {"data-goal-choice": name});
        box.append(node("rect", {x: gx, y: gy - 12, width: 146, height: 20, rx: 4, fill: "#3b3b3b"}));
        if (goal) box.append(goalGlyph(gx + 40, gy - 2, goal.counts));
        box.append(node("text", {x: gx + 84, y: gy + 2, "font-size": 10, fill: "#fff"}, goal ? goal.title : words(name)));
        box.append(node("title", {}, goalText(name, goal)));
        svg.append(box);
      });
      by += 52;
    }
    const tokens = node("g", {});
    tokens.append(node("text", {x: ox, y: by + 16, "font-size": 12, fill: "#444"}, "cats"));
    seat.cat_tokens.forEach((cat, i) => tokens.append(catHead(ox + 40 + i * 18, by + 12, 6, cat)));
    const bx = ox + 40 + Math.max(1, seat.cat_tokens.length) * 18 + 14;
    tokens.append(node("text", {x: bx, y: by + 16, "font-size": 12, fill: "#444"}, "buttons"));
    seat.buttons.forEach((b, i) => tokens.append(buttonIcon(bx + 60 + i * 16, by + 12, 6, b)));
    const met = seat.goals_met.both_ways.length + seat.goals_met.one_way.length;
    tokens.append(node("text", {x: ox, y: by + 36, "font-size": 12, fill: "#444"}, `design goals met: ${met}`));
    svg.append(tokens);
  });
  const height = top + Math.ceil(table.seats.length / perRow) * quiltH;
  svg.setAttribute("viewBox", `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`);
}
