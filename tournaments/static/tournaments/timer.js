// Round timer: counts down to the server's end time. The offset between the server's clock (sent with the
// page) and this device's clock is applied, so a phone with a wrong clock still shows the right time.
(function () {
  "use strict";
  var el = document.getElementById("round-timer");
  if (!el) { return; }
  var endsAt = Date.parse(el.dataset.endsAt);
  var offset = Date.parse(el.dataset.serverNow) - Date.now();
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var left = Math.round((endsAt - (Date.now() + offset)) / 1000);
    if (left <= 0) {
      el.textContent = el.dataset.expiredText;
      el.classList.add("bad");
      return;
    }
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    el.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s);
    window.setTimeout(tick, 1000);
  }
  tick();
})();
