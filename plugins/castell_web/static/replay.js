// The replay page: a finished match (/replay/{id}) or an uploaded save, verified by the server,
// stepped forward and back. The views come from the server, which replays the log; the log
// follows the step shown.
import {SEAT_COLOURS, api, el, fill, loadRenderer, logLine, pressable, resultPanel} from "./common.js";
import {placeIcons} from "./icons.js";

const $ = (id) => document.getElementById(id);
const NARROW = 700;
let replay = null;
let renderer = null;
let at = 0;

function label(seat) {
  return replay.names?.[seat] ?? `seat ${seat}`;
}

function show() {
  const step = replay.steps[at];
  const last = replay.steps.length - 1;
  const who = step.player === null ? "" : ` by ${label(step.player)}`;
  const what = step.action === null ? "the start" : `action ${at}/${last}: ${step.action}${who}`;
  const end = at === last && replay.result ? " — Game over" : "";
  $("status").textContent = `Step ${at} of ${last}, round ${step.view.round}: ${what}${end}`;
  $("slider").value = String(at);
  [...$("log").children].forEach((item, i) => {
    const current = i + 1 === at;
    item.classList.toggle("current", current);
    if (current) {
      item.setAttribute("aria-current", "step");
      item.scrollIntoView({block: "nearest"});
    } else item.removeAttribute("aria-current");
  });
  if (at === 0) $("log").scrollTop = 0;
  $("result-box").hidden = !(at === last && replay.result);
  const width = $("board").clientWidth || window.innerWidth;
  renderer.render(step.view, $("board-svg"), {
    seat: null, player: null, legal: [], act: () => {}, check: async () => ({}),
    names: replay.names ?? [], legend: replay.legend ?? {}, colours: SEAT_COLOURS, narrow: width < NARROW, pressable,
  });
}

async function open(data) {
  replay = data;
  renderer = await loadRenderer(data.renderer);
  $("title").textContent = `Replay — ${data.game}`;
  $("slider").max = String(data.steps.length - 1);
  const standIns = new Set(data.stood_in ?? []);
  fill($("log"), data.steps.slice(1).map((s, i) => el("li", {onclick: () => go(i + 1)},
    logLine(data.names ?? [], s.player, s.action, {standIn: standIns.has(i)}))));
  fill($("result-box"), data.result ? resultPanel(data.result, {names: data.names ?? [], decided: data.decided, outcome: data.outcome ?? []}) : null);
  at = 0;
  show();
}

function go(index) {
  if (!replay) return;
  at = Math.max(0, Math.min(replay.steps.length - 1, index));
  show();
}

async function load(promise) {
  $("message").textContent = "";
  try {
    await open(await promise);
  } catch (failure) {
    $("message").textContent = `Cannot replay: ${failure.message}`;
  }
}

$("first").addEventListener("click", () => go(0));
$("back").addEventListener("click", () => go(at - 1));
$("forward").addEventListener("click", () => go(at + 1));
$("last").addEventListener("click", () => go(Infinity));
$("slider").addEventListener("input", () => go(Number($("slider").value)));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement) return;
  if (event.key === "ArrowLeft") go(at - 1);
  if (event.key === "ArrowRight") go(at + 1);
});
window.addEventListener("resize", () => { if (replay) show(); });
$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (!file) return;
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    $("message").textContent = "Cannot replay: the file is not JSON";
    return;
  }
  load(api("/api/replay", record));
});

placeIcons();
const [, , matchId] = location.pathname.split("/");
if (matchId) load(api(`/api/matches/${encodeURIComponent(matchId)}/steps`));
