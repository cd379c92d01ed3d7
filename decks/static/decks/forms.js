// New deck / import deck: the format select offers only the chosen game's formats ("game/format" values).
(function () {
  "use strict";
  document.querySelectorAll("form").forEach(function (form) {
    const game = form.querySelector("[data-game-select]");
    const format = form.querySelector("[data-format-select]");
    if (!game || !format) return;
    function filter() {
      const prefix = game.value + "/";
      Array.from(format.options).forEach(function (option) {
        const mine = option.value === "" || option.value.startsWith(prefix);
        option.hidden = !mine;
        option.disabled = !mine;
      });
      if (format.selectedOptions[0] && format.selectedOptions[0].disabled) format.value = "";
    }
    game.addEventListener("change", filter);
    filter();
  });
})();
