// The page's side of the sandboxes where users' shuffles run (docs/how-to/write-your-own-shuffle.md).
//
// Each sandbox is an <iframe sandbox="allow-scripts"> (never allow-same-origin) made from srcdoc:
// its origin is opaque, so the browser itself denies it Cache Storage, IndexedDB, cookies and the
// service worker, and it can't touch this page. Being srcdoc, it needs no network: the page
// fetches Pyodide's files and the Python sources once (through its service worker, so offline
// too) and hands each sandbox a copy. Its one inline script is allowed by its hash in the page's CSP.
//
// Python (py/page/workers.py) drives them through globalThis.shufflelabSandbox.create(): each
// has start(), call(method, argsJson) -> the answer's text, stop() to end its frame and
// everything in it, and its state. The page runs each code in a sandbox of its own, so more than
// one may be up at once (the one running, and a fresh spare for the next Run).
//
// The frame hands over plain {kind, id, text} only (sandbox-frame.js rebuilds every message), and
// every message, answers included, spends one from the sandbox's budget; each call adds one. A
// sandbox over its budget, or that answers with a refused text, is ended, and says why in its state.
const PYODIDE = "./static/vendor/pyodide/";
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const FRAME_SCRIPT = "./static/js/sandbox-frame.js";
const WORKER_SCRIPT = "./static/js/sandbox-worker.js";
const PYTHON_LIST = "./sandbox.toml";
const MAX_ANSWER_CHARACTERS = 4_000_000;  // as shufflelab.lab.sandbox and sandbox-frame.js
// messages a sandbox may send beyond one answer per call (its frame's and its worker's start-up messages among them)
const SPARE_MESSAGES = 50;

const download = { loaded: 0, total: 0 };  // the runtime's bytes, fetched once for every sandbox
let runtime = null;  // the promise of what every sandbox is handed

async function fetchBytes(url) {
  const answer = await fetch(url);
  if (!answer.ok) throw new Error(`${url.split("/").pop()} answered ${answer.status}`);
  const reader = answer.body.getReader();
  const parts = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    download.loaded += value.length;
  }
  return new Blob(parts).arrayBuffer();
}

async function fetchText(url) {
  return new TextDecoder().decode(await fetchBytes(url));
}

// "./py/shufflelab/rng.py" = "./shufflelab/rng.py": the same [files] format as pyscript.toml
async function pythonSources() {
  const list = await fetchText(PYTHON_LIST);
  const entries = [...list.matchAll(/^"(\.\/py\/[\w./]+\.py)" = "\.\/([\w./]+\.py)"$/gm)];
  const texts = await Promise.all(entries.map(([, source]) => fetchText(source)));
  return Object.fromEntries(entries.map(([, , target], k) => [target, texts[k]]));
}

// The frame inherits the page's CSP; this one is enforced beside it, so the frame and its worker
// get the stricter of the two: their own script, blob: URLs of the files handed over, and no
// fetch of anything else at all (not even this site's public files).
async function framePolicy(frameScript) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(frameScript));
  const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
  const policy = `default-src 'none'; script-src 'wasm-unsafe-eval' blob: 'sha256-${hash}'; worker-src blob:; `
    + "connect-src blob:; base-uri 'none'; form-action 'none'";
  return `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
}

async function fetchRuntime() {
  download.loaded = 0;
  const sizes = await Promise.all(PYODIDE_FILES.map((name) => fetch(PYODIDE + name, { method: "HEAD" })
    .then((answer) => Number(answer.headers.get("Content-Length")) || 0).catch(() => 0)));
  download.total = sizes.reduce((a, b) => a + b, 0);
  const [frameScript, workerScript, python, ...buffers] = await Promise.all([
    fetchText(FRAME_SCRIPT), fetchText(WORKER_SCRIPT), pythonSources(),
    ...PYODIDE_FILES.map((name) => fetchBytes(PYODIDE + name))]);
  return { frameScript, workerScript, python, buffers, policy: await framePolicy(frameScript) };
}

// What every sandbox is handed, fetched once (again after a failure)
function theRuntime() {
  if (runtime === null) runtime = fetchRuntime().catch((error) => { runtime = null; throw error; });
  return runtime;
}

const sandboxes = new Set();  // those with a frame, to route each message to the one whose frame sent it

function create() {
  // phase: idle, fetching, starting, ready, failed; ended: why it was ended for misbehaving, once it was
  const state = {
    phase: "idle", error: "", budget: 0, ended: "",
    get loaded() { return download.loaded; },
    get total() { return download.total; },
  };
  let frame = null;
  let nextId = 1;
  const pending = new Map();
  let waiters = [];  // while starting: {kinds, resolve} for the frame's and the worker's first messages
  let generation = 0;  // bumped by stop(): a start under way when the sandbox is stopped gives up
  let starting = null;

  function settle(id, outcome) {
    const call = pending.get(id);
    if (call === undefined) return false;
    pending.delete(id);
    outcome.error === undefined ? call.resolve(outcome.text) : call.reject(new Error(outcome.error));
    return true;
  }

  // One message from this sandbox's frame, already rebuilt there as plain {kind, id, text}
  function heard(data) {
    state.budget -= 1;  // every message spends, answers included
    if (state.budget < 0) {
      end("it sent more messages than it was asked for");
      return;
    }
    const ok = data !== null && typeof data === "object" && typeof data.kind === "string"
      && typeof data.text === "string" && data.text.length <= MAX_ANSWER_CHARACTERS;
    if (!ok) return;
    if (data.kind === "answer" && settle(data.id, { text: data.text })) return;
    if (data.kind === "refused" && pending.has(data.id)) {
      end(data.text.slice(0, 200));
      return;
    }
    const waiter = state.phase === "starting" ? waiters.findIndex((w) => w.kinds.includes(data.kind)) : -1;
    if (waiter >= 0) waiters.splice(waiter, 1)[0].resolve(data);
    else if (data.kind === "crashed") stop("the sandbox's worker crashed");
  }

  function waitFor(kinds) {
    return new Promise((resolve) => waiters.push({ kinds, resolve }));
  }

  function stillWanted(mine) {
    if (mine !== generation) throw new Error("the sandbox was stopped while it started");
  }

  async function boot() {
    const mine = generation;
    state.phase = "fetching";
    state.error = "";
    state.ended = "";
    const { frameScript, workerScript, python, buffers, policy } = await theRuntime();
    stillWanted(mine);
    state.phase = "starting";
    state.budget = SPARE_MESSAGES;
    waiters = [];
    const copies = buffers.map((buffer) => buffer.slice(0));  // this sandbox's own, handed over (transferred)
    const files = Object.fromEntries(PYODIDE_FILES.map((name, k) => [name, copies[k]]));
    frame = document.createElement("iframe");
    frame.setAttribute("sandbox", "allow-scripts");
    frame.hidden = true;
    frame.title = "Sandbox for your shuffle";
    frame.srcdoc = `<!doctype html><meta charset="utf-8">${policy}<title>sandbox</title><script>${frameScript}</script>`;
    sandboxes.add(sandbox);
    const frameReady = waitFor(["frame-ready"]);
    document.body.appendChild(frame);
    await frameReady;
    stillWanted(mine);
    const started = waitFor(["ready", "failed", "crashed"]);
    frame.contentWindow.postMessage({ kind: "boot", source: workerScript, boot: { kind: "boot", files, python } }, "*",
      copies);
    const outcome = await started;
    if (outcome.kind !== "ready") throw new Error(String(outcome.text || "the sandbox could not start").slice(0, 200));
    state.phase = "ready";
  }

  // Start the sandbox once (again after stop()); resolves when its Python is ready.
  function start() {
    if (starting === null) {
      const mine = generation;
      starting = boot().catch((error) => {
        if (mine === generation) {  // not a start that stop() already gave up
          const reason = String((error && error.message) || error).slice(0, 200);
          stop(reason);
          state.phase = "failed";
          state.error = reason;
        }
        throw error;
      });
    }
    return starting;
  }

  // Start it ahead of need, quietly: a failure is met again, and said, by the start that needs it.
  function warm() {
    start().catch(() => {});
  }

  // Ask the sandbox's Python: resolves to the JSON text it answered, rejects if the frame is ended meanwhile.
  function call(method, argsJson) {
    if (frame === null || state.phase !== "ready") {
      return Promise.reject(new Error(state.ended ? `it was ended: ${state.ended}` : "the sandbox is not running"));
    }
    const id = nextId++;
    const answer = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    state.budget += 1;  // its answer
    frame.contentWindow.postMessage({ kind: "call", id, method: String(method), args: String(argsJson) }, "*");
    return answer;
  }

  // End it for misbehaving: every call waiting gets the reason, and so does the next one.
  function end(reason) {
    stop(reason);
    state.ended = reason;
  }

  // End the frame, and with it the worker and everything the user's code started.
  function stop(reason = "the sandbox was stopped") {
    generation += 1;
    if (frame !== null) frame.remove();
    frame = null;
    sandboxes.delete(sandbox);
    starting = null;
    for (const waiter of waiters) waiter.resolve({ kind: "stopped" });  // a start under way gives up at once
    waiters = [];
    state.phase = "idle";
    for (const id of [...pending.keys()]) settle(id, { error: reason });
  }

  const sandbox = { start, warm, call, stop, state, owns: (source) => frame !== null && source === frame.contentWindow,
                    heard };
  return sandbox;
}

addEventListener("message", (event) => {
  for (const sandbox of sandboxes) {
    if (sandbox.owns(event.source)) {
      sandbox.heard(event.data);
      return;
    }
  }
});
// Whether a sandbox is up and ready for calls (what a test or a benchmark waits for)
function anyReady() {
  return [...sandboxes].some((sandbox) => sandbox.state.phase === "ready");
}

globalThis.shufflelabSandbox = { create, anyReady };
