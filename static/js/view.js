// Before the first paint, show the view the link asks for (html[data-view]), so a link to the lab or to Play does
// not paint the deal's panel first and then take it away (a layout shift: 0.26 on a phone, measured). Loaded in
// <head>, before anything is drawn; page/deal_view.py's render_view keeps it up to date once Python runs.
// link.py reads `view` the same way: the first one wins, anything but "lab" or "play" is the deal.
(function () {
  var asked = new URLSearchParams(location.search).get("view");
  document.documentElement.dataset.view = asked === "lab" || asked === "play" ? asked : "deal";
})();
