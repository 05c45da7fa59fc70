// The sandbox frame's only script, inline in its srcdoc (allowed by its hash in the page's CSP).
// The frame is <iframe sandbox="allow-scripts">: its origin is opaque, so the browser denies it
// (and the worker it starts) the site's storage, cookies and service worker. It starts one
// worker from the source the page sends, hands it the runtime's files, and relays messages
// both ways; the page trusts nothing that comes back.
//
// What the worker posts (the user's code can post anything there) is read here, in the frame's
// own thread, and rebuilt as a fresh {kind, id, text} of plain values: the page is handed
// nothing else to read, however many objects the worker hung on a message. An answer to a call
// the page did not send, or not still waiting, is handed on as "unasked" with no text, and one
// that is not text of at most MAX_TEXT characters as "refused" (the page ends the sandbox).
"use strict";
const MAX_TEXT = 4000000;  // as sandbox.mjs and shufflelab.lab.sandbox
const MAX_NOTE = 200;  // the worker's start-up messages: "ready", or "failed" and why
let worker = null;
const asked = new Set();  // the ids of the page's calls that the worker has not answered yet

function rebuilt(data) {
  const object = data !== null && typeof data === "object";
  const kind = object ? data.kind : undefined;
  const text = object ? data.text : undefined;
  if (kind === "answer") {
    const id = data.id;
    if (typeof id !== "number" || !asked.has(id)) return { kind: "unasked", id: 0, text: "" };
    asked.delete(id);
    if (typeof text !== "string") return { kind: "refused", id, text: "its answer is not text" };
    if (text.length > MAX_TEXT) return { kind: "refused", id, text: "its answer is over 4,000,000 characters" };
    return { kind: "answer", id, text };
  }
  if (kind === "ready" || kind === "failed") {
    return { kind, id: 0, text: typeof text === "string" ? text.slice(0, MAX_NOTE) : "" };
  }
  return { kind: "unasked", id: 0, text: "" };
}

addEventListener("message", (event) => {
  if (event.source !== parent) return;
  const message = event.data;
  if (worker === null && message && message.kind === "boot") {
    worker = new Worker(URL.createObjectURL(new Blob([message.source], { type: "text/javascript" })));
    worker.onmessage = (answer) => parent.postMessage(rebuilt(answer.data), "*");
    worker.onmessageerror = () => parent.postMessage({ kind: "unasked", id: 0, text: "" }, "*");
    worker.onerror = () => parent.postMessage({ kind: "crashed", id: 0, text: "" }, "*");
    worker.postMessage(message.boot, Object.values(message.boot.files));
  } else if (worker !== null && message && message.kind === "call") {
    asked.add(message.id);
    worker.postMessage(message);
  }
});
parent.postMessage({ kind: "frame-ready", id: 0, text: "" }, "*");
