// Deck builder: plain JS, no build step. Search on the left, the deck on the right; every change is
// validated live by the rules engine (POST /api/decks/validate/) and saved as a new version on demand.
// All card data is inserted with textContent (never innerHTML): card names are data.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("builder-config").textContent);
  const _ = window.gettext || function (s) { return s; };
  const fmtText = window.interpolate || function (s) { return s; };
  const pgettext = window.pgettext || function (context, s) { return s; };
  const deck = config.deck;
  const state = {
    format: deck.format_slug,
    banlist: deck.banlist ? String(deck.banlist.id) : "",
    hero: deck.hero,
    coHeroes: deck.co_heroes || [],  // partner commanders beside the hero (the rule set's hero.pairs)
    sections: {},           // slug -> [{id, external_id, identity, printing, name, card_type, level, cost, count, preview}]
    statuses: {},           // card id -> forbidden | limited | semi-limited
    report: null,
    results: [],
    highlighted: -1,
    dirty: false,
    baseVersion: deck.current_version,  // sent with each save: the server refuses (409) a stale one
  };
  Object.entries(deck.sections || {}).forEach(function ([slug, lines]) {
    // The server adds what the API's deck lines lack: identity, printing label and preview per card.
    state.sections[slug] = lines.map(function (l) { return Object.assign({}, l, (config.cards || {})[String(l.card)] || {}, { id: l.card }); });
  });

  const $ = function (id) { return document.getElementById(id); };
  const el = function (tag, attrs, text) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(function ([k, v]) {
      if (k === "dataset") Object.assign(node.dataset, v); else node.setAttribute(k, v);
    });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  };
  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }
  function currentFormat() {
    return config.formats.find(function (f) { return f.slug === state.format; }) || config.formats[0];
  }
  // Caster Chronicles casters are one card per level. The server and the rules engine name one
  // "Name LvN": a card reference (rule reports' `card`, matched to rows in violationsFor), not words;
  // people read the level in their language.
  function isLeveledCaster(card) {
    return card.card_type === "caster" && card.level !== null && card.level !== undefined;
  }
  function cardKey(card) {
    return isLeveledCaster(card) && !/ Lv\d+$/.test(card.name) ? card.name + " Lv" + card.level : card.name;
  }
  function displayName(card) {
    if (!isLeveledCaster(card)) return card.name;
    return fmtText(pgettext("a caster card's name and its level", "%s Lv%s"), [card.name.replace(/ Lv\d+$/, ""), card.level]);
  }
  function sectionSlugs() { return currentFormat().sections.map(function (s) { return s.slug; }); }

  // --- selectors at the top -------------------------------------------------------------------------
  function fillFormats() {
    const select = $("format-select");
    select.textContent = "";
    config.formats.forEach(function (f) {
      const option = el("option", { value: f.slug }, f.name);
      if (f.slug === state.format) option.selected = true;
      select.appendChild(option);
    });
    const banlists = $("banlist-select");
    config.banlists.forEach(function (b) {
      const label = fmtText(b.whitelist ? pgettext("a whitelist in the ban list choice", "%s (%s) · whitelist") : "%s (%s)",
        [b.name, b.effective_date]);
      const option = el("option", { value: String(b.id) }, label);
      if (String(b.id) === state.banlist) option.selected = true;
      banlists.appendChild(option);
    });
    if (deck.banlist && !config.banlists.some(function (b) { return String(b.id) === state.banlist; })) {
      banlists.appendChild(el("option", { value: state.banlist, selected: "selected" }, deck.banlist.name));
    }
  }
  function fillTargetSections() {
    const select = $("target-section");
    const previous = select.value;
    select.textContent = "";
    currentFormat().sections.forEach(function (s) { select.appendChild(el("option", { value: s.slug }, s.name)); });
    if (sectionSlugs().includes(previous)) select.value = previous;
  }

  // --- hero ------------------------------------------------------------------------------------------
  async function setupHero() {
    const panel = $("hero-panel");
    panel.hidden = !currentFormat().has_hero;
    if (panel.hidden) return;
    const select = $("hero-select");
    if (!select.dataset.loaded) {
      const params = new URLSearchParams({ game: deck.game, type: "hero", page_size: "200" });
      const response = await fetch(config.urls.search + "?" + params.toString(), { credentials: "same-origin" });
      const data = response.ok ? await response.json() : { results: [] };
      (data.results || data).forEach(function (card) {
        const option = el("option", { value: String(card.id) }, card.name);
        option.dataset.card = JSON.stringify(card);
        select.appendChild(option);
      });
      select.dataset.loaded = "1";
    }
    if (state.hero) {
      if (!select.querySelector('option[value="' + state.hero.id + '"]')) {
        const option = el("option", { value: String(state.hero.id) }, state.hero.name);
        option.dataset.card = JSON.stringify(state.hero);
        select.appendChild(option);
      }
      select.value = String(state.hero.id);
    }
    showHeroRestrictions();
    loadPartners();
  }
  // A partner commander: offered only when the format lets two heroes share the slot and only the cards the
  // rules accept beside this hero (GET /api/decks/partners/ asks the rule set's pairs of the game's cards).
  let partnerSeq = 0;
  async function loadPartners() {
    const box = $("partner-box");
    const select = $("partner-select");
    const seq = ++partnerSeq;
    let partners = [];
    if (state.hero && currentFormat().has_hero) {
      const params = new URLSearchParams({ game: deck.game, format_slug: state.format, hero: String(state.hero.id) });
      try {
        const response = await fetch(config.urls.partners + "?" + params.toString(), { credentials: "same-origin" });
        if (response.ok) partners = (await response.json()).partners || [];
      } catch (error) { partners = []; }
    }
    if (seq !== partnerSeq) return;
    while (select.options.length > 1) select.remove(1);
    partners.forEach(function (card) {
      const option = el("option", { value: String(card.id) }, card.name);
      option.dataset.card = JSON.stringify(card);
      select.appendChild(option);
    });
    // A partner saved before (or imported) that the rules do not offer stays shown: validation says why.
    state.coHeroes.forEach(function (card) {
      if (!select.querySelector('option[value="' + card.id + '"]')) {
        const option = el("option", { value: String(card.id) }, card.name);
        option.dataset.card = JSON.stringify(card);
        select.appendChild(option);
      }
    });
    select.value = state.coHeroes.length ? String(state.coHeroes[0].id) : "";
    box.hidden = !state.hero || select.options.length < 2;
  }
  function setPartner(card) {
    state.coHeroes = card ? [card] : [];
    changed();
  }
  function showHeroRestrictions() {
    const box = $("hero-restrictions");
    box.textContent = "";
    if (!state.hero) return;
    const restrictions = (state.hero.attributes || {}).restrictions;
    box.appendChild(el("p", {}, fmtText(_("Hero: %s"), [state.hero.name])));
    if (Array.isArray(restrictions) && restrictions.length) {
      const list = el("ul", { "data-testid": "hero-restriction-list" });
      // The server words them in the page's language; a hero found by search may be missing: describe it here.
      const described = (config.hero_restrictions || {})[String(state.hero.id)];
      (described || restrictions.map(describeRestriction)).forEach(function (text) { list.appendChild(el("li", {}, text)); });
      box.appendChild(list);
    } else {
      box.appendChild(el("p", { class: "muted" }, _("No deck-building restrictions entered for this hero.")));
    }
  }
  function describeRestriction(r) {
    if (typeof r === "string") return r;
    // Card data may carry the restriction's text per language (text_ru …); English (text) otherwise.
    const own = r["text_" + String(config.lang || "").split("-")[0]];
    if (own) return own;
    if (r.text) return r.text;
    if (r.description) return r.description;
    return Object.entries(r).map(function ([k, v]) { return k + ": " + JSON.stringify(v); }).join(", ");
  }
  function setHero(card) {
    const before = state.hero ? state.hero.id : null;
    state.hero = card;
    const select = $("hero-select");
    if (card && !select.querySelector('option[value="' + card.id + '"]')) {
      const option = el("option", { value: String(card.id) }, card.name);
      option.dataset.card = JSON.stringify(card);
      select.appendChild(option);
    }
    select.value = card ? String(card.id) : "";
    // A new hero keeps no partner chosen for the old one; the picker then offers the new hero's partners.
    if ((card ? card.id : null) !== before) state.coHeroes = [];
    showHeroRestrictions();
    loadPartners();
    changed();
  }

  // --- search ----------------------------------------------------------------------------------------
  let searchTimer = null;
  let searchSeq = 0;
  async function search() {
    const q = $("search-q").value.trim();
    const typeSelect = $("search-type");
    const type = typeSelect ? typeSelect.value : "";
    // One row per card identity (alternate artworks are printings inside the row).
    const params = new URLSearchParams({ game: deck.game, page_size: "40", deck_buildable: "true" });
    if (q) params.set("q", q);
    if (type) params.set("type", type);
    // The game's own filters: each input names the card-search parameter it sends (type, level_min,
    // attr.size, attr.atk.max, ...), so this code knows nothing about any particular game.
    filterInputs().forEach(function (input) {
      const value = input.value.trim();
      if (value) params.set(input.dataset.param, value);
    });
    const stamp = params.toString();
    const seq = ++searchSeq;
    const response = await fetch(config.urls.grouped + "?" + params.toString(), { credentials: "same-origin" });
    if (seq !== searchSeq) return;  // a newer search answered first
    const data = response.ok ? await response.json() : { results: [] };
    state.results = (data.results || data).filter(function (c) { return c.deck_buildable !== false && !c.is_token; });
    state.results.forEach(function (group) {
      const printings = group.printings || [];
      const canonical = printings.find(function (p) { return p.canonical; });
      group.printing = printings.length > 1 && canonical ? printingLabel(canonical) : "";
    });
    state.highlighted = state.results.length ? 0 : -1;
    renderResults();
    $("search-results").dataset.query = q;
    $("search-results").dataset.params = stamp;
  }
  function filterInputs() {
    return Array.from(document.querySelectorAll("#search-filters [data-param]"));
  }
  // What a printing is called: its set code(s) where the database has them, else its id (YGO passcode).
  function printingLabel(printing) {
    return printing.sets && printing.sets.length ? printing.sets.join(", ") + " · #" + printing.external_id : "#" + printing.external_id;
  }
  // A printing as a card of its own (deck rows keep the exact printing the player chose).
  function printingCard(group, printing) {
    return Object.assign({}, group, { id: printing.id, external_id: printing.external_id, printing: printingLabel(printing) });
  }
  function renderResults() {
    const list = $("search-results");
    list.textContent = "";
    const fmt = currentFormat();
    state.results.forEach(function (group, index) {
      const item = el("li", { role: "option", class: "result" + (index === state.highlighted ? " highlighted" : ""),
        "aria-selected": index === state.highlighted ? "true" : "false", dataset: { cardId: String(group.id), identity: group.identity } });
      const label = el("span", { class: "result-name" }, displayName(group));
      const meta = [group.preview ? group.preview.type_line : group.card_type, group.level !== null && group.level !== undefined ? fmtText(pgettext("level in a search result", "Lv%s"), [group.level]) : "",
        group.cost !== null && group.cost !== undefined ? "¤" + group.cost : ""].filter(Boolean).join(" · ");
      item.appendChild(label);
      item.appendChild(el("span", { class: "muted small" }, meta));
      // The printing the add buttons use: none chosen adds to the card's row whatever its printing.
      let chosen = null;
      const buttons = el("span", { class: "result-actions" });
      fmt.sections.forEach(function (s) {
        const button = el("button", { type: "button", class: "small add", dataset: { section: s.slug },
          title: fmtText(_("Add to %s"), [s.name]) }, "+ " + s.name);
        button.addEventListener("click", function () {
          if (chosen) addCard(printingCard(group, chosen), s.slug, 1, true);
          else addCard(group, s.slug, 1, false);
        });
        buttons.appendChild(button);
      });
      if (fmt.has_hero && group.card_type === "hero") {
        const heroButton = el("button", { type: "button", class: "small secondary set-hero" }, _("Set as hero"));
        heroButton.addEventListener("click", function () { setHero(group); });
        buttons.appendChild(heroButton);
      }
      const printings = group.printings || [];
      if (printings.length > 1) {
        const toggle = el("button", { type: "button", class: "small secondary printings-toggle", "aria-expanded": "false",
          "data-testid": "printings-toggle" }, fmtText(_("Printings (%s)"), [printings.length]));
        const choices = el("ul", { class: "printing-list", "data-testid": "printing-list" });
        choices.hidden = true;
        printings.forEach(function (printing) {
          const li = el("li", {});
          const pick = el("button", { type: "button", class: "small secondary pick-printing", "aria-pressed": "false",
            "data-testid": "pick-printing", dataset: { cardId: String(printing.id) },
            title: _("Add this printing as its own row") }, printingLabel(printing));
          pick.addEventListener("click", function () {
            chosen = chosen && chosen.id === printing.id ? null : printing;
            choices.querySelectorAll("button").forEach(function (b) {
              b.setAttribute("aria-pressed", chosen && b.dataset.cardId === String(chosen.id) ? "true" : "false");
            });
          });
          li.appendChild(pick);
          choices.appendChild(li);
        });
        toggle.addEventListener("click", function () {
          choices.hidden = !choices.hidden;
          toggle.setAttribute("aria-expanded", choices.hidden ? "false" : "true");
        });
        buttons.appendChild(toggle);
        item.appendChild(buttons);
        item.appendChild(choices);
      } else {
        item.appendChild(buttons);
      }
      item.addEventListener("mouseenter", function () { state.highlighted = index; markHighlight(false); });
      list.appendChild(item);
    });
    if (!state.results.length) list.appendChild(el("li", { class: "muted" }, _("No cards found.")));
    else showPreview(state.results[Math.max(state.highlighted, 0)]);
  }
  function showPreview(card) {
    if (card && card.preview && window.DeckhallPreview) window.DeckhallPreview.show($("card-preview"), card.preview);
  }
  function markHighlight(scroll) {
    document.querySelectorAll("#search-results li.result").forEach(function (li, i) {
      li.classList.toggle("highlighted", i === state.highlighted);
      li.setAttribute("aria-selected", i === state.highlighted ? "true" : "false");
      if (i === state.highlighted && scroll !== false) li.scrollIntoView({ block: "nearest" });
    });
    showPreview(state.results[state.highlighted]);
  }

  // --- deck edits ------------------------------------------------------------------------------------
  function findLine(slug, id) {
    return (state.sections[slug] || []).find(function (l) { return l.id === id; });
  }
  // Adding a card increments the section's row of the same card identity, whatever its printing; only a
  // printing the player deliberately picked (or a row being moved) keeps a row of its own.
  function addCard(card, slug, n, exactPrinting) {
    const lines = state.sections[slug] || (state.sections[slug] = []);
    let line = findLine(slug, card.id);
    if (!line && !exactPrinting && card.identity) {
      line = lines.find(function (l) { return l.identity === card.identity; });
    }
    if (line) line.count += n;
    else lines.push({ id: card.id, external_id: card.external_id, identity: card.identity, printing: card.printing,
      name: cardKey(card), card_type: card.card_type, level: card.level, cost: card.cost, count: n, preview: card.preview });
    changed(slug, line ? line.id : card.id);
  }
  function changeCount(slug, id, delta) {
    const lines = state.sections[slug] || [];
    const line = findLine(slug, id);
    if (!line) return;
    line.count += delta;
    if (line.count <= 0) lines.splice(lines.indexOf(line), 1);
    changed(slug, line.count > 0 ? id : null);
  }
  function removeCard(slug, id) {
    const lines = state.sections[slug] || [];
    const line = findLine(slug, id);
    if (line) lines.splice(lines.indexOf(line), 1);
    changed(slug, null);
  }
  function moveCard(from, id, to, all) {
    const line = findLine(from, id);
    if (!line || from === to) return;
    const n = all ? line.count : 1;
    changeCount(from, id, -n);
    addCard(line, to, n, true);
  }
  function nextSection(slug) {
    const slugs = sectionSlugs();
    return slugs[(slugs.indexOf(slug) + 1) % slugs.length];
  }

  let validateTimer = null;
  function changed(focusSlug, focusId) {
    state.dirty = true;
    $("save-status").textContent = _("Unsaved changes");
    renderDeck(focusSlug, focusId);
    clearTimeout(validateTimer);
    validateTimer = setTimeout(validate, 200);
    loadStatuses();
  }

  // --- rendering the deck ----------------------------------------------------------------------------
  function violationsFor(line, slug) {
    if (!state.report) return [];
    return state.report.violations.concat(state.report.warnings.map(function (w) { return Object.assign({ warning: true }, w); }))
      .filter(function (v) {
        if (!v.card) return false;
        const matches = v.card === line.name || v.card === line.external_id || v.card === String(line.id);
        return matches && (!v.section || v.section === slug || v.code === "copy_limit" || v.code.startsWith("banlist"));
      });
  }
  // Beside the search box (on a phone the deck is far below it): each section's count and the verdict.
  function renderSummary() {
    const box = $("deck-summary");
    if (!box) return;
    box.textContent = "";
    const fmt = currentFormat();
    sectionSlugs().forEach(function (slug) {
      const info = fmt.sections.find(function (s) { return s.slug === slug; }) || { name: slug };
      const total = (state.sections[slug] || []).reduce(function (sum, l) { return sum + l.count; }, 0);
      if (!total && slug !== sectionSlugs()[0]) return;
      box.appendChild(el("span", { class: "summary-count", "data-testid": "summary-count-" + slug }, info.name + " " + total));
    });
    const report = state.report;
    if (report) {
      box.appendChild(el("strong", { class: report.legal ? "legal" : "illegal", "data-testid": "summary-legal" },
        report.legal === null ? _("Validation is unavailable") : report.legal ? _("Legal") : _("Not legal")));
    }
  }
  function renderDeck(focusSlug, focusId) {
    renderSummary();
    const root = $("deck-sections");
    // Re-rendering replaces the rows: keep keyboard focus on the same card (validation answers arrive
    // while the user is pressing + and −).
    const active = document.activeElement;
    if ((focusSlug === undefined || focusSlug === null) && active && active.classList.contains("deck-row")) {
      focusSlug = active.dataset.section;
      focusId = Number(active.dataset.cardId);
    }
    const hadFocus = active && (active.classList.contains("deck-row") || active === document.body);
    root.textContent = "";
    const fmt = currentFormat();
    const known = sectionSlugs();
    const slugs = known.concat(Object.keys(state.sections).filter(function (s) { return !known.includes(s) && state.sections[s].length; }));
    slugs.forEach(function (slug) {
      const info = fmt.sections.find(function (s) { return s.slug === slug; }) || { slug: slug, name: slug + " (?)" };
      const lines = state.sections[slug] || [];
      const total = lines.reduce(function (sum, l) { return sum + l.count; }, 0);
      const box = el("section", { class: "deck-section", dataset: { section: slug } });
      const head = el("h3", {});
      head.appendChild(document.createTextNode(info.name + " "));
      head.appendChild(el("span", { class: "badge section-count", "data-testid": "count-" + slug }, total));
      box.appendChild(head);
      const sectionProblems = (state.report ? state.report.violations : []).filter(function (v) { return v.section === slug && !v.card; });
      sectionProblems.forEach(function (v) { box.appendChild(el("p", { class: "violation" }, v.message)); });
      const list = el("ul", { class: "deck-rows" });
      lines.forEach(function (line) {
        const row = el("li", { class: "deck-row", tabindex: "0", dataset: { cardId: String(line.id), section: slug },
          "aria-label": line.count + " × " + displayName(line) });
        row.appendChild(el("span", { class: "count" }, line.count));
        row.appendChild(el("span", { class: "name" }, displayName(line)));
        // The chosen printing, when the card has several (YGO alternate artworks).
        if (line.printing) row.appendChild(el("span", { class: "printing", "data-testid": "row-printing" }, line.printing));
        row.addEventListener("mouseenter", function () { showPreview(line); });
        row.addEventListener("focus", function () { showPreview(line); });
        const status = state.statuses[line.id];
        if (status) row.appendChild(el("span", { class: "badge " + status, "data-testid": "banlist-badge" },
          { forbidden: _("Forbidden"), limited: _("Limited"), "semi-limited": _("Semi-limited") }[status]));
        const actions = el("span", { class: "row-actions" });
        const inc = el("button", { type: "button", class: "small inc", "aria-label": _("Add a copy") }, "+");
        inc.addEventListener("click", function () { changeCount(slug, line.id, 1); });
        const dec = el("button", { type: "button", class: "small secondary dec", "aria-label": _("Remove a copy") }, "−");
        dec.addEventListener("click", function () { changeCount(slug, line.id, -1); });
        actions.appendChild(inc);
        actions.appendChild(dec);
        if (known.length > 1) {
          const move = el("select", { class: "move", "aria-label": _("Move to section") });
          move.appendChild(el("option", { value: "" }, _("move…")));
          known.filter(function (s) { return s !== slug; }).forEach(function (s) {
            const target = fmt.sections.find(function (x) { return x.slug === s; });
            move.appendChild(el("option", { value: s }, "→ " + target.name));
          });
          move.addEventListener("change", function () { if (move.value) moveCard(slug, line.id, move.value, true); });
          actions.appendChild(move);
        }
        row.appendChild(actions);
        const problems = violationsFor(line, slug);
        if (problems.length) {
          row.classList.add("has-violation");
          const notes = el("ul", { class: "row-violations" });
          problems.forEach(function (v) { notes.appendChild(el("li", { class: v.warning ? "warning" : "violation" }, v.message)); });
          row.appendChild(notes);
        }
        row.addEventListener("keydown", function (event) { rowKey(event, slug, line.id); });
        list.appendChild(row);
      });
      box.appendChild(list);
      root.appendChild(box);
    });
    if (focusSlug && focusId !== undefined && focusId !== null) {
      const row = root.querySelector('li.deck-row[data-section="' + focusSlug + '"][data-card-id="' + focusId + '"]');
      if (row && hadFocus) row.focus();
    }
  }
  function rowKey(event, slug, id) {
    if (event.target.tagName === "SELECT") return;
    const key = event.key;
    if (key === "+" || key === "=") { event.preventDefault(); changeCount(slug, id, 1); refocus(slug, id); }
    else if (key === "-" || key === "_") { event.preventDefault(); changeCount(slug, id, -1); refocus(slug, id); }
    else if (key === "Delete" || key === "Backspace") {
      // Keep a keyboard user in the list: focus the row that takes the removed one's place.
      event.preventDefault();
      const rows = Array.from(document.querySelectorAll("li.deck-row"));
      const at = rows.indexOf(event.currentTarget);
      const next = rows[at + 1] || rows[at - 1];
      removeCard(slug, id);
      if (next) refocus(next.dataset.section, next.dataset.cardId);
    }
    else if (key === "m" || key === "M") { event.preventDefault(); const to = nextSection(slug); moveCard(slug, id, to, false); refocus(to, id); }
  }
  function refocus(slug, id) {
    const row = document.querySelector('li.deck-row[data-section="' + slug + '"][data-card-id="' + id + '"]');
    if (row) row.focus();
  }

  // --- validation, ban-list badges, save -----------------------------------------------------------
  function payloadSections(key) {
    const out = {};
    Object.entries(state.sections).forEach(function ([slug, lines]) {
      if (lines.length) out[slug] = lines.map(function (l) { return { card: key(l), count: l.count }; });
    });
    return out;
  }
  let validateSeq = 0;
  async function validate() {
    const body = { game: deck.game, format: state.format, sections: payloadSections(function (l) { return String(l.external_id); }) };
    // The rules API takes a list by name and date: the chosen version's own date pins that version.
    const chosen = config.banlists.find(function (b) { return String(b.id) === state.banlist; }) || deck.banlist;
    if (state.banlist && chosen) { body.banlist = chosen.name; body.date = chosen.effective_date; }
    else if ($("deck-date").value) body.date = $("deck-date").value;
    if (state.hero) body.hero = String(state.hero.external_id);
    if (state.hero && state.coHeroes.length) body.co_heroes = state.coHeroes.map(function (c) { return String(c.external_id); });
    const seq = ++validateSeq;
    let report = null;
    try {
      const response = await fetch(config.urls.validate, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(body),
      });
      const data = await response.json();
      report = response.ok ? data : { legal: false, violations: [{ code: "request", message: data.detail || JSON.stringify(data) }], warnings: [] };
    } catch (error) {
      report = { legal: null, violations: [], warnings: [] };
    }
    if (report.legal !== null) report = await teamCheck(report);
    if (seq !== validateSeq) return;
    state.report = report;
    renderReport();
    renderDeck();
  }
  // A team event: the format's team rule (unified construction) checked live against the teammates' decks
  // (POST /api/tournaments/team-check/): each card both decks hold is a violation naming the two decks.
  async function loadTeamEvents() {
    const select = $("team-event-select");
    if (!select || !config.urls.team_check) return;
    try {
      const response = await fetch(config.urls.team_check, { credentials: "same-origin" });
      if (!response.ok) return;
      (await response.json()).events.filter(function (e) { return e.game === deck.game; }).forEach(function (e) {
        select.appendChild(el("option", { value: String(e.tournament) },
          fmtText(_("%s — team %s, seat %s"), [e.name, e.team, e.seat])));
      });
    } catch (error) { /* no team events to offer */ }
  }
  function teamDeckIds() {
    // Deck numbers or deck links ("/decks/12/"), the deck's number being the last one in each.
    return $("team-decks").value.split(/[\s,;]+/).map(function (token) {
      const match = token.match(/(\d+)\/?(?:edit\/?)?$/);
      return match ? Number(match[1]) : null;
    }).filter(function (id) { return id; }).slice(0, 2);
  }
  async function teamCheck(report) {
    const box = $("team-check-status");
    const list = $("team-conflicts");
    if (!box) return report;
    const tournament = $("team-event-select").value;
    const ids = teamDeckIds();
    list.textContent = "";
    if (!tournament && !ids.length) { box.textContent = ""; return report; }
    const body = { deck: deck.id, format: state.format, sections: payloadSections(function (l) { return String(l.external_id); }) };
    if (tournament) body.tournament = Number(tournament);
    if (ids.length) body.decks = ids;
    try {
      const response = await fetch(config.urls.team_check, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() }, body: JSON.stringify(body),
      });
      const data = await response.json();
      if (!response.ok) { box.textContent = data.detail || Object.values(data).flat().join(" "); return report; }
      if (!data.rule) box.textContent = _("This format has no team deck rule.");
      else if (!data.conflicts.length) box.textContent = fmtText(_("No card is shared between %s."), [data.decks.join(" · ")]);
      else box.textContent = fmtText(_("Cards in more than one teammate's deck: %s"), [data.conflicts.length]);
      data.conflicts.forEach(function (c) { list.appendChild(el("li", { class: "violation" }, c.message)); });
      if (!data.conflicts.length) return report;
      const team = data.conflicts.map(function (c) { return { code: "team", card: c.card, section: null, message: c.message }; });
      return Object.assign({}, report, { legal: false, violations: report.violations.concat(team) });
    } catch (error) {
      box.textContent = _("The team check is unavailable");
      return report;
    }
  }
  function renderReport() {
    const status = $("legal-status");
    const report = state.report;
    status.className = report.legal ? "legal" : "illegal";
    status.textContent = report.legal === null ? _("Validation is unavailable") : report.legal ? _("Legal") : _("Not legal");
    const list = $("general-violations");
    list.textContent = "";
    report.violations.filter(function (v) { return !v.card && !v.section; }).forEach(function (v) {
      list.appendChild(el("li", { class: "violation" }, v.message));
    });
    report.violations.filter(function (v) { return v.card && !findAnyLine(v.card); }).forEach(function (v) {
      list.appendChild(el("li", { class: "violation" }, v.message));
    });
    report.warnings.filter(function (v) { return !v.card; }).forEach(function (v) {
      list.appendChild(el("li", { class: "warning" }, v.message));
    });
  }
  function findAnyLine(ref) {
    return Object.values(state.sections).some(function (lines) {
      return lines.some(function (l) { return l.name === ref || l.external_id === ref || String(l.id) === ref; });
    });
  }
  let statusTimer = null;
  function loadStatuses() {
    clearTimeout(statusTimer);
    statusTimer = setTimeout(async function () {
      const ids = new Set();
      Object.values(state.sections).forEach(function (lines) { lines.forEach(function (l) { ids.add(l.id); }); });
      if (!ids.size) { state.statuses = {}; renderDeck(); return; }
      // No list chosen: the server answers for the format's list in effect on the date (what validation uses).
      const params = new URLSearchParams({ game: deck.game, format_slug: state.format, banlist: state.banlist, cards: Array.from(ids).join(",") });
      if ($("deck-date").value) params.set("date", $("deck-date").value);
      const response = await fetch(config.urls.banlist_status + "?" + params.toString(), { credentials: "same-origin" });
      state.statuses = response.ok ? (await response.json()).statuses : {};
      renderDeck();
    }, 250);
  }
  async function save() {
    const body = {
      name: $("deck-name").value, format_slug: state.format, banlist: state.banlist ? Number(state.banlist) : null,
      on_date: $("deck-date").value || null, visibility: $("visibility-select").value,
      hero: state.hero ? state.hero.id : null,
      co_heroes: state.hero ? state.coHeroes.map(function (c) { return c.id; }) : [],
      sections: payloadSections(function (l) { return l.id; }),
      base_version: state.baseVersion,
    };
    // Cards in sections the format lacks would be refused by the server: say so before sending.
    const stray = Object.keys(body.sections).filter(function (s) { return !sectionSlugs().includes(s); });
    if (stray.length) { $("save-status").textContent = fmtText(_("Move or remove the cards in: %s"), [stray.join(", ")]); return; }
    $("save-status").textContent = _("Saving…");
    const response = await fetch(config.urls.save, {
      method: "PUT", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() }, body: JSON.stringify(body),
    });
    const data = await response.json();
    if (response.ok) {
      state.dirty = false;
      state.baseVersion = data.current_version;
      $("save-status").textContent = fmtText(_("Saved as version %s"), [data.current_version]);
    } else if (response.status === 409) {
      offerConflictChoices(body, data);
    } else {
      $("save-status").textContent = _("Not saved: ") + JSON.stringify(data.detail || data);
    }
  }

  // Someone saved this deck elsewhere since this page loaded: nothing is overwritten; the player either
  // reloads the saved deck (dropping these changes) or keeps them as a new deck.
  function offerConflictChoices(body, conflict) {
    const old = $("save-conflict");
    if (old) old.remove();
    const box = el("div", { id: "save-conflict", class: "message warning", role: "alert", "data-testid": "save-conflict" },
      fmtText(_("This deck was saved elsewhere (now version %s) since you opened it. Your changes are not saved."), [conflict.current_version]));
    const reload = el("button", { type: "button", "data-testid": "conflict-reload" }, _("Reload the saved deck"));
    const copy = el("button", { type: "button", class: "secondary", "data-testid": "conflict-copy" }, _("Save my changes as a new deck"));
    reload.addEventListener("click", function () { state.dirty = false; window.location.reload(); });
    copy.addEventListener("click", async function () {
      const copyBody = Object.assign({}, body, { game: deck.game, name: fmtText(_("%s (copy)"), [body.name]) });
      delete copyBody.base_version;
      const response = await fetch(config.urls.save.replace(/\d+\/$/, ""), {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() }, body: JSON.stringify(copyBody),
      });
      const created = await response.json();
      if (!response.ok) { $("save-status").textContent = _("Not saved: ") + JSON.stringify(created.detail || created); return; }
      state.dirty = false;
      window.location.assign(window.location.pathname.replace(/\d+\/edit\/?$/, created.id + "/edit/"));
    });
    box.append(" ", reload, " ", copy);
    $("save-status").textContent = "";
    $("save-status").after(box);
  }

  // --- wiring ----------------------------------------------------------------------------------------
  $("search-q").addEventListener("input", function () { clearTimeout(searchTimer); searchTimer = setTimeout(search, 150); });
  if ($("search-type")) $("search-type").addEventListener("change", search);
  filterInputs().forEach(function (input) {
    if (input.tagName === "SELECT") input.addEventListener("change", search);
    else input.addEventListener("input", function () { clearTimeout(searchTimer); searchTimer = setTimeout(search, 250); });
  });
  if ($("search-filters-clear")) $("search-filters-clear").addEventListener("click", function () {
    filterInputs().forEach(function (input) { input.value = ""; });
    search();
  });
  $("search-q").addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown") { event.preventDefault(); state.highlighted = Math.min(state.highlighted + 1, state.results.length - 1); markHighlight(); }
    else if (event.key === "ArrowUp") { event.preventDefault(); state.highlighted = Math.max(state.highlighted - 1, 0); markHighlight(); }
    else if (event.key === "Enter") {
      event.preventDefault();
      const card = state.results[state.highlighted];
      if (!card) return;
      if (event.shiftKey && currentFormat().has_hero) setHero(card);
      else addCard(card, $("target-section").value, 1, false);
    }
  });
  $("format-select").addEventListener("change", function () {
    state.format = this.value; fillTargetSections(); setupHero(); renderResults(); changed();
  });
  $("banlist-select").addEventListener("change", function () { state.banlist = this.value; changed(); });
  $("deck-date").addEventListener("change", function () { changed(); });
  $("hero-select").addEventListener("change", function () {
    const option = this.selectedOptions[0];
    setHero(option && option.dataset.card ? JSON.parse(option.dataset.card) : null);
  });
  $("partner-select").addEventListener("change", function () {
    const option = this.selectedOptions[0];
    setPartner(option && option.dataset.card ? JSON.parse(option.dataset.card) : null);
  });
  if ($("team-event-select")) {
    $("team-event-select").addEventListener("change", validate);
    $("team-decks").addEventListener("change", validate);
  }
  $("save-button").addEventListener("click", save);
  document.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "s") { event.preventDefault(); save(); }
  });
  window.addEventListener("beforeunload", function (event) { if (state.dirty) { event.preventDefault(); event.returnValue = ""; } });

  fillFormats();
  fillTargetSections();
  setupHero();
  renderDeck();
  validate();
  loadTeamEvents();
  loadStatuses();
  search();
  $("save-status").textContent = "";
})();
