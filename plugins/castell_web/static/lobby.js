// The lobby: pick a game, its variants and seats; create a match; copy the seats' links; see
// the matches on this server.
import {api, el, fill} from "./common.js";

const form = document.getElementById("create");
const seatsBox = document.getElementById("seats");
let catalogue = {games: [], bots: []};

function currentGame() {
  return catalogue.games.find((g) => g.rules === form.rules.value);
}

function seatSelect(value) {
  const choices = ["you", ...catalogue.bots];
  return el("select", {class: "seat", "data-testid": "seat"},
    choices.map((c) => el("option", {value: c, selected: c === value}, c === "you" ? "a person (invite link)" : `bot: ${c}`)));
}

function showGame() {
  const game = currentGame();
  if (!game) return;
  fill(document.getElementById("variants"), game.variants.map((v) =>
    el("label", {class: "variant"}, el("input", {type: "checkbox", value: v, name: "variant"}), ` ${v}`)));
  const [low, high] = game.players;
  const wanted = Math.min(Math.max(seatsBox.children.length || 2, low), high);
  const kinds = ["you", "random", "greedy", "mcts"];
  fill(seatsBox, Array.from({length: wanted}, (_, i) => seatSelect(kinds[i] ?? "random")));
}

function resizeSeats(delta) {
  const [low, high] = currentGame().players;
  const count = seatsBox.children.length + delta;
  if (count < low || count > high) return;
  if (delta > 0) seatsBox.append(seatSelect("random"));
  else seatsBox.lastElementChild.remove();
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.textContent = "";
  const body = {
    rules: form.rules.value,
    variants: [...form.querySelectorAll("input[name=variant]:checked")].map((i) => i.value),
    players: [...seatsBox.querySelectorAll("select")].map((s) => s.value),
  };
  if (form.seed.value !== "") body.seed = Number(form.seed.value);
  try {
    const match = await api("/api/matches", body);
    showCreated(match);
    refresh();
  } catch (failure) {
    error.textContent = failure.message;
  }
}

function showCreated(match) {
  const rows = match.seats.filter((s) => s.url).map((s) => {
    const url = new URL(s.url, location.href).href;
    return el("li", {},
      el("a", {href: url, "data-testid": `seat-link-${s.seat}`}, `Play seat ${s.seat}`), " ",
      el("button", {type: "button", onclick: () => navigator.clipboard?.writeText(url)}, "copy invite link"));
  });
  const watch = new URL(match.watch_url, location.href).href;
  fill(document.getElementById("created"),
    el("h3", {}, `Match ${match.id}`),
    el("p", {}, "Each link plays one seat: keep yours, send the others to your friends."),
    el("ul", {}, rows, el("li", {}, el("a", {href: watch, "data-testid": "watch-link"}, "Watch"))));
}

async function refresh() {
  const {matches} = await api("/api/matches");
  fill(document.getElementById("matches"), matches.slice().reverse().map((m) => el("tr", {},
    el("td", {}, m.game, m.variants.length ? ` (${m.variants.join(", ")})` : ""),
    el("td", {}, m.seats.map((s) => `${s.kind}${s.online ? " ●" : ""}`).join(", ")),
    el("td", {}, `${m.round}/${m.rounds}`),
    el("td", {}, m.over ? "finished" : `seat ${m.turn} to play`),
    el("td", {}, el("a", {href: `/watch/${m.id}`}, "watch"), " ",
      m.over ? el("a", {href: `/replay/${m.id}`}, "replay") : null))));
}

async function start() {
  catalogue = await api("/api/games");
  fill(form.rules, catalogue.games.map((g) => el("option", {value: g.rules}, g.title)));
  form.rules.addEventListener("change", showGame);
  document.getElementById("add-seat").addEventListener("click", () => resizeSeats(1));
  document.getElementById("remove-seat").addEventListener("click", () => resizeSeats(-1));
  form.addEventListener("submit", create);
  showGame();
  refresh();
  setInterval(refresh, 5000);
}

start();
