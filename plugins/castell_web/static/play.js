// The play and watch pages: one WebSocket to the match (docs/protocol.md, "Over WebSocket"),
// the board drawn by the game's renderer, the legal actions, the action box, hint, undo, the
// log (seat and colour on every line), the scores by category, the clock, and the result.
// The play commands are the server's registry (castell_dsl.contract.COMMANDS, sent in `hello`):
// a button for each one that has no control of its own, and each answer drawn in the answer
// panel, so this page offers what the terminal and the JSON lines offer.
import {SEAT_COLOURS, describeResult, el, fill, loadRenderer, logLine, pressable, resultPanel, scoreTable, seatLabel} from "./common.js";
import {placeIcons} from "./icons.js";

const [, mode, matchId] = location.pathname.split("/");
const fragment = new URLSearchParams(location.hash.slice(1));
const token = mode === "play" ? fragment.get("token") : null;
const $ = (id) => document.getElementById(id);
/** Boards narrower than this get the game's narrow layout (a phone). */
const NARROW = 700;

let socket = null;
let hello = null;
let renderer = null;
let state = null;
let result = null;
let retry = 250;
let wasMyTurn = false;
let clockEnds = null;
let leaving = false;
const pendingChecks = new Map();
// The command bar and the answer panel under the status line, and Check beside Play.
$("message").after(
  el("nav", {id: "commands", class: "controls", "data-testid": "commands", "aria-label": "Commands"}),
  el("section", {id: "answer", class: "answer", "data-testid": "answer", "aria-live": "polite"}));
$("send").after(el("button", {type: "button", id: "check", "data-testid": "check", title: "Would this action be accepted now? (nothing is played)"}, "Check"));
/** Commands with a control of their own (buttons, the action box, the name form). */
const OWN_CONTROLS = new Set(["hint", "undo", "check", "name", "seat"]);

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

const names = () => state?.names ?? hello?.names ?? [];
const mySeat = () => hello?.seat ?? null;
const label = (seat) => seatLabel(names(), seat, mySeat());

function statusText() {
  const view = state.view;
  const round = `round ${view.round}/${view.rounds}`;
  let text;
  if (result) text = describeResult(result, names());
  else if (state.standing_in !== null && state.standing_in !== undefined) {
    text = state.standing_in === state.seat
      ? `The stand-in (${hello.stand_in}) is playing your turn — take your seat back to play — ${round}`
      : `The stand-in (${hello.stand_in}) plays for ${label(state.standing_in)} — ${round}`;
  } else if (state.legal_actions.length) {
    text = `Your turn, ${label(state.seat)} — ${round}`;
    if (view.pending_grant) {
      text += `. You gained a ${view.pending_grant} action: take it before ending your turn`;
    }
  } else if (state.player === null) text = `Round ${view.round}/${view.rounds}`;
  else text = `Waiting for ${label(state.player)} — ${round}`;
  return state.seat === null ? `Watching. ${text}` : text;
}

function showStatus() {
  if (!state) return;
  $("status").textContent = statusText();
  const mine = !result && state.legal_actions.length > 0;
  $("status").dataset.turn = result ? "over" : (mine ? "yours" : "waiting");
  $("status").dataset.version = String(state.version);
  const game = hello?.game ?? "Castell DSL";
  document.title = mine ? `Your turn — ${game}` : (result ? `Game over — ${game}` : `${game} — ${mode === "watch" ? "watching" : "match"}`);
  if (mine && !wasMyTurn) ding();
  wasMyTurn = mine;
}

/** A short tone when it becomes your turn, if the player asked for sound (Web Audio: no file). */
function ding() {
  const box = $("sound");
  if (!box.checked) return;
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch (error) {
    console.warn("no sound", error);
  }
  box.dataset.played = String(Number(box.dataset.played ?? 0) + 1);
}

function showClock() {
  const left = clockEnds === null ? null : Math.max(0, (clockEnds - Date.now()) / 1000);
  $("clock").hidden = left === null || !!result;
  if (left === null || !state) return;
  const whose = state.player === null ? "" : ` for ${label(state.player)}`;
  const minutes = Math.floor(left / 60), seconds = Math.floor(left % 60);
  $("clock-text").textContent = `${minutes}:${String(seconds).padStart(2, "0")} left${whose}`;
}

function showLog() {
  const seats = state.log_seats ?? [];
  const standIns = new Set(state.stood_in ?? []);
  fill($("log"), state.log.map((text, i) => el("li", {}, logLine(names(), seats[i], text, {mine: mySeat(), standIn: standIns.has(i)}))));
  $("log").scrollTop = $("log").scrollHeight;
}

function renderBoard() {
  if (!renderer || !state) return;
  const width = $("board").clientWidth || window.innerWidth;
  try {
    renderer.render(state.view, $("board-svg"), {
      seat: state.seat, player: state.player, legal: state.legal_actions, act, check,
      names: names(), legend: hello?.legend ?? {}, colours: SEAT_COLOURS, narrow: width < NARROW, pressable,
    });
  } catch (error) {
    console.error("renderer failed", error);
  }
}

function showState(changed) {
  showStatus();
  if (changed) fill($("hints"));  // a hint belongs to the position it was asked in
  const mine = state.legal_actions;
  fill($("legal"), mine.map((text) => el("li", {},
    el("button", {type: "button", "data-action": text, onclick: () => act(text)}, text))));
  showLog();
  fill($("scores"), scoreTable(state.score_table, names(), mySeat()));
  $("undo").disabled = !mine.length;
  $("hint").disabled = state.seat === null;
  $("action-input").disabled = !mine.length;
  $("send").disabled = !mine.length;
  $("check").disabled = !mine.length;
  const away = state.seat !== null && state.away?.[state.seat];
  $("away-text").textContent = away ? "Take my seat back" : "Let the bot play";
  $("away").dataset.away = away ? "yes" : "no";
  clockEnds = state.clock_left === null || state.clock_left === undefined ? null : Date.now() + state.clock_left * 1000;
  showClock();
  renderBoard();
}

/** A play command, with its arguments ({topic}, {action}). */
function command(name, args = {}) {
  send({command: name, ...args});
}

/** A button per play command that has no control of its own (help, board, actions, log,
 * save, quit): from the registry the server sends, so a command added there shows here. */
function showCommands(commands) {
  const offered = commands.filter((c) => !OWN_CONTROLS.has(c.name) && !c.arguments.some((a) => a.required));
  fill($("commands"), offered.map((c) => el("button", {
    type: "button", "data-testid": `command-${c.name}`, "data-command": c.name, title: c.help,
    onclick: () => command(c.name),
  }, c.name[0].toUpperCase() + c.name.slice(1))));
}

/** How a command is written here: the registry's usage without the file name (the server
 * opens no path from the network: it keeps the match, and offers the save as a download). */
function usage(c) {
  const args = c.arguments.filter((a) => a.name !== "path");
  return [c.name, ...args.map((a) => (a.required ? a.metavar : `[${a.metavar}]`))].join(" ");
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The answer panel: what a command answered, drawn for the page. */
function showAnswer(...children) {
  const close = el("button", {type: "button", class: "close", "data-testid": "answer-close", "aria-label": "Close", onclick: () => fill($("answer"))}, "×");
  close.style.float = "right";  // CSSOM, which the page's CSP allows
  fill($("answer"), close, ...children);
}

function showHelp(message) {
  if (message.topic !== null) {
    showAnswer(el("h2", {}, message.heading), el("pre", {class: "help-text"}, message.text));
    return;
  }
  showAnswer(
    el("h2", {}, "Commands"),
    el("dl", {}, message.commands.flatMap((c) => [el("dt", {}, el("code", {}, usage(c))), el("dd", {}, c.help)])),
    message.notation.length ? [el("h3", {}, "Actions, for example"), el("ul", {}, message.notation.flatMap((line) => line.trim().split(/\s{2,}/)).map((x) => el("li", {}, el("code", {}, x))))] : null,
    message.topics.length ? [el("h3", {}, "Topics"), el("p", {}, message.topics.map((topic) => el("button", {
      type: "button", "data-topic": topic, onclick: () => command("help", {topic}),
    }, topic)))] : null);
}

function showAnswerOf(message) {
  switch (message.type) {
    case "help":
      showHelp(message);
      break;
    case "board":
      $("board").scrollIntoView({block: "start"});
      showAnswer(el("h2", {}, `Round ${message.round} of ${message.rounds} — the whole table`), scoreTable(message.scores, names(), mySeat()));
      break;
    case "actions": {
      const mine = state?.legal_actions ?? [];
      showAnswer(el("h2", {}, message.legal_actions.length ? `Legal actions (${message.legal_actions.length})` : "No action to take now"),
        el("ol", {}, message.legal_actions.map((text) => el("li", {}, mine.includes(text)
          ? el("button", {type: "button", "data-action": text, onclick: () => act(text)}, text) : text))));
      break;
    }
    case "log":
      showAnswer(el("h2", {}, `The log (${plural(message.entries.length, "action")})`),
        el("ol", {class: "log"}, message.entries.map((entry) => el("li", {}, logLine(names(), entry.seat, entry.action, {mine: mySeat()})))));
      break;
    case "saved":
      if (message.reason === "quit") {
        leaving = true;
        socket?.close();
        $("status").textContent = "You left the table. The match goes on on the server: this page's link takes you back.";
        showAnswer(el("p", {}, el("a", {href: location.href, "data-testid": "rejoin", onclick: () => location.reload()}, "Back to the table")));
      } else {
        showAnswer(el("p", {}, el("a", {href: message.path, download: "", "data-testid": "download-save"}, "Download the save")));
      }
      break;
    default:
      break;
  }
}

function showResult(message) {
  result = message.result;
  fill($("result-box"), resultPanel(result, {
    names: names(), mine: mySeat(), decided: message.decided, outcome: message.outcome ?? [],
    replay: `/replay/${encodeURIComponent(matchId)}`,
  }));
  showStatus();
  showClock();
}

function welcome(message) {
  hello = message;
  $("title").textContent = `${message.game} — match ${message.match}`;
  $("save").href = `/api/matches/${message.match}/save`;
  $("replay").href = `/replay/${message.match}`;
  const example = (message.examples?.[0] ?? "").split(/\s{2,}/)[0].trim();
  $("action-input").placeholder = example ? `an action, e.g. ${example}` : "an action";
  const watching = message.seat === null;
  $("player-controls").hidden = watching;  // spectators see no controls they cannot use
  showCommands(message.commands ?? []);
  const unnamed = !watching && message.names[message.seat] === `seat ${message.seat}`;
  $("name-form").hidden = !unnamed;
  if (unnamed) $("name-input").value = localStorage.getItem("castell-name") ?? "";
}

async function onMessage(message) {
  switch (message.type) {
    case "hello":
      welcome(message);
      renderer = await loadRenderer(message.renderer);
      break;
    case "state": {
      const changed = state === null || state.version !== message.version;
      state = message;
      $("save").hidden = !message.over;  // a save holds the seed: offered once the match is over
      if (!message.over) { result = null; fill($("result-box")); }
      if (renderer) showState(changed);
      if (hello && state.seat !== null) $("name-form").hidden = state.names[state.seat] !== `seat ${state.seat}`;
      break;
    }
    case "result":
      showResult(message);
      break;
    case "error":
      $("message").textContent = `Refused: ${message.message} [${message.code}]`;
      break;
    case "notice":
      $("message").textContent = message.message;
      break;
    case "hint":
      fill($("hints"), message.lines.map((line) => el("li", {}, line)));
      break;
    case "checked": {
      const resolve = pendingChecks.get(message.action);
      pendingChecks.delete(message.action);
      if (resolve) resolve(message);
      else $("message").textContent = message.ok ? `${message.action}: allowed now` : `Not allowed: ${message.message} [${message.code}]`;
      break;
    }
    case "help":
    case "board":
    case "actions":
    case "log":
    case "saved":
      showAnswerOf(message);
      break;
    case "undone":
      $("message").textContent = `Took back ${message.actions} action(s).`;
      break;
    case "joined":
    case "left": {
      const here = message.online.map(label).join(", ") || "no players";
      $("presence").textContent = `Here: ${here}; ${message.watchers} watching`;
      break;
    }
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
    if (leaving || event.code === 4403 || event.code === 4404) return;  // left, or a bad link
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
$("name-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("name-input").value.trim();
  if (!name) return;
  localStorage.setItem("castell-name", name);
  send({command: "name", name});
});
$("check").addEventListener("click", () => {
  const text = $("action-input").value.trim();
  if (text) command("check", {action: text});
});
$("hint").addEventListener("click", () => send({command: "hint"}));
$("undo").addEventListener("click", () => send({command: "undo"}));
$("away").addEventListener("click", () => send({command: "seat", away: $("away").dataset.away !== "yes"}));
$("sound").checked = localStorage.getItem("castell-sound") === "on";
$("sound").addEventListener("change", () => localStorage.setItem("castell-sound", $("sound").checked ? "on" : "off"));
let resizing = null;
window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(renderBoard, 100); });
setInterval(showClock, 500);
placeIcons();
connect();
