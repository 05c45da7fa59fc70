// Register the service worker (sw.js, beside index.html) that lets the site work offline
// after the first visit, and hand it the files this page loaded before it was running:
// once it is ready, and again when the first deal is on screen (PyScript fetches some of
// its files late). html[data-offline="ready"] says the second list is kept.
if ("serviceWorker" in navigator) {
  const root = document.documentElement;
  const keepWhatWasLoaded = (registration, last) => {
    // the page's own address without its query: a link's seed never leaves the page, not even to our worker
    const page = location.origin + location.pathname;
    const loaded = performance.getEntriesByType("resource").map((entry) => entry.name.split("?")[0]);
    registration.active.postMessage({ keep: [page, ...loaded], last });
  };
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.last) root.dataset.offline = "ready";
    if (event.data && event.data.lab) root.dataset.offlineLab = "ready";  // the lab's files are kept too
    // how much of the lab's runtime the service worker has read (sw.js): the lab shows it while its worker starts
    const fetched = event.data && event.data.labFetch;
    if (fetched && typeof fetched.path === "string" && Number.isFinite(fetched.loaded) && Number.isFinite(fetched.total)) {
      const state = window.shufflelabLabFetch || (window.shufflelabLabFetch = { files: {}, loaded: 0, total: 0 });
      state.files[fetched.path] = Math.max(state.files[fetched.path] || 0, fetched.loaded);
      state.loaded = Object.values(state.files).reduce((sum, bytes) => sum + bytes, 0);
      state.total = fetched.total;
    }
  });
  navigator.serviceWorker.register("./sw.js").then(() => navigator.serviceWorker.ready).then((registration) => {
    keepWhatWasLoaded(registration, false);
    const whenDealt = () => {
      if (root.dataset.ready !== "true") return false;
      keepWhatWasLoaded(registration, true);
      return true;
    };
    if (!whenDealt()) {
      const watch = new MutationObserver(() => whenDealt() && watch.disconnect());
      watch.observe(root, { attributes: true, attributeFilter: ["data-ready"] });
    }
  }).catch((error) => {
    // offline support is a bonus: the page works without it
    console.info("Shuffle Lab works online only here: " + error.message);
  });
}
