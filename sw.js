// Shuffle Lab's service worker: the site works offline after the first visit, and offline it
// serves only the site's own files, byte for byte as released.
//
// Network first, the kept copy as the fallback: online, every request goes to the network as if
// there were no service worker (so a new release shows at once); offline, the kept copy is
// served. The page's own files are kept on the first visit (they are what it fetches to show a
// deal); Pyodide's files once the lab has been opened, because only then are they fetched.
//
// What is kept, under which key: only the files MANIFEST lists, each once, under its URL with no
// query. A shared link's navigation (./?seed=...&pseed=...) is kept as ./index.html, so no seed,
// commitment or code from a link ever becomes a key of Cache Storage.
//
// Integrity: a file is kept only if its bytes have the manifest's SHA-256, and is served offline
// only if they still have it, with the manifest's type and no kept header; a copy that does not
// match is deleted and the request fails as it would with no service worker. So a write to Cache
// Storage (any script of this origin can make one) cannot change what is served offline.
//
// Why the manifest is in this file: the browser keeps a service worker's script outside Cache
// Storage, where no page script can rewrite it, and checks it byte for byte for an update on
// navigations; each release that changes a file changes this script, manifest included.
// scripts/site_manifest.py fills in the line below (`make site` for _site/, `make serve` each
// time sw.js is asked for). Served as it stands in the repository, it lists nothing and nothing
// is kept.
const MANIFEST = {}; // scripts/site_manifest.py replaces this line: {path: {sha256, size, type}}

// The cache's name carries a version: a release that changes how files are kept bumps it, and
// every other shufflelab-* cache is deleted (v1 kept navigations under their full URL, seeds
// included).
const CACHE = "shufflelab-v2";
const ROOT = new URL("./", self.location).href; // the folder of sw.js: the site's root

self.addEventListener("install", () => self.skipWaiting());

// Take over the open page at once, so what it fetches from now on (the lab's Pyodide, when
// the lab is opened) is kept; what it fetched before, it sends in a message (below).
self.addEventListener("activate", (event) => {
  event.waitUntil(tidy().then(() => self.clients.claim()));
});

// The page lists the files it loaded before this worker ran (its own address among them,
// query and all): keep those that are the site's files, under their keys. Tidy again after
// the last list (sent once the deal is shown) and on every navigation: an old worker can still
// finish what it had started after activate deleted its cache, and so open that cache again.
//
// The lab, once its worker has started, asks for { keepLab: true }: every file the lab's workers
// load is kept then. A first visit straight to the lab can start its worker before this worker
// is in control, and a worker started then is never controlled: without this, nothing it
// fetched would be kept, and the lab would not start offline.
self.addEventListener("message", (event) => {
  const listed = event.data && Array.isArray(event.data.keep) ? event.data.keep : [];
  const lab = Boolean(event.data && event.data.keepLab === true);
  if (lab) listed.push(...Object.keys(MANIFEST).filter(forTheLab).map(keyOf));
  const paths = [...new Set(listed.map(siteFile).filter((path) => path !== null))];
  const last = Boolean(event.data && event.data.last);
  event.waitUntil(Promise.all(paths.map(keepIfMissing))
    .then(() => last && tidy())
    .then(() => event.source && event.source.postMessage({ kept: paths.length, last, lab })));
});

// Whether the lab's workers load this site file (the built-ins' lab.toml and lab.zip, made from pyscript.toml; the
// sandbox's sandbox.toml and what it lists).
function forTheLab(path) {
  return path.startsWith("py/") || path.startsWith("static/vendor/pyodide/") || path.startsWith("static/js/sandbox")
    || path === "pyscript.toml" || path === "sandbox.toml" || path === "lab.toml" || path === "lab.zip";
}

self.addEventListener("fetch", (event) => {
  const path = siteFile(event.request.url);
  if (path === null) return; // not one of the site's files: the browser fetches it, nothing is kept
  if (event.request.mode === "navigate") event.waitUntil(tidy());
  if (event.request.method === "GET") event.respondWith(networkFirst(event, path));
  // the lab asks for its worker's files with HEAD before starting it: offline, a kept file answers
  else if (event.request.method === "HEAD") event.respondWith(headFromCache(event.request, path));
});

// The manifest's path of `url` if it is one of the site's files ("" is index.html), else null;
// the query and fragment play no part. Never throws.
function siteFile(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch (notAUrl) {
    return null;
  }
  const root = new URL(ROOT);
  if (parsed.origin !== root.origin || !parsed.pathname.startsWith(root.pathname)) return null;
  const path = parsed.pathname.slice(root.pathname.length) || "index.html";
  return Object.hasOwn(MANIFEST, path) ? path : null;
}

// The one key a site file is kept under: its URL with no query.
function keyOf(path) {
  return ROOT + path;
}

async function networkFirst(event, path) {
  const request = event.request;
  let answer;
  try {
    answer = await fetch(request);
  } catch (offline) {
    const copy = await verified(path);
    if (copy) return copy;
    throw offline;
  }
  if (answer.status !== 200) return answer;
  const kept = await keptCopy(path);
  // the lab's runtime (13 MB) kept from these very bytes: nothing to do (the site's other files, a few kB each, are
  // kept again on every fetch, as they always were)
  if (kept && path.startsWith(RUNTIME) && keptFrom(kept, path, answer)) return answer;
  // a failure to keep (a full disk) is no failure to fetch
  const keeping = keep(path, answer.clone()).catch(() => undefined);
  // The first time, kept before the page gets it: once the page has a file (the lab's Pyodide, say), going offline
  // at once finds it kept. A file kept before goes to the page at once and is kept again beside it: reading and
  // hashing the lab's 13 MB first would hold its start back. Offline, only a copy with the manifest's bytes is
  // served either way.
  if (kept) event.waitUntil(keeping);
  else await keeping;
  return answer;
}

// The file's kept copy (its headers: the body is not read), or null.
async function keptCopy(path) {
  const cache = await caches.open(CACHE);
  return (await cache.match(keyOf(path), { ignoreVary: true })) || null;
}

// What the server said identifies a file's bytes (ETag, else Last-Modified), or null.
function validatorOf(answer) {
  return answer.headers.get("etag") || answer.headers.get("last-modified");
}

// Whether `kept` was kept, for this release's manifest, from an answer with the same validator as `answer`: then
// it holds the same bytes, and a repeat visit need not read and hash them again. Only a shortcut for keeping: a
// copy is served (offline) only after its bytes are checked against the manifest.
function keptFrom(kept, path, answer) {
  const validator = validatorOf(answer);
  return validator !== null && kept.headers.get("x-kept-validator") === validator
    && kept.headers.get("x-kept-sha256") === MANIFEST[path].sha256;
}

// Whether a copy of the file is kept (any copy: whether its bytes are right is checked when it is served).
async function isKept(path) {
  return (await keptCopy(path)) !== null;
}

async function headFromCache(request, path) {
  try {
    return await fetch(request);
  } catch (offline) {
    const copy = await verified(path);
    if (!copy) throw offline;
    return new Response(null, { status: 200, headers: copy.headers });
  }
}

// Keeps `answer` under the path's key if its bytes are the manifest's (a file from another
// release, or edited since the manifest was made, is not kept).
async function keep(path, answer) {
  const bytes = await readTelling(path, answer);
  if (await sha256(bytes) !== MANIFEST[path].sha256) return;
  const cache = await caches.open(CACHE);
  const headers = { "content-type": MANIFEST[path].type, "x-kept-sha256": MANIFEST[path].sha256 };
  const validator = validatorOf(answer);
  if (validator !== null) headers["x-kept-validator"] = validator;
  await cache.put(keyOf(path), new Response(bytes, { headers }));
}

// The lab's runtime: Pyodide's files, about 13 MB, which its worker fetches on a first visit to the lab. The page
// cannot see what its workers fetch, so this worker tells the site's pages how many of those bytes it has read
// ({labFetch: {path, loaded, total}}, a few times a second), and the lab shows it as its progress.
const RUNTIME = "static/vendor/pyodide/";
const TELL_EVERY_MS = 200;

// The bytes of `answer`, read in full; for a file of the lab's runtime, told to the pages as they come.
async function readTelling(path, answer) {
  if (!path.startsWith(RUNTIME) || !answer.body) return answer.arrayBuffer();
  const total = Object.keys(MANIFEST).filter((name) => name.startsWith(RUNTIME))
    .reduce((sum, name) => sum + (MANIFEST[name].size || 0), 0);
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const tell = (loaded) => pages.forEach((page) => page.postMessage({ labFetch: { path, loaded, total } }));
  const reader = answer.body.getReader();
  const chunks = [];
  let loaded = 0;
  let told = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    if (Date.now() - told >= TELL_EVERY_MS) {
      told = Date.now();
      tell(loaded);
    }
  }
  tell(loaded);
  return new Blob(chunks).arrayBuffer();
}

// Fetches and keeps a file the page loaded before this worker ran, unless a copy is kept. Only
// whether one is: the page sends its lists on every visit, while it starts, and checking the
// copies' bytes here would read and hash them all (15 MB once the lab has run) each time. A
// bad copy is never served anyway, and the next fetch online replaces it.
async function keepIfMissing(path) {
  if (await isKept(path)) return;
  try {
    const answer = await fetch(keyOf(path));
    if (answer.status === 200) await keep(path, answer);
  } catch (offline) {
    // kept on a later visit
  }
}

// The kept copy of a site file as a fresh response, only if its bytes are the manifest's;
// a copy that is not is deleted. Null when there is no good copy.
async function verified(path) {
  const cache = await caches.open(CACHE);
  const copy = await cache.match(keyOf(path), { ignoreVary: true });
  if (!copy) return null;
  const bytes = await copy.arrayBuffer();
  if (await sha256(bytes) !== MANIFEST[path].sha256) {
    await cache.delete(keyOf(path), { ignoreVary: true });
    return null;
  }
  return new Response(bytes, { status: 200, headers: { "content-type": MANIFEST[path].type } });
}

// Deletes every other shufflelab-* cache, and every entry of ours that is not the key of a
// listed file (a key with a query, a file this release no longer has).
async function tidy() {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith("shufflelab-") && name !== CACHE)
    .map((name) => caches.delete(name)));
  const cache = await caches.open(CACHE);
  const requests = await cache.keys();
  await Promise.all(requests.filter((request) => {
    const path = siteFile(request.url);
    return path === null || request.url !== keyOf(path);
  }).map((request) => cache.delete(request, { ignoreVary: true })));
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
