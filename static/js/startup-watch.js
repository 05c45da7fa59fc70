// If Python never gets the page ready, say so instead of "Getting the cards ready…" forever (static/js/view.js, in <head>,
// shows the view the link asks for before the first paint).
// py/app.py sets html[data-ready="true"] and its own status ("dealing" first while a long shuffle
// of the link's deal goes on in slices); this only reports failure.
//
// Inside another site's frame (clickjacking: its page laid over ours, our buttons under its words) the page
// runs none of its controls: it says so, with a link that opens it on its own, and Python never starts
// (page/main.py reads html[data-ready="framed"]). A host that sends headers says this better, and for
// every browser: Content-Security-Policy: frame-ancestors 'none' (docs/how-to/publish.md); a <meta> cannot.
(function () {
  var root = document.documentElement;
  var status = document.getElementById("status");
  if (framedByAnotherSite()) {
    root.dataset.ready = "framed";
    var notice = document.createElement("p");
    notice.id = "framed";
    notice.className = "status framed";
    notice.dataset.state = "error";
    notice.append("Shuffle Lab does not run inside another site's page. ");
    var link = document.createElement("a");
    link.href = location.href;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
    link.textContent = "Open Shuffle Lab on its own";
    notice.append(link, ".");
    document.body.prepend(notice);
    return;
  }
  // Framed by a page of another origin: its location can't be read (a frame of this site's own is fine)
  function framedByAnotherSite() {
    if (window.top === window.self) return false;
    try {
      return window.top.location.origin !== location.origin;
    } catch (error) {
      return true;
    }
  }
  var TIMEOUT_MS = 90000;
  function failed(message) {
    if (root.dataset.ready === "true" || root.dataset.ready === "dealing" || root.dataset.ready === "framed") return;
    root.dataset.ready = "error";
    status.dataset.state = "error";
    status.textContent = "Python could not start: " + message;
  }
  document.getElementById("pyscript-core").addEventListener("error", function () {
    failed("the PyScript runtime did not load.");
  });
  window.addEventListener("error", function (event) {
    var message = String(event.message || "");
    if (message.indexOf("PythonError") !== -1) failed("the page's Python code raised an error (details in the console).");
  });
  window.addEventListener("unhandledrejection", function (event) {
    failed(String((event.reason && event.reason.message) || event.reason || "unknown error"));
  });
  window.addEventListener("py:all-done", function () {
    // PyScript's error plugin appends an uncaught Python error to the page as .py-error.
    failed(document.querySelector(".py-error")
      ? "the page's Python code raised an error (traceback at the end of the page)."
      : "Python finished without marking the page ready.");
  });
  setTimeout(function () {
    failed("it did not finish loading within " + TIMEOUT_MS / 1000 + " seconds. Reload to try again.");
  }, TIMEOUT_MS);
})();
