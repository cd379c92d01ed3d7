// Site-wide behaviour that used to be inline handlers (the Content-Security-Policy allows no inline
// scripts): selects marked data-autosubmit submit their form on change; buttons marked
// data-action="print" open the print dialog.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    const target = event.target;
    if (target instanceof HTMLSelectElement && target.hasAttribute("data-autosubmit") && target.form) {
      target.form.submit();
    }
  });
  // Logging out forgets this session's offline copies (static/pwa/sw.js) and its unsent writes: a shared
  // phone must not show the next person someone else's event.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-logout")) return;
    try {
      Object.keys(localStorage).filter(function (k) { return k.indexOf("deckhall:") === 0; })
        .forEach(function (k) { localStorage.removeItem(k); });
    } catch (e) { /* storage unavailable: nothing kept either */ }
    // The worker forgets the session's copies (it outlives this page, so the log-out need not wait).
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({type: "session", key: ""});
  });
  document.addEventListener("click", function (event) {
    const button = event.target instanceof Element ? event.target.closest("[data-action=print]") : null;
    if (button) window.print();
  });
})();
