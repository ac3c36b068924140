// Castell's table in SVG, for `castell serve`: the regions (click one to move there), the
// castellers in your region (pick them, then recruit), the wheel (click a slot to train), the
// festival calendar, every team, and a tower builder that the server checks as you build and
// that offers the solver's best towers. Local performance tiles are drawn as small towers with
// their points (a tooltip says what each one asks). Every clickable part is a button for the
// keyboard too (Tab, then Enter or Space). Two layouts: a ring of regions beside the wheel on a
// wide screen, one column of region cards on a phone (`context.narrow`).

const NS = "http://www.w3.org/2000/svg";
const FALLBACK_COLOURS = [{name: "red", hex: "#c0392b"}, {name: "blue", hex: "#2e6fbe"}, {name: "green", hex: "#2f9e44"}, {name: "purple", hex: "#8e44ad"}];
const ACCENT = "#a3352f";
const CARD = {w: 176, h: 168};

const ui = {recruit: [], levels: [[]], verdict: null, key: null};

function node(tag, attrs = {}, text = null) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) n.setAttribute(k, String(v));
  if (text !== null) n.textContent = String(text);
  return n;
}

/** Make a group a button: clickable, focusable, Enter and Space press it. */
/** The host page's button maker (`context.pressable`: mouse and keyboard alike). */
let pressable = () => {};

function title(g, text) {
  g.append(node("title", {}, text));
}

function button(x, y, label, onClick, attrs = {}) {
  const g = node("g", attrs);
  const w = Math.max(44, 16 + label.length * 7.4);
  g.append(node("rect", {x, y, width: w, height: 32, rx: 6, fill: onClick ? ACCENT : "#9a9a9a"}));
  g.append(node("text", {x: x + w / 2, y: y + 21, "text-anchor": "middle", fill: "#fff", "font-size": 13}, label));
  if (onClick) pressable(g, label, onClick);
  else g.setAttribute("aria-disabled", "true");
  return [g, w];
}

function chip(x, y, number, {selected = false, onClick = null, testid = null, label = null} = {}) {
  const g = node("g", {"data-testid": testid, "data-casteller": number});
  g.append(node("circle", {cx: x, cy: y, r: 11, fill: selected ? "#fde9a9" : "#fff", stroke: selected ? ACCENT : "#555", "stroke-width": selected ? 3 : 1}));
  g.append(node("text", {x, y: y + 4, "text-anchor": "middle", "font-size": 11}, number));
  if (onClick) pressable(g, label ?? `casteller ${number}${selected ? ", picked" : ""}`, onClick);
  return g;
}

function star(cx, cy, r, fill = "#c99a06") {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
  }
  return node("polygon", {points: pts.join(" "), fill, stroke: "#6b5200", "stroke-width": 0.8});
}

function flag(x, y) {
  const g = node("g", {"aria-hidden": "true"});
  g.append(node("line", {x1: x, y1: y - 10, x2: x, y2: y + 3, stroke: "#333", "stroke-width": 1.5}));
  g.append(node("path", {d: `M${x},${y - 10} L${x + 9},${y - 7} L${x},${y - 4} Z`, fill: ACCENT}));
  return g;
}

function expand(counts) {
  return Object.entries(counts).flatMap(([n, c]) => Array(c).fill(Number(n))).sort((a, b) => a - b);
}

const towerText = (levels) => `tower ${levels.filter((l) => l.length).map((l) => l.join(",")).join("/")}`;

/** A local performance tile as a small tower: a shape's castellers level by level, bottom
 * first; an exhibition's levels with its skills' initials; the points in a badge. */
function tileTower(x, y, name, info) {
  const g = node("g", {"data-tile": name});
  g.append(node("rect", {x, y, width: 52, height: 60, rx: 5, fill: "#f7f1e3", stroke: "#b8a98a"}));
  const levels = info?.shape ?? Array(info?.points ?? 1).fill(1);
  const cell = Math.min(7, 44 / Math.max(...levels, 1), 40 / levels.length);
  levels.forEach((width, i) => {
    const top = y + 52 - (i + 1) * cell;
    for (let j = 0; j < width; j++) {
      g.append(node("rect", {x: x + 26 - (width * cell) / 2 + j * cell + 0.5, y: top + 0.5, width: cell - 1, height: cell - 1, fill: info?.shape ? "#6d5a3d" : "#3d5a6d"}));
    }
  });
  g.append(node("circle", {cx: x + 46, cy: y + 7, r: 8, fill: ACCENT}));
  g.append(node("text", {x: x + 46, y: y + 11, "text-anchor": "middle", "font-size": 10, "font-weight": "bold", fill: "#fff"}, info?.points ?? "?"));
  const caption = info?.exhibition ? info.exhibition.map((s) => s.slice(0, 3)).join("+") : name;
  g.append(node("text", {x: x + 3, y: y + 10, "font-size": 8, fill: "#4a4a4a"}, info?.exhibition ? name : ""));
  g.append(node("text", {x: x + 26, y: y + 59, "text-anchor": "middle", "font-size": 7.5, fill: "#333"}, caption));
  title(g, info?.text ?? name);
  return g;
}

/** One region as a card: name and festival, castellers (pickable where your pawn stands),
 * local performance tiles, pawns and special tokens. */
function regionCard(svg, x, y, r, view, context, state) {
  const {legal, mine, colours} = state;
  const move = legal.has(`move ${r.name}`) ? `move ${r.name}` : (legal.has(`special move ${r.name}`) ? `special move ${r.name}` : null);
  const g = node("g", {"data-region": r.name, "data-action": move});
  const festival = view.table.calendar.find((c) => c.region === r.name && c.round >= view.round);
  g.append(node("rect", {x, y, width: CARD.w, height: CARD.h, rx: 12, fill: move ? "#fff6dc" : "#f4f1ea", stroke: move ? ACCENT : "#a99f8c", "stroke-width": move ? 3 : 1}));
  g.append(node("text", {x: x + 10, y: y + 20, "font-weight": "bold", "font-size": 15}, r.name));
  if (festival) {
    const fx = x + CARD.w - 44;
    g.append(flag(fx, y + 18));
    g.append(node("text", {x: fx + 12, y: y + 20, "font-size": 12, fill: festival.round === view.round ? ACCENT : "#333", "font-weight": festival.round === view.round ? "bold" : "normal"}, `R${festival.round}`));
  }
  if (move) pressable(g, `${move}${festival ? ` (festival in round ${festival.round})` : ""}`, () => context.act(move));
  svg.append(g);
  // What the card holds goes inside it, so a click anywhere on the card is a click on it.
  // Castellers: pickable where your pawn stands.
  const here = expand(r.castellers);
  const recruitable = mine && mine.pawn === r.name && [...legal].some((a) => a.startsWith("recruit "));
  const perRow = 7;
  here.forEach((n, i) => {
    const picked = ui.recruit.includes(i) && recruitable;
    g.append(chip(x + 18 + (i % perRow) * 24, y + 40 + Math.floor(i / perRow) * 24, n, {
      selected: picked,
      testid: recruitable ? `recruit-${n}` : null,
      onClick: recruitable ? () => {
        ui.recruit = picked ? ui.recruit.filter((j) => j !== i) : [...ui.recruit, i];
        state.redraw();
      } : null,
    }));
  });
  if (!here.length) g.append(node("text", {x: x + 10, y: y + 44, "font-size": 11, fill: "#666"}, "no castellers"));
  // Local performance tiles.
  r.local_performances.forEach((name, i) => g.append(tileTower(x + 8 + i * 58, y + 70, name, state.tiles[name])));
  // Pawns and tokens.
  r.pawns.forEach((p, i) => {
    const pawn = node("circle", {cx: x + 16 + i * 16, cy: y + 148, r: 7, fill: colours[p % colours.length].hex, stroke: "#222"});
    pawn.append(node("title", {}, `pawn of ${state.label(p)} (${colours[p % colours.length].name})`));
    g.append(pawn);
  });
  if (r.special_tokens) {
    const t = node("g", {});
    t.append(star(x + CARD.w - 40, y + 146, 8));
    t.append(node("text", {x: x + CARD.w - 28, y: y + 151, "font-size": 13}, `× ${r.special_tokens}`));
    title(t, `${r.special_tokens} special action token(s) on the local performance area`);
    g.append(t);
  }
  if (state.narrow) {  // no lines between cards on a phone: the neighbours in words
    const text = node("text", {x: x + 6, y: y + CARD.h + 13, "font-size": 10.5, fill: "#555"});
    const lines = [];
    for (const name of ["next to", ...r.adjacent]) {
      const last = lines.at(-1);
      if (last !== undefined && (last + " " + name).length <= 32) lines[lines.length - 1] = `${last}${last === "next to" ? " " : ", "}${name}`;
      else lines.push(name);
    }
    lines.forEach((line, i) => text.append(node("tspan", {x: x + 6, dy: i ? 12 : 0}, line)));
    svg.append(text);
  }
}

function wheel(svg, wx, wy, wr, table, legal, context) {
  svg.append(node("text", {x: wx, y: wy - wr - 10, "text-anchor": "middle", "font-weight": "bold"}, "Wheel"));
  const sectors = Object.entries(table.wheel);
  sectors.forEach(([sector, skill], i) => {
    const a0 = (2 * Math.PI * i) / sectors.length - Math.PI / 2;
    const a1 = (2 * Math.PI * (i + 1)) / sectors.length - Math.PI / 2;
    const train = legal.has(`train ${skill}`) ? `train ${skill}` : null;
    const d = `M${wx},${wy} L${wx + wr * Math.cos(a0)},${wy + wr * Math.sin(a0)} A${wr},${wr} 0 0 1 ${wx + wr * Math.cos(a1)},${wy + wr * Math.sin(a1)} Z`;
    const g = node("g", {"data-sector": sector, "data-action": train});
    g.append(node("path", {d, fill: train ? "#fde9a9" : (i % 2 ? "#eee8dc" : "#f7f3ea"), stroke: train ? ACCENT : "#aaa", "stroke-width": train ? 2 : 1}));
    const am = (a0 + a1) / 2;
    const tx = wx + wr * 0.62 * Math.cos(am), ty = wy + wr * 0.62 * Math.sin(am);
    g.append(node("text", {x: tx, y: ty - 4, "text-anchor": "middle", "font-size": 10, fill: "#555"}, sector.replace("_", " ")));
    g.append(node("text", {x: tx, y: ty + 10, "text-anchor": "middle", "font-size": 12, "font-weight": "bold"}, skill));
    if (train) pressable(g, train, () => context.act(train));
    svg.append(g);
  });
}

function calendar(svg, x, y, view) {
  svg.append(node("text", {x, y, "font-weight": "bold"}, "Festivals"));
  const upcoming = view.table.calendar.filter((c) => c.round >= view.round);
  upcoming.forEach((c, i) => {
    const now = c.round === view.round;
    svg.append(node("text", {x, y: y + 20 + i * 17, "font-size": 13, fill: now ? ACCENT : "#333", "font-weight": now ? "bold" : "normal"},
      `R${c.round} ${c.region} (${c.back}) · sizes ${c.size_tokens.join(", ")}`));
  });
  if (!upcoming.length) svg.append(node("text", {x, y: y + 20, "font-size": 13, fill: "#666"}, "no festival left"));
  return y + 20 + Math.max(1, upcoming.length) * 17;
}

function teams(svg, x, y, width, view, state) {
  const {colours, seat} = state;
  view.table.teams.forEach((t) => {
    const colour = colours[t.seat % colours.length];
    const ranks = Object.entries(t.ranks).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(", ") || "no skills";
    svg.append(node("circle", {cx: x + 8, cy: y - 5, r: 7, fill: colour.hex, stroke: "#222"}));
    const head = `${state.label(t.seat)}${seat === t.seat ? " (you)" : ""} · ${colour.name}${view.current_player === t.seat ? " · to play" : ""}`;
    svg.append(node("text", {x: x + 22, y, "font-weight": view.current_player === t.seat ? "bold" : "normal", "font-size": 14}, head));
    const team = Object.entries(t.team).map(([n, c]) => (c > 1 ? `${n}×${c}` : n)).join(" ");
    const lines = [
      `at ${t.pawn ?? "—"} · best tower ${t.best_tower_score}`,
      `skills: ${ranks}`,
      `team ${team || "—"}`,
      `tower ${t.tower ? t.tower.map((l) => l.join(",")).join("/") : "—"}`,
      `prizes ${t.prizes.join(", ") || "—"}`,
    ];
    const text = node("text", {x: x + 22, y: y + 17, "font-size": 12, fill: "#444"});
    const wrapped = lines;
    wrapped.forEach((line, i) => text.append(node("tspan", {x: x + 22, dy: i ? 15 : 0}, line)));
    svg.append(text);
    const tokens = node("g", {});
    tokens.append(star(x + width - 36, y - 5, 7));
    tokens.append(node("text", {x: x + width - 26, y, "font-size": 13}, `× ${t.special_tokens}`));
    title(tokens, `${t.special_tokens} special action token(s)`);
    svg.append(tokens);
    y += 28 + wrapped.length * 15;
  });
  return y;
}

export function render(view, svg, context) {
  pressable = context.pressable;
  const table = view.table;
  const legal = new Set(context.legal);
  const seat = context.seat;
  const mine = seat !== null && seat !== undefined ? table.teams[seat] : null;
  const narrow = !!context.narrow;
  const colours = context.colours ?? FALLBACK_COLOURS;
  const names = context.names ?? [];
  const state = {
    legal, mine, colours, seat, narrow, tiles: context.legend?.tiles ?? {},
    label: (s) => names[s] ?? `seat ${s}`,
    redraw: () => render(view, svg, context),
  };
  // A new decision (the table changed) forgets half-made choices.
  const key = JSON.stringify([view.round, view.current_player, view.turn_actions_used, context.legal.length, mine?.team]);
  if (key !== ui.key) Object.assign(ui, {recruit: [], levels: [[]], verdict: null, key});
  svg.replaceChildren();

  const width = narrow ? 400 : 1100;
  let bottom;
  let panelX, panelY, panelW;
  if (narrow) {
    // Region cards two by two, then the wheel, the festivals, the actions and the teams.
    const pad = (width - 2 * CARD.w) / 3;
    table.regions.forEach((r, i) => {
      regionCard(svg, pad + (i % 2) * (CARD.w + pad), 10 + Math.floor(i / 2) * (CARD.h + 40), r, view, context, state);
    });
    let y = 10 + Math.ceil(table.regions.length / 2) * (CARD.h + 40) + 10;
    wheel(svg, width / 2, y + 150, 125, table, legal, context);
    y += 290;
    y = calendar(svg, 12, y, view) + 16;
    panelX = 12; panelY = y; panelW = width - 24;
  } else {
    // A ring of region cards with their adjacency; the wheel and festivals to the right.
    const cx = 345, cy = 340, radius = 250;  // wide enough that no two cards overlap
    const at = {};
    table.regions.forEach((r, i) => {
      const a = (2 * Math.PI * i) / table.regions.length - Math.PI / 2;
      at[r.name] = [cx + radius * Math.cos(a), cy + radius * Math.sin(a)];
    });
    for (const r of table.regions) {
      for (const other of r.adjacent) {
        if (other < r.name || !at[other]) continue;
        const [x1, y1] = at[r.name], [x2, y2] = at[other];
        svg.append(node("line", {x1, y1, x2, y2, stroke: "#cfc6b4", "stroke-width": 3}));
      }
    }
    for (const r of table.regions) {
      const [x, y] = at[r.name];
      regionCard(svg, x - CARD.w / 2, y - CARD.h / 2, r, view, context, state);
    }
    wheel(svg, 860, 170, 130, table, legal, context);
    calendar(svg, 715, 350, view);
    panelX = 20; panelY = 700; panelW = width - 40;
  }
  let y = panelY;
  if (mine && context.legal.length && mine.pawn) y = actions(svg, panelX, y, panelW, view, context, mine, state) + 20;
  bottom = teams(svg, panelX, y + 14, panelW, view, state);
  svg.setAttribute("viewBox", `0 0 ${width} ${Math.ceil(bottom + 10)}`);
}

/** The actions panel: recruit the castellers picked in your region, and the tower builder
 * (click team castellers to add them to the top level; the server says at once whether the
 * tower so far is legal; the solver's best towers are one click away). */
function actions(svg, x, y, width, view, context, mine, state) {
  const {legal} = state;
  const here = view.table.regions.find((r) => r.name === mine.pawn);
  if (here && [...legal].some((a) => a.startsWith("recruit "))) {
    const castellers = expand(here.castellers);
    const numbers = ui.recruit.map((i) => castellers[i]).sort((a, b) => a - b);
    const text = `recruit ${numbers.join(" ")}`;
    const ok = numbers.length && legal.has(text);
    svg.append(node("text", {x, y: y + 14, "font-weight": "bold"}, "Recruit"));
    const [b] = button(x + 70, y - 6, numbers.length ? text : `pick castellers in ${mine.pawn}`, ok ? () => context.act(text) : null, {"data-action": ok ? text : null});
    svg.append(b);
    y += 44;
  }
  const team = expand(mine.team);
  const used = ui.levels.flat();
  const left = [...team];
  for (const n of used) left.splice(left.indexOf(n), 1);
  svg.append(node("text", {x, y: y + 12, "font-weight": "bold"}, "Tower builder"));
  const perRow = Math.max(1, Math.floor((width - 20) / 24));
  left.forEach((n, i) => svg.append(chip(x + 12 + (i % perRow) * 24, y + 32 + Math.floor(i / perRow) * 24, n, {
    testid: `team-${n}`,
    label: `add casteller ${n} to the tower`,
    onClick: () => { ui.levels[ui.levels.length - 1].push(n); ui.verdict = null; state.redraw(); check(); },
  })));
  y += 32 + Math.ceil(Math.max(left.length, 1) / perRow) * 24;
  const text = towerText(ui.levels);
  svg.append(node("text", {x, y: y + 4, "font-family": "monospace", "font-size": 13, "data-testid": "tower-text"}, used.length ? text : "tower: click your castellers, bottom level first"));
  y += 14;
  let bx = x;
  const add = (label, fn, attrs) => {
    const w = Math.max(44, 16 + label.length * 7.4);
    if (bx + w > x + width) { bx = x; y += 40; }
    const [b] = button(bx, y, label, fn, attrs);
    svg.append(b);
    bx += w + 8;
  };
  add("next level", ui.levels.at(-1).length ? () => { ui.levels.push([]); state.redraw(); } : null);
  add("clear", used.length ? () => { ui.levels = [[]]; ui.verdict = null; state.redraw(); } : null);
  const ok = ui.verdict?.ok && legal.size;
  add("build", ok ? () => context.act(text) : null, {"data-action": ok ? text : null, "data-testid": "build-tower"});
  [...legal].filter((a) => a.startsWith("tower ")).forEach((b) => add(`best: ${b.slice(6)}`, () => context.act(b), {"data-action": b}));
  y += 40;
  if (ui.verdict) {
    svg.append(node("text", {x, y: y + 8, "font-size": 12, fill: ui.verdict.ok ? "#1f6f33" : ACCENT, "data-testid": "tower-verdict"},
      ui.verdict.ok ? `${text}: legal` : `${ui.verdict.message}`));
    y += 18;
  }
  return y;

  async function check() {
    const asked = towerText(ui.levels);
    const answer = await context.check(asked);
    if (asked === towerText(ui.levels)) { ui.verdict = answer; state.redraw(); }
  }
}
