// The sandbox frame's only script, inline in its srcdoc (allowed by its hash in the page's CSP).
// The frame is <iframe sandbox="allow-scripts">: its origin is opaque, so the browser denies it
// (and the worker it starts) the site's storage, cookies and service worker. It starts one
// worker from the source the page sends, hands it the runtime's files, and relays messages
// both ways; the page trusts nothing that comes back.
"use strict";
let worker = null;
addEventListener("message", (event) => {
  if (event.source !== parent) return;
  const message = event.data;
  if (worker === null && message && message.kind === "boot") {
    worker = new Worker(URL.createObjectURL(new Blob([message.source], { type: "text/javascript" })));
    worker.onmessage = (answer) => parent.postMessage(answer.data, "*");
    worker.onerror = (error) => parent.postMessage({ kind: "crashed", text: String(error.message || "error") }, "*");
    worker.postMessage(message.boot, Object.values(message.boot.files));
  } else if (worker !== null) {
    worker.postMessage(message);
  }
});
parent.postMessage({ kind: "frame-ready" }, "*");
