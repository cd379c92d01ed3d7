// Card browser: choosing another game reloads the page with that game's own filters. The previous game's
// filter values are dropped (an attr.size of one game means nothing in another); name and order stay.
(function () {
  "use strict";
  var form = document.getElementById("card-search-form");
  if (!form) { return; }
  var game = form.querySelector("select[name=game]");
  game.addEventListener("change", function () {
    form.querySelectorAll("[data-game-filter]").forEach(function (input) { input.disabled = true; });
    form.submit();
  });
})();
