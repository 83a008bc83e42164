// The constree extension: starts `constree lsp` (the language server, on
// standard input and output) for `.cta` files, with vscode-languageclient.
// Plain JavaScript, no build step: `scripts/package-vscode.sh` packages this
// folder as it is.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

/** The running client, replaced when the server path changes. */
let client;

/**
 * The server's command: the setting `constree.server.path` (`constree` on
 * the PATH when empty), followed by `lsp`.
 */
function serverOptions() {
  const configured = vscode.workspace.getConfiguration("constree").get("server.path");
  const command = configured && configured.trim() !== "" ? configured.trim() : "constree";
  return { command, args: ["lsp"] };
}

/** Starts a client and its server for the documents in constree. */
function startClient() {
  client = new LanguageClient("constree", "constree", serverOptions(), {
    documentSelector: [{ language: "constree" }],
  });
  return client.start();
}

/** Stops the running client, if any. */
function stopClient() {
  const running = client;
  client = undefined;
  return running ? running.stop() : Promise.resolve();
}

/**
 * VS Code calls this when a `.cta` file opens: starts the server, and
 * starts it again (with the new command) when `constree.server.path`
 * changes.
 */
function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((change) => {
      if (change.affectsConfiguration("constree.server.path")) {
        stopClient().then(startClient);
      }
    }),
  );
  return startClient();
}

/** Stops the server (VS Code waits for the promise). */
function deactivate() {
  return stopClient();
}

module.exports = { activate, deactivate };
