// A short chime drawn with the Web Audio API (no sound file): the organizer's alerts and the projector's
// end of round. Browsers keep audio locked until the person has clicked on the page once, so the first click
// anywhere unlocks it; until then a chime is counted (data-chimes on <body>) but silent.
(function () {
  "use strict";
  var context = null;
  function audio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return null; }
    if (!context) { context = new Context(); }
    if (context.state === "suspended") { context.resume(); }
    return context;
  }
  document.addEventListener("click", function () { audio(); }, {once: true});
  // The projector's switch: a click is what lets the browser play the end-of-round sound later.
  document.querySelectorAll("[data-sound-switch]").forEach(function (button) {
    button.addEventListener("click", function () {
      audio();
      button.textContent = button.dataset.on;
      document.body.dataset.soundOn = "1";
    });
  });

  // kind "alert": two rising notes; "end": three long low notes (a round is over).
  function chime(kind) {
    document.body.dataset.chimes = String((parseInt(document.body.dataset.chimes || "0", 10) || 0) + 1);
    document.body.dataset.lastChime = kind;
    var c = audio();
    if (!c || c.state !== "running") { return; }
    var notes = kind === "end" ? [[440, 0, 0.6], [440, 0.8, 0.6], [330, 1.6, 1.2]] : [[660, 0, 0.18], [880, 0.22, 0.3]];
    notes.forEach(function (note) {
      var osc = c.createOscillator();
      var gain = c.createGain();
      var start = c.currentTime + note[1];
      osc.type = "sine";
      osc.frequency.value = note[0];
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.4, start + 0.03);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + note[2]);
      osc.connect(gain);
      gain.connect(c.destination);
      osc.start(start);
      osc.stop(start + note[2] + 0.05);
    });
  }
  window.deckhallChime = chime;
})();
