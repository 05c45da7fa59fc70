// sw.js as released up to commit 8a24c0c (cache shufflelab-v1, navigations kept under their full URL,
// seeds included): tests/e2e/test_offline.py installs it to check that the update deletes its cache.
// Shuffle Lab's service worker: the site works offline after the first visit.
//
// Network first, cache as the fallback: online, every request goes to the network as if
// there were no service worker (so a new release shows at once) and its answer is kept;
// offline, the kept answer is served. The page's own files are kept on the first visit
// (they are what it fetches to show a deal); Pyodide's files are kept when the lab has
// been opened once, because only then are they fetched. The cache's name carries a
// version: a release that changes how files are kept bumps it, and the old cache is
// deleted when the new worker takes over.
const CACHE = "shufflelab-v1";

self.addEventListener("install", () => self.skipWaiting());

// Take over the open page at once, so what it fetches from now on (the lab's Pyodide, when
// the lab is opened) is kept; what it fetched before, it sends in a message (below).
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("shufflelab-") && name !== CACHE)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// The page lists the files it loaded before this worker ran: keep them too.
self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  const ours = urls.filter((url) => new URL(url).origin === self.location.origin);
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(ours.map((url) =>
    cache.match(url).then((kept) => kept || cache.add(url).catch(() => undefined)))))
    .then(() => event.source && event.source.postMessage({ kept: ours.length, last: Boolean(event.data.last) })));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET") event.respondWith(networkFirst(request));
  // the lab asks for its worker's files with HEAD before starting it: offline, a kept file answers
  else if (request.method === "HEAD") event.respondWith(headFromCache(request));
});

async function headFromCache(request) {
  try {
    return await fetch(request);
  } catch (offline) {
    const kept = await caches.match(request.url);
    if (!kept) throw offline;
    return new Response(null, { status: kept.status, statusText: kept.statusText, headers: kept.headers });
  }
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok && answer.status === 200) await cache.put(request, answer.clone());
    return answer;
  } catch (offline) {
    // the same file under another query string (?v=... links) is the same page
    const kept = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
    if (kept) return kept;
    throw offline;
  }
}
