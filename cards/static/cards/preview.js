// Card previews, shared by the deck builder, the deck page and the card browser. A preview is plain data
// laid out by the game's rule set (cards/labels.py): {name, type_line, stats: [{label, value}], text, image}.
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
    if (preview.image) {
      // The picture sits beside the text in a fixed-aspect box; if it cannot load (offline), the box keeps
      // its background and the layout stays: no error handler needed (alt="" draws no broken image).
      box.classList.add("with-image");
      const art = el("div", "preview-art");
      const img = el("img");
      img.src = preview.image;
      img.alt = "";
      img.loading = "lazy";
      img.decoding = "async";
      img.referrerPolicy = "no-referrer";
      img.width = 240;
      img.height = 350;
      img.setAttribute("data-testid", "card-image");
      art.appendChild(img);
      box.appendChild(art);
    }
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
