// Deck page: sample hand and group odds fetched as small server-rendered fragments (no build step).
(function () {
  "use strict";
  async function loadInto(url, target) {
    const response = await fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin" });
    target.innerHTML = response.ok ? await response.text() : "";
  }
  const draw = document.getElementById("draw-hand");
  if (draw) {
    draw.addEventListener("click", function () {
      loadInto(draw.dataset.url, document.getElementById("sample-hand"));
    });
  }
  document.querySelectorAll("form.odds-form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const params = new URLSearchParams(new FormData(form));
      loadInto(form.action + "?" + params.toString(), document.getElementById(form.dataset.target));
    });
  });
  document.querySelectorAll("button[data-confirm]").forEach(function (button) {
    button.addEventListener("click", function (event) {
      if (!window.confirm(button.dataset.confirm)) event.preventDefault();
    });
  });
})();
