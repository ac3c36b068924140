// Starts `castell lsp` (the language server of the Castell DSL) for .castell files.
// Plain JavaScript with no build step: `npm install` in this folder, then run or package it.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace
    .getConfiguration("castell")
    .get("server.command", ["castell", "lsp"]);
  const server = { command, args };
  client = new LanguageClient(
    "castell",
    "Castell DSL",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "castell" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
