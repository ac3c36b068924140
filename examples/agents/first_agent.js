#!/usr/bin/env node
// A seat played by a program, in JavaScript (Node.js, no packages):
//
//     castell simulate --bots "cmd:node examples/agents/first_agent.js",random -p 2 -n 10
//
// It speaks the JSON-lines protocol (docs/agents.md): a `hello` first, a `state` for each of
// its decisions, a `result` at the end; it answers each `state` with one line,
// {"action": TEXT}. Its choice: a legal action drawn with a small seeded generator
// (mulberry32, seeded by the hello's `bot_seed`), skipping `end` while anything else is legal,
// so it plays the same game every time.
"use strict";

const readline = require("readline");

function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = mulberry32(0);
const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    random = mulberry32(Number(BigInt(message.bot_seed) % 4294967296n));
  } else if (message.type === "state") {
    const actions = message.legal_actions;
    const playing = actions.filter((a) => a !== "end");
    const pool = playing.length > 0 ? playing : actions;
    const action = pool[Math.floor(random() * pool.length)];
    process.stdout.write(JSON.stringify({ action }) + "\n");
  } else if (message.type === "result") {
    process.stderr.write(`first_agent: winners ${JSON.stringify(message.result.winners)}\n`);
  }
});
