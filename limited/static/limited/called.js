// The called-draft timer on the projector: walks MTR Appendix B's pick times pick by pick, pack by pack.
(function () {
  "use strict";
  var box = document.querySelector("[data-testid=called-timer]");
  if (!box) { return; }
  var schedule = box.dataset.schedule.split(",").map(Number);
  var packs = Number(box.dataset.packs) || 3;
  var words = document.documentElement.lang === "ru" ? {pack: "Бустер", pick: "пик", done: "Драфт окончен"} : {pack: "Pack", pick: "pick", done: "The draft is over"};
  var shown = box.querySelector(".projector-timer");
  var position = box.querySelector(".called-position");
  var pack = 1, pick = 1, left = schedule[0], running = false;
  function render() {
    if (pack > packs) { position.textContent = words.done; shown.textContent = "0"; return; }
    position.textContent = words.pack + " " + pack + ", " + words.pick + " " + pick;
    shown.textContent = String(left);
  }
  function next() {
    pick += 1;
    if (pick > schedule.length) { pick = 1; pack += 1; }
    left = schedule[pick - 1];
    render();
  }
  window.setInterval(function () {
    if (!running || pack > packs) { return; }
    left -= 1;
    if (left <= 0) { next(); } else { render(); }
  }, 1000);
  box.addEventListener("click", function (event) {
    var call = event.target.dataset && event.target.dataset.call;
    if (call === "start") { running = true; }
    if (call === "pause") { running = false; }
    if (call === "next") { next(); }
  });
  render();
})();
