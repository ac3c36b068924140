// The designer's studio: edit a variant with the language's highlighting, see its problems and
// its diff as you type, analyse it, play it, keep it (docs/studio.md).
//
// The editor is a plain textarea (it takes the keyboard, the clipboard, undo and screen
// readers as every text field does) over a highlighted copy of its text. What is highlighted
// comes from the server (/api/studio/starts: the grammar's keywords and token patterns, the
// installed kinds), and every answer about the text (problems, diff, hover, completion) comes
// from the server's language code, the same as `castell validate` and `castell lsp`.
// Everything from the network is put in the page as text, never as HTML.

import {api, el, fill} from "/static/common.js";

const $ = (id) => document.getElementById(id);
const editor = $("editor");
const highlight = $("highlight");
const gutter = $("gutter");
const TOKENS_KEY = "castell-studio-tokens";
const CHECK_DELAY = 300;   // ms after the last keystroke before the text is checked
const HOVER_DELAY = 450;

const state = {
  tokens: null,           // the language's tokens (keywords, patterns, kinds)
  maxChars: 64000,
  variant: null,          // {id, name, version} once saved or opened
  token: null,            // the edit token of this page's variant (null: read-only)
  readOnly: false,
  savedText: null,        // the text as last saved
  base: null,             // the installed rule set the text extends
  check: null,            // the last check's answer
  inFlight: false,        // at most one check at a time per page
  again: false,           // the text changed while a check was in flight
  timer: null,
  socket: null,
};

// ---- highlighting ---------------------------------------------------------------------------

let scanner = null;

function buildScanner(tokens) {
  const p = tokens.patterns;
  // One sticky expression: comment, string, number, name (the grammar's own regexes).
  scanner = new RegExp(`(${p.comment})|(${p.string})|(${p.int})|(${p.name})`, "y");
}

function tokenClass(match, keywords, kinds) {
  if (match[1] !== undefined) return "tok-comment";
  if (match[2] !== undefined) return "tok-string";
  if (match[3] !== undefined) return "tok-number";
  if (keywords.has(match[0])) return "tok-keyword";
  if (kinds.has(match[0])) return "tok-kind";
  return "tok-name";
}

/** The line's segments: [text, class] pairs covering it. */
function lineTokens(line, keywords, kinds) {
  const out = [];
  let plain = "";
  let i = 0;
  while (i < line.length) {
    scanner.lastIndex = i;
    const match = scanner ? scanner.exec(line) : null;
    if (match && match[0].length) {
      if (plain) { out.push([plain, ""]); plain = ""; }
      out.push([match[0], tokenClass(match, keywords, kinds)]);
      i += match[0].length;
    } else {
      plain += line[i];
      i += 1;
    }
  }
  if (plain) out.push([plain, ""]);
  return out;
}

/** Split segments at the columns of the line's diagnostics, marking what they cover. */
function marked(segments, marks) {
  if (!marks.length) return segments.map(([text, cls]) => [text, cls, null]);
  const out = [];
  let column = 1;
  for (const [text, cls] of segments) {
    let start = 0;
    while (start < text.length) {
      const here = column + start;
      const mark = marks.find((m) => m.from <= here && here < m.to);
      let end = text.length;
      for (const m of marks) {
        for (const edge of [m.from, m.to]) {
          const at = edge - column;
          if (at > start && at < end) end = at;
        }
      }
      out.push([text.slice(start, end), cls, mark ? mark.severity : null]);
      start = end;
    }
    column += text.length;
  }
  return out;
}

function render() {
  const text = editor.value;
  const lines = text.split("\n");
  const keywords = new Set(state.tokens ? state.tokens.keywords : []);
  const kinds = new Set(state.tokens ? state.tokens.kinds : []);
  const marks = new Map();   // line -> [{from, to, severity}]
  const lineSeverity = new Map();
  for (const d of (state.check && state.check.text === text ? state.check.diagnostics : [])) {
    for (let line = d.line; line <= Math.max(d.line, d.end_line); line += 1) {
      const length = (lines[line - 1] || "").length;
      const from = line === d.line ? d.column : 1;
      let to = line === d.end_line ? d.end_column : length + 1;
      if (to <= from) to = from + 1;   // a point: mark one character (or the end of the line)
      if (!marks.has(line)) marks.set(line, []);
      marks.get(line).push({from, to, severity: d.severity});
      if (lineSeverity.get(line) !== "error") lineSeverity.set(line, d.severity);
    }
  }
  const fragment = document.createDocumentFragment();
  const numbers = document.createDocumentFragment();
  lines.forEach((line, index) => {
    const number = index + 1;
    const segments = scanner ? lineTokens(line, keywords, kinds) : [[line, ""]];
    for (const [piece, cls, severity] of marked(segments, marks.get(number) || [])) {
      const span = el("span", {class: [cls, severity ? `squiggle-${severity}` : ""].join(" ").trim() || null}, piece);
      fragment.append(span);
    }
    // a diagnostic at the end of a line (a missing brace) still shows: one marked space
    const atEnd = (marks.get(number) || []).some((m) => m.from > line.length);
    if (atEnd) fragment.append(el("span", {class: "squiggle-error"}, " "));
    fragment.append("\n");
    const severity = lineSeverity.get(number);
    numbers.append(el("span", {class: severity ? `line-${severity}` : null, "data-line": number}, String(number)), "\n");
  });
  fill(highlight, fragment);
  fill(gutter, numbers);
  syncScroll();
}

function syncScroll() {
  highlight.scrollTop = editor.scrollTop;
  highlight.scrollLeft = editor.scrollLeft;
  gutter.scrollTop = editor.scrollTop;
}

// ---- positions ------------------------------------------------------------------------------

function caret() {
  const before = editor.value.slice(0, editor.selectionStart).split("\n");
  return {line: before.length, column: before[before.length - 1].length + 1};
}

function offsetOf(line, column) {
  const lines = editor.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i += 1) offset += lines[i].length + 1;
  return offset + Math.max(0, column - 1);
}

function goTo(line, column = 1) {
  const offset = offsetOf(line, column);
  editor.focus();
  editor.setSelectionRange(offset, offset);
  const lineHeight = parseFloat(getComputedStyle(editor).lineHeight) || 20;
  editor.scrollTop = Math.max(0, (line - 3) * lineHeight);
  syncScroll();
}

// ---- checking as you type -------------------------------------------------------------------

function textToSend() {
  const text = editor.value;
  // A text longer than a rule file is sent cut just past the cap: enough to be told (E0107).
  return text.length > state.maxChars ? text.slice(0, state.maxChars + 1) : text;
}

function scheduleCheck() {
  clearTimeout(state.timer);
  state.timer = setTimeout(runCheck, CHECK_DELAY);
  $("check-state").textContent = "(checking…)";
}

async function runCheck() {
  if (state.inFlight) { state.again = true; return; }
  state.inFlight = true;
  state.again = false;
  const text = editor.value;
  try {
    const answer = await api("/api/studio/check", {text: textToSend(), base: state.base});
    answer.text = text;
    state.check = answer;
    showCheck(answer);
  } catch (error) {
    state.check = {text, ok: false, diagnostics: [{code: "", severity: "error", message: error.message, line: 1, column: 1, end_line: 1, end_column: 1, hint: null}], diff: null};
    showCheck(state.check);
  } finally {
    state.inFlight = false;
    if (state.again || editor.value !== text) runCheck();
  }
}

function showCheck(answer) {
  const items = answer.diagnostics.map((d) => el("li",
    {class: `diag diag-${d.severity}`, "data-testid": "diagnostic", "data-line": d.line, "data-column": d.column, "data-code": d.code},
    el("button", {type: "button", class: "link", onclick: () => goTo(d.line, d.column)},
      `line ${d.line}:${d.column}`),
    " ", el("strong", {}, `${d.severity} ${d.code}`), ": ", d.message,
    d.hint ? el("div", {class: "hint-text"}, `help: ${d.hint}`) : null,
    ...(d.related || []).map((r) => el("div", {class: "hint-text"}, `note: ${r.path}:${r.line}: ${r.message}`)),
  ));
  fill($("diagnostics"), items.length ? items : [el("li", {class: "diag-none", "data-testid": "no-problems"}, "No problems.")]);
  $("check-state").textContent = answer.ok ? "(compiles)" : `(${plural(answer.diagnostics.filter((d) => d.severity === "error").length, "error")})`;
  $("check-state").dataset.ok = answer.ok ? "yes" : "no";
  showDiff(answer.diff);
  if (answer.players) setPlayers(answer.players);
  render();
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function showDiff(diff) {
  if (!diff) {
    fill($("diff"), el("li", {class: "hint-text"}, "The diff shows once the text compiles."));
    return;
  }
  $("diff-base").textContent = diff.base;
  const items = diff.changes.map((change) => el("li", {class: `change change-${change.op}`, "data-testid": "change", "data-line": change.line ?? ""},
    change.line ? el("button", {type: "button", class: "link", onclick: () => goTo(change.line)}, `line ${change.line}`) : null,
    change.line ? " " : null, el("code", {}, change.text)));
  fill($("diff"), items.length ? items : [el("li", {"data-testid": "no-changes"}, `No changes: this is ${diff.base} as it is.`)]);
}

function setPlayers([low, high]) {
  for (const id of ["analyze-players", "play-players"]) {
    const select = $(id);
    const current = Number(select.value) || low;
    const options = [];
    for (let n = low; n <= high; n += 1) options.push(el("option", {value: n, selected: n === current}, String(n)));
    fill(select, options);
  }
}

// ---- hover and completion -------------------------------------------------------------------

let hoverTimer = null;

async function showHover(line, column, x, y) {
  const tooltip = $("tooltip");
  try {
    const answer = await api("/api/studio/hover", {text: textToSend(), line, column});
    if (!answer.markdown) { tooltip.hidden = true; return; }
    tooltip.textContent = answer.markdown.replace(/\*\*|`/g, "");
    tooltip.style.left = `${x}px`;
    tooltip.style.top = `${y}px`;
    tooltip.hidden = false;
  } catch (error) {
    tooltip.hidden = true;
  }
}

function pointAt(event) {
  const style = getComputedStyle(editor);
  const lineHeight = parseFloat(style.lineHeight) || 20;
  const charWidth = measureChar();
  const box = editor.getBoundingClientRect();
  const x = event.clientX - box.left - parseFloat(style.paddingLeft) + editor.scrollLeft;
  const y = event.clientY - box.top - parseFloat(style.paddingTop) + editor.scrollTop;
  return {line: Math.floor(y / lineHeight) + 1, column: Math.floor(x / charWidth) + 1,
    x: event.clientX - box.left + 12, y: event.clientY - box.top + 16};
}

let charWidthCache = 0;
function measureChar() {
  if (!charWidthCache) {
    const probe = el("span", {}, "0".repeat(50));
    highlight.append(probe);
    charWidthCache = probe.getBoundingClientRect().width / 50 || 8;
    probe.remove();
  }
  return charWidthCache;
}

const completion = {items: [], active: 0, open: false};

async function openCompletions() {
  const {line, column} = caret();
  let answer;
  try {
    answer = await api("/api/studio/complete", {text: textToSend(), line, column});
  } catch (error) {
    return;
  }
  const word = wordBeforeCaret();
  completion.items = answer.items.filter((item) => item.label.startsWith(word));
  completion.active = 0;
  if (!completion.items.length) { closeCompletions(); return; }
  completion.open = true;
  drawCompletions();
  const list = $("completions");
  const lineHeight = parseFloat(getComputedStyle(editor).lineHeight) || 20;
  list.style.top = `${line * lineHeight - editor.scrollTop + 8}px`;
  list.style.left = `${Math.max(0, (column - 1) * measureChar() - editor.scrollLeft)}px`;
  list.hidden = false;
}

function drawCompletions() {
  const list = $("completions");
  fill(list, completion.items.slice(0, 50).map((item, index) => el("li", {
    role: "option", id: `completion-${index}`, "aria-selected": index === completion.active ? "true" : "false",
    "data-testid": "completion", "data-label": item.label,
    onmousedown: (event) => { event.preventDefault(); completion.active = index; acceptCompletion(); },
  }, el("span", {}, item.label), item.detail ? el("span", {class: "hint-text"}, ` ${item.detail}`) : null)));
  editor.setAttribute("aria-activedescendant", `completion-${completion.active}`);
}

function closeCompletions() {
  completion.open = false;
  $("completions").hidden = true;
  editor.removeAttribute("aria-activedescendant");
}

function wordBeforeCaret() {
  const before = editor.value.slice(0, editor.selectionStart);
  const match = /[A-Za-z_][A-Za-z0-9_]*$/.exec(before);
  return match ? match[0] : "";
}

function acceptCompletion() {
  const item = completion.items[completion.active];
  if (!item) return;
  const word = wordBeforeCaret();
  const start = editor.selectionStart - word.length;
  editor.setRangeText(item.label, start, editor.selectionStart, "end");
  closeCompletions();
  changed();
}

// ---- keeping --------------------------------------------------------------------------------

function tokens() {
  try { return JSON.parse(localStorage.getItem(TOKENS_KEY) || "{}"); } catch { return {}; }
}

function keepToken(id, token) {
  const all = tokens();
  all[id] = token;
  localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
}

function say(text, where = "message") { $(where).textContent = text; }

function setMode() {
  const mode = $("mode");
  if (!state.variant) { mode.textContent = "(not saved yet)"; return; }
  mode.textContent = state.readOnly ? `“${state.variant.name}” (read-only: save a copy to change it)` : `“${state.variant.name}”, version ${state.variant.version}`;
  $("save").textContent = state.readOnly ? "Save a copy" : "Save";
  editor.readOnly = false;
  const link = `${location.origin}/studio/v/${state.variant.id}`;
  fill($("share"), "Read-only link: ", el("a", {href: link, "data-testid": "share-link"}, link));
}

async function save() {
  const text = editor.value;
  const name = $("name").value.trim() || "my-variant";
  const body = state.variant && state.token ? {id: state.variant.id, token: state.token, text, name} : {name, text};
  const answer = await api("/api/studio/variants", body);
  if (answer.token) {
    keepToken(answer.id, answer.token);
    state.token = answer.token;
    state.readOnly = false;
  }
  state.variant = {id: answer.id, name, version: answer.version};
  state.savedText = text;
  history.replaceState(null, "", `/studio#v=${answer.id}`);
  setMode();
  await loadHistory();
  say(`Saved version ${answer.version}.`);
  return answer.id;
}

/** The id of a stored variant holding the editor's text: the open one if unchanged (anyone
 * may play or download a variant by its id), else the text saved first (a copy when the page
 * may only read the open one). */
async function ensureSaved() {
  if (state.variant && state.savedText === editor.value) return state.variant.id;
  return save();
}

async function loadHistory() {
  if (!state.variant) return;
  const found = await api(`/api/studio/variants/${encodeURIComponent(state.variant.id)}`);
  fill($("history"), [el("option", {value: ""}, `${found.history.length} version(s)`),
    ...found.history.slice().reverse().map((v) => el("option", {value: v.version},
      `version ${v.version}, ${new Date(v.saved * 1000).toLocaleString()}${v.hash ? "" : " (does not compile)"}`))]);
}

async function openVariant(id, readOnly) {
  const found = await api(`/api/studio/variants/${encodeURIComponent(id)}`);
  state.variant = {id: found.id, name: found.name, version: found.version};
  state.token = readOnly ? null : (tokens()[found.id] || null);
  state.readOnly = !state.token;
  $("name").value = found.name;
  setText(found.text);
  state.savedText = found.text;
  setMode();
  await loadHistory();
}

function setText(text) {
  editor.value = text;
  closeCompletions();
  render();
  scheduleCheck();
}

function changed() {
  render();
  scheduleCheck();
  if (state.variant && state.savedText !== editor.value) say("Unsaved changes.");
}

// ---- analysing ------------------------------------------------------------------------------

function socket() {
  if (state.socket && state.socket.readyState <= 1) return state.socket;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/studio`);
  ws.addEventListener("message", (event) => analysisMessage(JSON.parse(event.data)));
  ws.addEventListener("close", () => { $("analyze").disabled = false; });
  state.socket = ws;
  return ws;
}

function analysisMessage(message) {
  const progress = $("progress");
  if (message.type === "queued") {
    say(message.ahead ? `Queued: ${message.ahead} analysis(es) ahead.` : "Starting…", "analyze-message");
  } else if (message.type === "progress") {
    progress.hidden = false;
    progress.max = message.total;
    progress.value = message.done;
    say(`Played ${message.done} of ${message.total} games.`, "analyze-message");
  } else if (message.type === "done") {
    progress.value = progress.max;
    const report = $("report");
    report.src = message.url;
    report.hidden = false;
    report.dataset.url = message.url;
    say(message.reused ? "Done (an earlier analysis of the same rules, reused)." : "Done.", "analyze-message");
    $("analyze").disabled = false;
  } else if (message.type === "error") {
    progress.hidden = true;
    say(message.message, "analyze-message");
    $("analyze").disabled = false;
  }
}

function analyse() {
  const ws = socket();
  const request = {type: "analyze", text: editor.value, games: Number($("games").value) || 20,
    players: Number($("analyze-players").value) || undefined, bots: $("bots").value};
  $("analyze").disabled = true;
  $("progress").hidden = false;
  $("progress").value = 0;
  say("Sending…", "analyze-message");
  if (ws.readyState === 1) ws.send(JSON.stringify(request));
  else ws.addEventListener("open", () => ws.send(JSON.stringify(request)), {once: true});
}

// ---- playing --------------------------------------------------------------------------------

async function play() {
  const id = await ensureSaved();
  const players = Number($("play-players").value) || 2;
  const others = $("opponents").value;
  const seats = ["you", ...Array(players - 1).fill(others)];
  const match = await api("/api/matches", {studio: id, players: seats});
  if (others !== "empty") {
    location.assign(match.seats[0].url);
    return;
  }
  fill($("invites"), el("p", {}, "Send each friend one link; yours is the first:"),
    el("ul", {}, match.seats.filter((s) => s.url).map((s) => el("li", {},
      el("a", {href: s.url, "data-testid": `invite-${s.seat}`}, `seat ${s.seat + 1}: ${location.origin}${s.url}`)))));
}

// ---- starting -------------------------------------------------------------------------------

async function startFrom() {
  const [rules, variant] = $("start").value.split("+");
  const query = new URLSearchParams({rules});
  if (variant) query.set("variant", variant);
  const found = await api(`/api/studio/start?${query}`);
  state.variant = null;
  state.token = null;
  state.readOnly = false;
  state.savedText = null;
  state.base = rules;
  $("name").value = variant ? `my-${variant}` : `my-${rules}`;
  history.replaceState(null, "", "/studio");
  fill($("share"));
  fill($("history"), el("option", {value: ""}, "—"));
  setMode();
  setText(found.text);
}

async function init() {
  const found = await api("/api/studio/starts");
  state.tokens = found.tokens;
  state.maxChars = found.max_chars;
  $("games").max = found.analysis.max_games;
  buildScanner(found.tokens);
  fill($("start"), found.starts.map((s) => el("option", {value: s.variant ? `${s.rules}+${s.variant}` : s.rules},
    s.variant ? `${s.title}: variant ${s.variant}` : `${s.title} (${s.rules})`)));
  state.base = found.starts.length ? found.starts[0].rules : null;

  editor.addEventListener("input", changed);
  editor.addEventListener("scroll", syncScroll);
  editor.addEventListener("keydown", (event) => {
    if (completion.open) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const n = Math.min(completion.items.length, 50);
        completion.active = (completion.active + (event.key === "ArrowDown" ? 1 : n - 1)) % n;
        drawCompletions();
        return;
      }
      if (event.key === "Enter") { event.preventDefault(); acceptCompletion(); return; }
      if (event.key === "Escape") { event.preventDefault(); closeCompletions(); return; }
    }
    if (event.key === " " && event.ctrlKey) { event.preventDefault(); openCompletions(); return; }
    if (event.key.toLowerCase() === "i" && event.ctrlKey) {
      event.preventDefault();
      const {line, column} = caret();
      showHover(line, column, 40, line * (parseFloat(getComputedStyle(editor).lineHeight) || 20) - editor.scrollTop + 8);
    }
    if (event.key === "Escape") $("tooltip").hidden = true;
  });
  editor.addEventListener("blur", () => setTimeout(closeCompletions, 150));
  editor.addEventListener("mousemove", (event) => {
    clearTimeout(hoverTimer);
    $("tooltip").hidden = true;
    const point = pointAt(event);
    hoverTimer = setTimeout(() => showHover(point.line, point.column, point.x, point.y), HOVER_DELAY);
  });
  editor.addEventListener("mouseleave", () => { clearTimeout(hoverTimer); $("tooltip").hidden = true; });

  const guarded = (work) => async () => {
    try { await work(); } catch (error) { say(error.message); }
  };
  $("start-button").addEventListener("click", guarded(startFrom));
  $("save").addEventListener("click", guarded(save));
  $("download").addEventListener("click", guarded(async () => {
    const id = await ensureSaved();
    location.assign(`/api/studio/variants/${encodeURIComponent(id)}/download`);
  }));
  $("upload").addEventListener("change", guarded(async () => {
    const file = $("upload").files[0];
    if (!file) return;
    if (file.size > state.maxChars * 4) throw new Error(`that file is larger than a rule file (${state.maxChars.toLocaleString()} characters)`);
    setText(await file.text());
    $("name").value = file.name.replace(/\.castell$/, "").replace(/[^A-Za-z0-9 _.-]+/g, "-").slice(0, 60) || "uploaded";
    say(`Uploaded ${file.name}: save it to keep it.`);
  }));
  $("history").addEventListener("change", guarded(async () => {
    const version = $("history").value;
    if (!version || !state.variant) return;
    const found = await api(`/api/studio/variants/${encodeURIComponent(state.variant.id)}?version=${version}`);
    setText(found.text);
    say(`Version ${version} loaded: save it to make it the newest.`);
  }));
  $("analyze").addEventListener("click", guarded(async () => analyse()));
  $("play").addEventListener("click", guarded(play));

  const shared = /^\/studio\/v\/([A-Za-z0-9_-]+)$/.exec(location.pathname);
  const own = /[#&]v=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (shared) await openVariant(shared[1], true);
  else if (own) await openVariant(own[1], false);
  else await startFrom();
}

init().catch((error) => say(error.message));
