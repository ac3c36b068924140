// The lobby: pick a game (the default one first), its variants and seats with the players'
// names, a clock and its stand-in bot; create a match; copy the seats' links; see the matches
// on this server.
import {api, el, fill} from "./common.js";
import {icon} from "./icons.js";

const form = document.getElementById("create");
const seatsBox = document.getElementById("seats");
let catalogue = {games: [], bots: []};

function currentGame() {
  return catalogue.games.find((g) => g.rules === form.rules.value);
}

function chosenVariants() {
  return [...form.querySelectorAll("input[name=variant]:checked")].map((i) => i.value);
}

/** The seats the chosen game and variants allow: the tightest range of those chosen. */
function playerRange() {
  const game = currentGame();
  let [low, high] = game.players;
  for (const variant of chosenVariants()) {
    const range = game.variant_players?.[variant];
    if (range) [low, high] = [Math.max(low, range[0]), Math.min(high, range[1])];
  }
  return [low, Math.max(low, high)];
}

function seatRow(index, kind) {
  const choices = [["you", "a person (invite link)"], ["empty", "an empty seat (stand-in plays)"],
    ...catalogue.bots.map((b) => [b, `bot: ${b}`])];
  const select = el("select", {class: "seat", "data-testid": "seat", "aria-label": `Seat ${index}`},
    choices.map(([value, text]) => el("option", {value, selected: value === kind}, text)));
  const name = el("input", {class: "name", "data-testid": "seat-name", maxlength: 24, placeholder: "name (optional)", "aria-label": `Name of seat ${index}'s player`});
  const update = () => { name.hidden = !["you", "empty"].includes(select.value); };
  select.addEventListener("change", update);
  update();
  return el("div", {class: "seat-row"}, select, name);
}

function fitSeats() {
  const [low, high] = playerRange();
  while (seatsBox.children.length < low) seatsBox.append(seatRow(seatsBox.children.length, seatsBox.children.length ? "random" : "you"));
  while (seatsBox.children.length > high) seatsBox.lastElementChild.remove();
  document.getElementById("add-seat").disabled = seatsBox.children.length >= high;
  document.getElementById("remove-seat").disabled = seatsBox.children.length <= low;
}

function showGame() {
  const game = currentGame();
  if (!game) return;
  fill(document.getElementById("variants"), game.variants.map((v) =>
    el("label", {class: "variant"}, el("input", {type: "checkbox", value: v, name: "variant", onchange: fitSeats}), ` ${v}`)));
  const kinds = ["you", "greedy", "random", "mcts"];
  const [low, high] = playerRange();
  const wanted = Math.min(Math.max(seatsBox.children.length || 2, low), high);
  fill(seatsBox, Array.from({length: wanted}, (_, i) => seatRow(i, kinds[i] ?? "random")));
  fitSeats();
}

function resizeSeats(delta) {
  if (delta > 0) seatsBox.append(seatRow(seatsBox.children.length, "random"));
  else seatsBox.lastElementChild?.remove();
  fitSeats();
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.textContent = "";
  const rows = [...seatsBox.querySelectorAll(".seat-row")];
  const body = {
    rules: form.rules.value,
    variants: chosenVariants(),
    players: rows.map((r) => r.querySelector("select").value),
    names: rows.map((r) => r.querySelector("input").value.trim() || null),
    clock: Number(form.clock.value || 0),
    stand_in: form.stand_in.value,
  };
  if (form.seed.value !== "") body.seed = Number(form.seed.value);
  try {
    const match = await api("/api/matches", body);
    showCreated(match, body.names);
    refresh();
  } catch (failure) {
    error.textContent = failure.message;
  }
}

function showCreated(match, names) {
  const rows = match.seats.filter((s) => s.url).map((s) => {
    const url = new URL(s.url, location.href).href;
    const who = names[s.seat] ? `${names[s.seat]} (seat ${s.seat})` : `seat ${s.seat}`;
    return el("li", {},
      el("a", {href: url, "data-testid": `seat-link-${s.seat}`}, `Play as ${who}`), " ",
      el("button", {type: "button", onclick: () => navigator.clipboard?.writeText(url)}, "Copy invite link"));
  });
  const watch = new URL(match.watch_url, location.href).href;
  fill(document.getElementById("created"),
    el("h3", {}, `Match ${match.id}`),
    el("p", {}, "Each link plays one seat: keep yours, send the others to your friends."),
    el("ul", {}, rows, el("li", {}, el("a", {href: watch, "data-testid": "watch-link"}, "Watch"))));
}

function seatText(seat) {
  const parts = [seat.name];
  if (seat.away) parts.push("(stand-in)");
  return el("span", {class: "seat-name"}, seat.online ? icon("online", 12) : null, parts.join(" "));
}

async function refresh() {
  const {matches} = await api("/api/matches");
  fill(document.getElementById("matches"), matches.slice().reverse().map((m) => el("li", {},
    el("strong", {}, m.game, m.variants.length ? ` (${m.variants.join(", ")})` : ""),
    el("span", {}, m.seats.map((s, i) => [i ? ", " : "", seatText(s)])),
    el("span", {}, `round ${m.round}/${m.rounds}`),
    el("span", {}, m.over ? "finished" : `${m.seats[m.turn]?.name ?? "nobody"} to play`),
    el("span", {}, el("a", {href: `/watch/${m.id}`}, "watch"), " ",
      m.over ? el("a", {href: `/replay/${m.id}`}, "replay") : null))));
}

async function start() {
  catalogue = await api("/api/games");
  fill(form.rules, catalogue.games.map((g) => el("option", {value: g.rules}, g.title)));
  fill(form.stand_in, catalogue.bots.map((b) => el("option", {value: b, selected: b === "greedy"}, b)));
  form.rules.addEventListener("change", () => { fill(seatsBox); showGame(); });
  document.getElementById("add-seat").addEventListener("click", () => resizeSeats(1));
  document.getElementById("remove-seat").addEventListener("click", () => resizeSeats(-1));
  form.addEventListener("submit", create);
  showGame();
  refresh();
  setInterval(refresh, 5000);
}

start();
