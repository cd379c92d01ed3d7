// Card previews, shared by the deck builder, the deck page and the card browser. A preview is plain data
// laid out by the game's rule set (cards/labels.py): {name, type_line, stats: [{label, value}], text}.
// Pages rendered by the server carry each card's preview in the row itself ([data-preview]): hovering or
// focusing the row shows it in the page's #card-preview panel; on a phone, tapping the row opens it in place.
(function () {
  "use strict";
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  // Builds the preview from data with textContent only: card texts are data, never markup.
  function build(preview) {
    const box = el("div", "card-preview");
    box.setAttribute("data-testid", "card-preview");
    box.appendChild(el("strong", "preview-name", preview.name));
    if (preview.type_line) box.appendChild(el("p", "preview-type", preview.type_line));
    if (preview.stats && preview.stats.length) {
      const list = el("dl", "preview-stats");
      preview.stats.forEach(function (stat) {
        list.appendChild(el("dt", "", stat.label));
        list.appendChild(el("dd", "", stat.value));
      });
      box.appendChild(list);
    }
    if (preview.text) box.appendChild(el("p", "preview-text", preview.text));
    return box;
  }
  function show(panel, preview) {
    if (!panel) return;
    panel.textContent = "";
    panel.appendChild(build(preview));
    panel.hidden = false;
  }
  window.DeckhallPreview = { build: build, show: show };

  // Server-rendered rows: the row holds its preview (a hidden .card-preview) — copy it into the panel.
  const panel = document.getElementById("card-preview");
  if (!panel) return;
  function showRow(row) {
    const source = row.querySelector(".card-preview");
    if (!source) return;
    panel.textContent = "";
    panel.appendChild(source.cloneNode(true));
    panel.hidden = false;
  }
  document.querySelectorAll("[data-preview]").forEach(function (row) {
    row.addEventListener("mouseenter", function () { showRow(row); });
    row.addEventListener("focusin", function () { showRow(row); });
  });
})();
