// The organizer's pods: refreshed every 3 s (each pod's pick, who has made it, its timer; never the picks).
(function () {
  "use strict";
  var box = document.getElementById("pods");
  if (!box) { return; }
  window.setInterval(function () {
    if (document.hidden) { return; }
    fetch(box.dataset.fragmentUrl, {credentials: "same-origin"}).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) { if (html !== null && html !== undefined) { box.innerHTML = html; } }).catch(function () {});
  }, 3000);
})();
