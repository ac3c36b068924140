// The play and watch pages: one WebSocket to the match (docs/protocol.md, "Over WebSocket"),
// the board drawn by the game's renderer, the legal actions, the action box, hint, undo, log.
import {describeResult, el, fill, loadRenderer} from "./common.js";

const [, mode, matchId] = location.pathname.split("/");
const fragment = new URLSearchParams(location.hash.slice(1));
const token = mode === "play" ? fragment.get("token") : null;
const $ = (id) => document.getElementById(id);

let socket = null;
let hello = null;
let renderer = null;
let state = null;
let result = null;
let retry = 250;
const pendingChecks = new Map();

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(text) {
  $("message").textContent = "";
  send({action: text, version: state?.version});
}

/** Ask the server whether an action would be accepted now (nothing is played). */
function check(text) {
  return new Promise((resolve) => {
    pendingChecks.set(text, resolve);
    send({command: "check", action: text});
  });
}

function seatName(seat) {
  return hello ? `seat ${seat} (${hello.seats[seat]})` : `seat ${seat}`;
}

function showStatus() {
  if (!state) return;
  const view = state.view;
  let text;
  if (result) text = describeResult(result);
  else if (state.legal_actions.length) text = `Your turn, ${seatName(state.seat)} — round ${view.round}/${view.rounds}`;
  else if (state.player === null) text = `Round ${view.round}/${view.rounds}`;
  else text = `Waiting for ${seatName(state.player)} — round ${view.round}/${view.rounds}`;
  if (state.seat === null) text = `Watching. ${text}`;
  $("status").textContent = text;
  $("status").dataset.turn = result ? "over" : (state.legal_actions.length ? "yours" : "waiting");
  $("status").dataset.version = String(state.version);
}

function showState() {
  showStatus();
  const mine = state.legal_actions;
  fill($("legal"), mine.map((text) => el("li", {},
    el("button", {type: "button", "data-action": text, onclick: () => act(text)}, text))));
  fill($("log"), state.log.map((text) => el("li", {}, text)));
  $("log").scrollTop = $("log").scrollHeight;
  fill($("scores"), state.scores.map((score, seat) => el("li", {}, `${seatName(seat)}: ${score}`)));
  $("undo").disabled = !mine.length;
  $("hint").disabled = state.seat === null;
  $("action-input").disabled = !mine.length;
  try {
    renderer.render(state.view, $("board-svg"), {seat: state.seat, player: state.player, legal: mine, act, check});
  } catch (error) {
    console.error("renderer failed", error);
  }
}

async function onMessage(message) {
  switch (message.type) {
    case "hello":
      hello = message;
      $("title").textContent = `${message.game} — match ${message.match}`;
      document.title = `${message.game} — ${message.seat === null ? "watching" : `seat ${message.seat}`}`;
      $("save").href = `/api/matches/${message.match}/save`;
      $("replay").href = `/replay/${message.match}`;
      renderer = await loadRenderer(message.renderer);
      break;
    case "state":
      state = message;
      $("save").hidden = !message.over;  // a save holds the seed: offered once the match is over
      if (!message.over) result = null;
      if (renderer) showState();
      break;
    case "result":
      result = message.result;
      showStatus();
      break;
    case "error":
      $("message").textContent = `Refused: ${message.message} [${message.code}]`;
      break;
    case "hint":
      fill($("hints"), message.lines.map((line) => el("li", {}, line)));
      break;
    case "checked": {
      const resolve = pendingChecks.get(message.action);
      pendingChecks.delete(message.action);
      if (resolve) resolve(message);
      break;
    }
    case "undone":
      $("message").textContent = `Took back ${message.actions} action(s).`;
      break;
    case "joined":
    case "left":
      $("presence").textContent = `Here: ${message.online.map(seatName).join(", ") || "no players"}; ${message.watchers} watching`;
      break;
    default:
      break;
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  socket = new WebSocket(`${scheme}//${location.host}/ws/matches/${encodeURIComponent(matchId)}${query}`);
  let queue = Promise.resolve();
  socket.onopen = () => { retry = 250; };
  // Messages are handled strictly in order (loading the renderer is asynchronous).
  socket.onmessage = (event) => { queue = queue.then(() => onMessage(JSON.parse(event.data))); };
  socket.onclose = (event) => {
    if (event.code === 4403 || event.code === 4404) return;  // a bad link: retrying will not help
    $("status").textContent = "Connection lost — reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

$("action-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("action-input").value.trim();
  if (text) act(text);
  $("action-input").value = "";
});
$("hint").addEventListener("click", () => send({command: "hint"}));
$("undo").addEventListener("click", () => send({command: "undo"}));
connect();
