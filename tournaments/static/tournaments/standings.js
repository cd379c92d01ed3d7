// Standings on a phone: typing in the search box keeps only the rows whose player name contains the text
// (case-insensitive; Enter asks the server, which searches every row, not only the ones on this page).
// The player's own row is highlighted wherever it appears — the shared page the server sends is the same
// for everyone, so the highlight is added here — and both survive the live updates of the list.
(function () {
  "use strict";
  var box = document.getElementById("live");
  var mine = box ? box.dataset.mine : "";
  function highlight() {
    if (!mine) { return; }
    document.querySelectorAll("tr[data-player-id='" + mine + "']").forEach(function (row) {
      row.classList.add("mine");
    });
  }
  function filter(input) {
    var needle = input.value.trim().toLocaleLowerCase();
    document.querySelectorAll(input.dataset.filterRows).forEach(function (row) {
      row.hidden = needle !== "" && row.dataset.player.toLocaleLowerCase().indexOf(needle) === -1;
    });
  }
  var inputs = document.querySelectorAll("input[data-filter-rows]");
  inputs.forEach(function (input) {
    input.addEventListener("input", function () { filter(input); });
  });
  highlight();
  document.addEventListener("live:updated", function () {
    highlight();
    inputs.forEach(filter);
  });
})();
