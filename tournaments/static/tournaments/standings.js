// Standings on a phone: typing in the search box keeps only the rows whose player name contains the text
// (case-insensitive); the player's own row stays highlighted by the page itself.
(function () {
  "use strict";
  document.querySelectorAll("input[data-filter-rows]").forEach(function (input) {
    var selector = input.dataset.filterRows;
    input.addEventListener("input", function () {
      var needle = input.value.trim().toLocaleLowerCase();
      document.querySelectorAll(selector).forEach(function (row) {
        row.hidden = needle !== "" && row.dataset.player.toLocaleLowerCase().indexOf(needle) === -1;
      });
    });
  });
})();
