// Sideboarding by clicking: − / + buttons next to each card change its count within 0..the copies held.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.step");
    if (!button) { return; }
    var input = button.parentElement.querySelector("input[type=number]");
    if (!input) { return; }
    var value = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10);
    var max = parseInt(input.max, 10);
    input.value = Math.max(0, isNaN(max) ? value : Math.min(max, value));
    input.dispatchEvent(new Event("change", {bubbles: true}));
    input.closest("li").classList.toggle("picked", input.value !== "0");
  });
})();
