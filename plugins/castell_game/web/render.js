// Castell's table in SVG, for `castell serve`: the regions (click one to move there), the
// castellers in your region (pick them, then recruit), the wheel (click a slot to train) and
// your team with a tower builder that the server checks as you build and that offers the
// solver's best towers. Every other action (special moves, performances) is in the legal list.

const NS = "http://www.w3.org/2000/svg";
const SEAT_COLOURS = ["#c0392b", "#2e6fbe", "#2f9e44", "#a05fb8"];

const ui = {recruit: [], levels: [[]], verdict: null, key: null};

function node(tag, attrs = {}, text = null) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) n.setAttribute(k, String(v));
  if (text !== null) n.textContent = String(text);
  return n;
}

function button(x, y, label, onClick, attrs = {}) {
  const g = node("g", {class: onClick ? "clickable" : null, ...attrs});
  const w = 12 + label.length * 7;
  g.append(node("rect", {x, y, width: w, height: 22, rx: 4, fill: onClick ? "#b5403a" : "#bbb"}));
  g.append(node("text", {x: x + w / 2, y: y + 15, "text-anchor": "middle", fill: "#fff", "font-size": 12}, label));
  if (onClick) g.addEventListener("click", (e) => { e.stopPropagation(); onClick(); });
  return [g, w];
}

function chip(x, y, number, {fill = "#fff", selected = false, onClick = null, testid = null} = {}) {
  const g = node("g", {class: onClick ? "clickable" : null, "data-testid": testid, "data-casteller": number});
  g.append(node("circle", {cx: x, cy: y, r: 11, fill: selected ? "#fde9a9" : fill, stroke: selected ? "#b5403a" : "#555", "stroke-width": selected ? 3 : 1}));
  g.append(node("text", {x, y: y + 4, "text-anchor": "middle", "font-size": 11}, number));
  if (onClick) g.addEventListener("click", (e) => { e.stopPropagation(); onClick(); });
  return g;
}

function expand(counts) {
  return Object.entries(counts).flatMap(([n, c]) => Array(c).fill(Number(n))).sort((a, b) => a - b);
}

const towerText = (levels) => `tower ${levels.filter((l) => l.length).map((l) => l.join(",")).join("/")}`;

export function render(view, svg, context) {
  const table = view.table;
  const legal = new Set(context.legal);
  const seat = context.seat;
  const mine = seat !== null && seat !== undefined ? table.teams[seat] : null;
  const redraw = () => render(view, svg, context);
  // A new decision (the table changed) forgets half-made choices.
  const key = JSON.stringify([view.round, view.current_player, view.turn_actions_used, context.legal.length, mine?.team]);
  if (key !== ui.key) Object.assign(ui, {recruit: [], levels: [[]], verdict: null, key});
  svg.replaceChildren();
  svg.setAttribute("viewBox", "0 0 1100 800");

  // ---- regions ---------------------------------------------------------------------------
  const cx = 300, cy = 300, radius = 220;
  const at = {};
  table.regions.forEach((r, i) => {
    const a = (2 * Math.PI * i) / table.regions.length - Math.PI / 2;
    at[r.name] = [cx + radius * Math.cos(a), cy + radius * Math.sin(a)];
  });
  for (const r of table.regions) {
    for (const other of r.adjacent) {
      if (other < r.name) continue;
      const [x1, y1] = at[r.name], [x2, y2] = at[other];
      svg.append(node("line", {x1, y1, x2, y2, stroke: "#ccc", "stroke-width": 3}));
    }
  }
  for (const r of table.regions) {
    const [x, y] = at[r.name];
    const move = legal.has(`move ${r.name}`) ? `move ${r.name}` : (legal.has(`special move ${r.name}`) ? `special move ${r.name}` : null);
    const g = node("g", {"data-region": r.name, "data-action": move, class: move ? "clickable" : null});
    const festival = table.calendar.find((c) => c.region === r.name && c.round >= view.round);
    g.append(node("circle", {cx: x, cy: y, r: 70, fill: move ? "#fff6dc" : "#f4f1ea", stroke: move ? "#b5403a" : "#aaa", "stroke-width": move ? 3 : 1}));
    g.append(node("text", {x, y: y - 44, "text-anchor": "middle", "font-weight": "bold"}, r.name));
    g.append(node("text", {x, y: y - 28, "text-anchor": "middle", "font-size": 11, fill: "#666"},
      `${r.local_performances.join(" ")}${festival ? ` · festival r${festival.round}` : ""}`));
    if (move) g.addEventListener("click", () => context.act(move));
    svg.append(g);
    // Castellers (inside the region: a click beside a pickable one moves there) to recruit: pickable where your pawn stands.
    const here = expand(r.castellers);
    const recruitable = mine && mine.pawn === r.name && [...legal].some((a) => a.startsWith("recruit "));
    here.forEach((n, i) => {
      const picked = ui.recruit.includes(i) && recruitable;
      g.append(chip(x - (here.length - 1) * 12 + i * 24, y, n, {
        selected: picked,
        testid: recruitable ? `recruit-${n}` : null,
        onClick: recruitable ? () => {
          ui.recruit = picked ? ui.recruit.filter((j) => j !== i) : [...ui.recruit, i];
          redraw();
        } : null,
      }));
    });
    r.pawns.forEach((p, i) => g.append(node("circle", {cx: x - 20 + i * 14, cy: y + 30, r: 6, fill: SEAT_COLOURS[p % 4]})));
    if (r.special_tokens) g.append(node("text", {x, y: y + 52, "text-anchor": "middle", "font-size": 11}, `★ ${r.special_tokens}`));
    if (recruitable) {
      const numbers = ui.recruit.map((i) => here[i]).sort((a, b) => a - b);
      const text = `recruit ${numbers.join(" ")}`;
      const ok = numbers.length && legal.has(text);
      const [b] = button(x - 40, y + 78, numbers.length ? text : "pick castellers", ok ? () => context.act(text) : null, {"data-action": ok ? text : null});
      svg.append(b);
    }
  }

  // ---- wheel -----------------------------------------------------------------------------
  const wx = 760, wy = 150, wr = 120;
  const sectors = Object.entries(table.wheel);
  svg.append(node("text", {x: wx, y: 18, "text-anchor": "middle", "font-weight": "bold"}, "Wheel"));
  sectors.forEach(([sector, skill], i) => {
    const a0 = (2 * Math.PI * i) / sectors.length - Math.PI / 2;
    const a1 = (2 * Math.PI * (i + 1)) / sectors.length - Math.PI / 2;
    const train = legal.has(`train ${skill}`) ? `train ${skill}` : null;
    const d = `M${wx},${wy} L${wx + wr * Math.cos(a0)},${wy + wr * Math.sin(a0)} A${wr},${wr} 0 0 1 ${wx + wr * Math.cos(a1)},${wy + wr * Math.sin(a1)} Z`;
    const g = node("g", {"data-sector": sector, "data-action": train, class: train ? "clickable" : null});
    g.append(node("path", {d, fill: train ? "#fde9a9" : (i % 2 ? "#eee8dc" : "#f7f3ea"), stroke: "#aaa"}));
    const am = (a0 + a1) / 2;
    g.append(node("text", {x: wx + wr * 0.62 * Math.cos(am), y: wy + wr * 0.62 * Math.sin(am) - 4, "text-anchor": "middle", "font-size": 10, fill: "#555"}, sector));
    g.append(node("text", {x: wx + wr * 0.62 * Math.cos(am), y: wy + wr * 0.62 * Math.sin(am) + 9, "text-anchor": "middle", "font-size": 11, "font-weight": "bold"}, skill));
    if (train) g.addEventListener("click", () => context.act(train));
    svg.append(g);
  });

  // ---- calendar --------------------------------------------------------------------------
  svg.append(node("text", {x: 900, y: 300, "font-weight": "bold"}, "Calendar"));
  table.calendar.forEach((c, i) => {
    svg.append(node("text", {x: 900, y: 318 + i * 16, "font-size": 12, fill: c.round === view.round ? "#b5403a" : "#333"},
      `r${c.round} ${c.region} (${c.back}) sizes ${c.size_tokens.join(",")}`));
  });

  // ---- teams -----------------------------------------------------------------------------
  const ty = 620;
  table.teams.forEach((t, i) => {
    const y = ty + i * 44;
    const ranks = Object.entries(t.ranks).map(([k, v]) => `${k} ${v}`).join(" · ");
    svg.append(node("circle", {cx: 16, cy: y - 4, r: 6, fill: SEAT_COLOURS[t.seat % 4]}));
    svg.append(node("text", {x: 28, y, "font-weight": view.current_player === t.seat ? "bold" : "normal", "font-size": 13},
      `Seat ${t.seat}${seat === t.seat ? " (you)" : ""} at ${t.pawn ?? "—"} · ${ranks} · ★${t.special_tokens} · best ${t.best_tower_score}`));
    svg.append(node("text", {x: 28, y: y + 16, "font-size": 11, fill: "#555"},
      `team ${expand(t.team).join(" ")} · tower ${t.tower ? t.tower.map((l) => l.join(",")).join("/") : "—"} · prizes ${t.prizes.join(", ") || "—"}`));
  });
  if (mine && context.legal.length && mine.pawn) {
    builder(svg, view, context, mine, legal, redraw, ty - 120);
  }
}

/** The tower builder: click team castellers to add them to the top level; the server says
 * at once whether the tower so far is legal; the solver's best towers are one click away. */
function builder(svg, view, context, mine, legal, redraw, y) {
  const team = expand(mine.team);
  const used = ui.levels.flat();
  const left = [...team];
  for (const n of used) left.splice(left.indexOf(n), 1);
  svg.append(node("text", {x: 620, y, "font-weight": "bold"}, "Tower builder"));
  left.forEach((n, i) => svg.append(chip(632 + i * 24, y + 20, n, {
    testid: `team-${n}`,
    onClick: () => { ui.levels[ui.levels.length - 1].push(n); ui.verdict = null; redraw(); check(); },
  })));
  const text = towerText(ui.levels);
  svg.append(node("text", {x: 620, y: y + 50, "font-family": "monospace", "font-size": 13, "data-testid": "tower-text"}, used.length ? text : "tower (click your castellers, bottom level first)"));
  let x = 620;
  const add = (label, fn, attrs) => { const [b, w] = button(x, y + 58, label, fn, attrs); svg.append(b); x += w + 6; };
  add("next level", ui.levels.at(-1).length ? () => { ui.levels.push([]); redraw(); } : null);
  add("clear", used.length ? () => { ui.levels = [[]]; ui.verdict = null; redraw(); } : null);
  const ok = ui.verdict?.ok && legal.size;
  add("build", ok ? () => context.act(text) : null, {"data-action": ok ? text : null, "data-testid": "build-tower"});
  const best = [...legal].filter((a) => a.startsWith("tower "));
  best.forEach((b) => add(`best: ${b.slice(6)}`, () => context.act(b), {"data-action": b}));
  if (ui.verdict) {
    svg.append(node("text", {x: 620, y: y + 96, "font-size": 12, fill: ui.verdict.ok ? "#2f9e44" : "#b5403a", "data-testid": "tower-verdict"},
      ui.verdict.ok ? `${text}: legal` : `${ui.verdict.message}`));
  }

  async function check() {
    const asked = towerText(ui.levels);
    const answer = await context.check(asked);
    if (asked === towerText(ui.levels)) { ui.verdict = answer; redraw(); }
  }
}
