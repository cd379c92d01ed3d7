// The organizer's live pages: after each swap of the live fragment, count what needs the organizer now (judge
// calls and disputes) into a badge and the page title, and chime when one appears that this page has not
// seen before. The sound can be muted; the choice is kept in this browser.
// It also adds the page's one CSRF token to the live part's forms as they are sent (the fragment is shared).
(function () {
  "use strict";
  // The live part is one fragment shared by every organizer of the event, so its forms carry no CSRF token:
  // the page holds the token once (#org-csrf) and it is added to a form the moment that form is sent.
  var csrf = document.getElementById("org-csrf");
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!csrf || !form || (form.getAttribute("method") || "").toLowerCase() !== "post") { return; }
    if (form.querySelector("input[name=csrfmiddlewaretoken]")) { return; }
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = "csrfmiddlewaretoken";
    input.value = csrf.value;
    form.appendChild(input);
  }, true);

  var box = document.getElementById("live");
  var badge = document.getElementById("alert-badge");
  var mute = document.getElementById("alert-mute");
  if (!box || !badge) { return; }
  var KEY = "deckhall.alerts.muted";
  var baseTitle = document.title.replace(/^\(\d+\)\s*/, "");
  var seen = null;
  var muted = false;
  try { muted = window.localStorage.getItem(KEY) === "1"; } catch (e) { /* private mode: not kept */ }

  function showMute() {
    if (!mute) { return; }
    mute.textContent = muted ? mute.dataset.off : mute.dataset.on;
    mute.setAttribute("aria-pressed", muted ? "true" : "false");
  }
  if (mute) {
    mute.addEventListener("click", function () {
      muted = !muted;
      try { window.localStorage.setItem(KEY, muted ? "1" : "0"); } catch (e) { /* not kept */ }
      showMute();
    });
  }

  function read() {
    var panel = box.querySelector("[data-alert-keys]");
    if (!panel) { return; }
    var keys = (panel.dataset.alertKeys || "").split(" ").filter(Boolean);
    var count = parseInt(panel.dataset.alertCount || "0", 10) || 0;
    document.title = count ? "(" + count + ") " + baseTitle : baseTitle;
    badge.textContent = String(count);
    badge.hidden = count === 0;
    if (seen !== null) {
      var fresh = keys.filter(function (k) { return seen.indexOf(k) < 0; });
      if (fresh.length) {
        badge.classList.remove("pulse");
        void badge.offsetWidth;  // restart the animation
        badge.classList.add("pulse");
        if (!muted && window.deckhallChime) { window.deckhallChime("alert"); }
      }
    }
    seen = keys;
  }
  showMute();
  read();
  document.addEventListener("live:updated", read);
})();
