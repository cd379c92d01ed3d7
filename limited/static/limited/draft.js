// My draft on a phone: the countdown, and the pack kept current by polling (ETag → 304 while nothing moved).
// Picks go through static/pwa/offline.js (the queue with an Idempotency-Key); while a pick waits on the phone
// the page is not replaced, so a phone that lost the Wi-Fi still shows the pack it picked from.
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box) { return; }
  var url = box.dataset.draftUrl;
  var etag = box.dataset.etag;
  var offset = 0;
  // The polled box and a pick's answer carry no CSRF token (a fresh one in every answer cost the server and
  // renewed the cookie each time): the pack's form takes the one the page was rendered with, before any send.
  var token = document.getElementById("draft-csrf");
  function fill() {
    if (!token) { return; }
    box.querySelectorAll("form[method=post]").forEach(function (form) {
      if (form.querySelector("input[name=csrfmiddlewaretoken]")) { return; }
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = token.value;
      form.insertBefore(input, form.firstChild);
    });
  }
  function tick() {
    var el = box.querySelector("[data-deadline]");
    if (!el) { return; }
    if (el.dataset.now) { offset = Date.parse(el.dataset.now) - Date.now(); delete el.dataset.now; }
    var left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now() - offset) / 1000));
    el.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    el.classList.toggle("low", left <= 5);
  }
  function pending() {
    var list = document.getElementById("offline-queue");
    return list && list.querySelector("[data-state=waiting]");
  }
  function poll() {
    if (document.hidden || pending()) { return; }
    fetch(url, {credentials: "same-origin", headers: etag ? {"If-None-Match": etag} : {}}).then(function (r) {
      if (r.status !== 200) { return; }
      etag = r.headers.get("ETag") || etag;
      return r.text().then(function (html) {
        box.innerHTML = html;
        document.dispatchEvent(new CustomEvent("live:updated", {detail: {box: box}}));
        tick();
      });
    }).catch(function () { /* offline: keep the page as it is */ });
  }
  // The box replaced (this script's poll, or the offline queue showing the page after a pick): the fragment
  // names its own tag, so the next poll is a 304 until something changes (without it, every poll after a
  // pick was a full answer).
  document.addEventListener("live:updated", function () {
    var held = box.querySelector("[data-draft-etag]");
    etag = held ? held.dataset.draftEtag : null;
    fill();
    tick();
  });
  window.setInterval(tick, 500);
  // Every second while this phone waits for the pod to pass (the next pack shows within about a second of
  // the pass) and once its own countdown has run out (that poll runs the pod's timer: the auto-pick and the
  // next pack); every four seconds while it holds a pack, when only a pause can change it (the countdown runs
  // here). An unchanged poll is a 304 answered before Django (limited/wsgi.py).
  var beats = 0;
  window.setInterval(function () {
    beats += 1;
    var clock = box.querySelector("[data-deadline]");
    var due = clock && Date.parse(clock.dataset.deadline) - Date.now() - offset <= 0;
    if (box.querySelector("[data-testid=draft-waiting]") || due || beats % 4 === 0) { poll(); }
  }, 1000);
  fill();  // a box offline.js restored from the phone's copy
  tick();
})();
