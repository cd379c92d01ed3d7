// Round timers: count down to the server's end time. The offset between the server's clock (sent with the
// page) and this device's clock is applied, so a phone with a wrong clock still shows the right time.
// Live pages replace their fragment; the timers found in it are picked up again after each swap.
(function () {
  "use strict";
  var holder = document.querySelector("[data-server-now]");
  var offset = holder ? Date.parse(holder.dataset.serverNow) - Date.now() : 0;
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  // The projector's clock (data-sound-end) chimes once when it reaches zero while the page is open.
  var lastLeft = {};
  function tick() {
    document.querySelectorAll("#round-timer, .round-timer").forEach(function (el) {
      var endsAt = Date.parse(el.dataset.endsAt);
      if (isNaN(endsAt)) { return; }
      var left = Math.round((endsAt - (Date.now() + offset)) / 1000);
      if (el.hasAttribute("data-sound-end")) {
        var before = lastLeft[el.dataset.endsAt];
        if (left <= 0 && before > 0 && window.deckhallChime) { window.deckhallChime("end"); }
        lastLeft[el.dataset.endsAt] = left;
      }
      if (left <= 0) {
        el.textContent = el.dataset.expiredText;
        el.classList.add("bad");
        return;
      }
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s);
    });
  }
  var legacy = document.getElementById("round-timer");
  if (legacy && legacy.dataset.serverNow) { offset = Date.parse(legacy.dataset.serverNow) - Date.now(); }
  tick();
  window.setInterval(tick, 1000);
  document.addEventListener("live:updated", tick);
})();
