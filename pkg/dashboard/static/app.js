// Live refresh: the page carries the change token it was rendered from;
// /api/changes reports the current one. When they differ the page reloads,
// unless it holds a form the user has typed into: then a banner offers the
// reload instead, so no typing is lost.
(function () {
  "use strict";
  var token = document.body.getAttribute("data-change");
  var dirty = false;
  var stopped = false;
  document.querySelectorAll("form[data-guard]").forEach(function (f) {
    f.addEventListener("input", function () { dirty = true; });
    f.addEventListener("submit", function () { dirty = false; stopped = true; });
  });
  var reload = document.getElementById("reload");
  if (reload) {
    reload.addEventListener("click", function (e) { e.preventDefault(); location.reload(); });
  }
  function poll() {
    if (stopped || document.hidden) { return; }
    fetch("/api/changes", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (j) {
        if (!j || !j.token || j.token === token || stopped) { return; }
        if (dirty || document.querySelector("form[data-guard]")) {
          stopped = true;
          document.getElementById("changed").hidden = false;
        } else {
          stopped = true;
          location.reload();
        }
      })
      .catch(function () { /* the server may be restarting; try again later */ });
  }
  setInterval(poll, 2000);
  document.addEventListener("visibilitychange", poll);

  // "/" focuses the search box, as on most sites with one.
  document.addEventListener("keydown", function (e) {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) { return; }
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) { return; }
    var q = document.getElementById("q");
    if (q) { e.preventDefault(); q.focus(); q.select(); }
  });
})();
