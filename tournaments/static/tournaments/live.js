// Live pages: ask the server every few seconds whether the fragment changed (If-None-Match → 304 when not)
// and swap the new HTML in. Polling pauses while the tab is hidden, and a form the person is filling in is
// never replaced under their fingers (the swap waits until they submit or leave it).
(function () {
  "use strict";
  var box = document.getElementById("live");
  var configEl = document.getElementById("live-config");
  if (!box || !configEl) { return; }
  var config = JSON.parse(configEl.textContent);
  var url = box.dataset.liveUrl;
  var etag = box.dataset.liveEtag || "";
  var busy = false;
  var dirty = false;
  box.addEventListener("input", function () { dirty = true; });
  box.addEventListener("change", function () { dirty = true; });
  box.addEventListener("submit", function () { dirty = false; });

  // When only the round clock changed the server sends just the clock's fragment (X-Live-Clock: 1).
  // After a new round the server first sends a short notice (table, opponent) and says, in X-Live-Refresh,
  // when to fetch the full page: a whole room asking for full pages at the same second would swamp it.
  var wantFull = false;

  function poll() {
    if (busy || document.hidden || dirty) { return; }
    busy = true;
    var headers = {"X-Requested-With": "fetch"};
    var full = wantFull;
    if (etag && !full) { headers["If-None-Match"] = etag; }
    fetch(url, {headers: headers, cache: "no-store", credentials: "same-origin"}).then(function (response) {
      if (response.status !== 200) { return null; }
      if (full) { wantFull = false; }
      var next = response.headers.get("ETag");
      var refresh = parseInt(response.headers.get("X-Live-Refresh") || "", 10);
      if (!isNaN(refresh)) {
        window.setTimeout(function () { wantFull = true; poll(); }, refresh);
      }
      var clockOnly = response.headers.get("X-Live-Clock") === "1";
      return response.text().then(function (html) {
        // Only the round clock moved: swap the clock's own element, leave the rest of the page (and any
        // form being filled in) alone. A page without one asks for its whole page on the next poll.
        if (clockOnly) {
          var clock = box.querySelector("[data-live-clock]");
          if (!clock) { wantFull = true; return; }
          clock.outerHTML = html;
          if (next) { etag = next; }
          document.dispatchEvent(new CustomEvent("live:updated", {detail: {box: box, clock: true}}));
          return;
        }
        // The person started filling in a form while this answer was on its way: keep their page (and the
        // old ETag, so the poll after they submit fetches the change again).
        if (dirty) { return; }
        // Keep open what the person opened (their deck, a correction form) across the swap.
        var open = [];
        box.querySelectorAll("details").forEach(function (d, i) { if (d.open) { open.push(i); } });
        box.innerHTML = html;
        var details = box.querySelectorAll("details");
        open.forEach(function (i) { if (details[i]) { details[i].open = true; } });
        if (next) { etag = next; }
        document.dispatchEvent(new CustomEvent("live:updated", {detail: {box: box}}));
      });
    }).catch(function () { /* offline for a moment: the next poll tries again */ }).then(function () {
      busy = false;
    });
  }
  window.setInterval(poll, config.poll_ms || 4000);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });

  // Projector: page through long lists by itself, one screenful at a time.
  if (config.page_ms) {
    var index = 0;
    window.setInterval(function () {
      var list = box.querySelector("[data-pages]");
      if (!list) { return; }
      var rows = Array.prototype.slice.call(list.children);
      var perPage = Math.max(1, Math.floor((window.innerHeight - list.getBoundingClientRect().top) / (rows[0] ? rows[0].offsetHeight || 60 : 60)) - 1);
      var pages = Math.max(1, Math.ceil(rows.length / perPage));
      index = (index + 1) % pages;
      rows.forEach(function (row, i) { row.hidden = Math.floor(i / perPage) !== index; });
      var label = box.querySelector("[data-page-label]");
      if (label) { label.textContent = (index + 1) + " / " + pages; }
    }, config.page_ms);
  }
})();
