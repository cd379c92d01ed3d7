// Deck page: group odds fetched as small server-rendered fragments (no build step).
(function () {
  "use strict";
  async function loadInto(url, target) {
    const response = await fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin" });
    target.innerHTML = response.ok ? await response.text() : "";
  }
  document.querySelectorAll("form.odds-form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const params = new URLSearchParams(new FormData(form));
      loadInto(form.action + "?" + params.toString(), document.getElementById(form.dataset.target));
    });
  });
  // The ydke:// link: select it and copy it to the clipboard (select-all stays as the fallback).
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.addEventListener("click", async function () {
      const input = document.getElementById(button.dataset.copy);
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
      } catch (error) {
        document.execCommand("copy");
      }
      button.textContent = button.dataset.copied;
    });
  });
  document.querySelectorAll("button[data-confirm]").forEach(function (button) {
    button.addEventListener("click", function (event) {
      if (!window.confirm(button.dataset.confirm)) event.preventDefault();
    });
  });
})();
