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
    fit: {},                // card id -> {sections, hero, status}: where a search result may go
    searchInfo: {},         // the search API's explain / suggestions, when it sends them
    view: "list",           // list | grid (the deck's cards as pictures or text cards)
    groupBy: "",            // "" | type | cost | tag
    sortBy: "",             // "" (as added) | name | cost | type
    tagFilter: "",
  };
  const MAYBE = "maybe";  // the maybeboard: kept and saved with the deck, never validated (decks/maybe.py)
  let addedSeq = 0;
  try {
    const saved = JSON.parse(window.localStorage.getItem("deckhall.builder.view") || "{}");
    ["view", "groupBy", "sortBy"].forEach(function (k) { if (typeof saved[k] === "string") state[k] = saved[k]; });
  } catch (error) { /* a private window without storage: defaults */ }
  Object.entries(deck.sections || {}).forEach(function ([slug, lines]) {
    // The server adds what the API's deck lines lack: identity, printing label and preview per card.
    state.sections[slug] = lines.map(function (l) { return Object.assign({ tags: l.tags || [], added: ++addedSeq }, l, (config.cards || {})[String(l.card)] || {}, { id: l.card }); });
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
    // What the format calls the slot: Magic's Commander is no "Hero".
    $("hero-title").textContent = currentFormat().hero_label || _("Hero");
    $("hero-select").setAttribute("aria-label", currentFormat().hero_label || _("Hero"));
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
    box.appendChild(el("p", {}, fmtText(pgettext("a hero slot's name and the card in it", "%s: %s"), [currentFormat().hero_label || _("Hero"), state.hero.name])));
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
  // As-you-type with at most one request in flight: a keystroke while a search is out only marks it
  // stale; when the answer arrives, one more search runs with whatever the box holds then.
  let searchTimer = null;
  let searchInFlight = false;
  let searchAgain = false;
  function searchSoon(delay) {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(search, delay);
  }
  function searchParams() {
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
    return { q: q, params: params };
  }
  async function search() {
    if (searchInFlight) { searchAgain = true; return; }
    searchInFlight = true;
    searchAgain = false;
    const asked = searchParams();
    let data = { results: [] };
    try {
      const response = await fetch(config.urls.grouped + "?" + asked.params.toString(), { credentials: "same-origin" });
      data = response.ok ? await response.json() : { results: [] };
      const results = (data.results || data).filter(function (c) { return c.deck_buildable !== false && !c.is_token; });
      // Where each card may go and its ban-list status, asked before the results show, so the buttons
      // never appear and then move.
      await loadFit(results);
      state.results = results;
    } catch (error) {
      state.results = [];
    } finally {
      searchInFlight = false;
    }
    if (searchAgain || searchParams().params.toString() !== asked.params.toString()) { searchAgain = false; search(); return; }
    state.results.forEach(function (group) {
      const printings = group.printings || [];
      const canonical = printings.find(function (p) { return p.canonical; });
      group.printing = printings.length > 1 && canonical ? printingLabel(canonical) : "";
    });
    state.highlighted = state.results.length ? 0 : -1;
    state.searchInfo = { explain: data.explain, suggestions: data.suggestions };
    renderResults();
    $("search-results").dataset.query = asked.q;
    $("search-results").dataset.params = asked.params.toString();
  }
  async function loadFit(cards) {
    const ids = cards.map(function (c) { return c.id; }).filter(function (id) { return !state.fit[id]; });
    if (!ids.length || !config.urls.card_fit) return;
    const params = new URLSearchParams({ game: deck.game, format_slug: state.format, banlist: state.banlist, cards: ids.slice(0, 200).join(",") });
    if ($("deck-date").value) params.set("date", $("deck-date").value);
    try {
      const response = await fetch(config.urls.card_fit + "?" + params.toString(), { credentials: "same-origin" });
      if (!response.ok) return;
      Object.entries((await response.json()).cards).forEach(function ([id, fit]) { state.fit[Number(id)] = fit; });
    } catch (error) { /* without it every section is offered, as before */ }
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
  const STATUS_WORDS = function () { return { forbidden: _("Forbidden"), limited: _("Limited"), "semi-limited": _("Semi-limited") }; };
  // Magic's mana cost "{2}{U}{U}" as pips: a coloured circle per symbol, its letter inside (readable without colour).
  function manaPips(card) {
    const cost = ((card.attributes || {}).manacost || "").toString();
    const symbols = cost.match(/\{[^}]+\}/g);
    if (!symbols) return null;
    const box = el("span", { class: "pips", "aria-label": cost, title: cost, "data-testid": "mana-pips" });
    symbols.forEach(function (symbol) {
      const inner = symbol.slice(1, -1);
      const colours = inner.split("/").filter(function (c) { return /^[WUBRGC]$/.test(c); });
      box.appendChild(el("span", { class: "pip" + (colours.length ? " pip-" + colours.join("") : ""), "aria-hidden": "true" }, inner));
    });
    return box;
  }
  function typeWord(card) {
    return (config.type_labels || {})[card.card_type] || card.card_type || "";
  }
  function cardMeta(card) {
    const labels = config.labels || {};
    return [card.preview && card.preview.type_line ? card.preview.type_line : typeWord(card),
      card.level !== null && card.level !== undefined ? (labels.level || _("Level")) + " " + card.level : "",
      card.cost !== null && card.cost !== undefined ? (labels.cost || _("Cost")) + " " + card.cost : ""].filter(Boolean).join(" · ");
  }
  // The sections a card may go in: the fit answer's, in the format's order; all of them when unknown.
  function sectionsFor(card) {
    const fit = state.fit[card.id];
    const all = currentFormat().sections.map(function (s) { return s.slug; });
    return (fit ? all.filter(function (s) { return fit.sections.includes(s); }) : all).concat([MAYBE]);
  }
  function sectionName(slug) {
    if (slug === MAYBE) return (config.labels || {}).maybe || _("Maybeboard");
    const info = currentFormat().sections.find(function (s) { return s.slug === slug; });
    return info ? info.name : slug + " (?)";
  }
  function renderSearchInfo() {
    const box = $("search-info");
    if (!box) return;
    box.textContent = "";
    const info = state.searchInfo || {};
    const explain = Array.isArray(info.explain) ? info.explain.join(" · ") : (info.explain && typeof info.explain === "object" ? (info.explain.text || info.explain.message || "") : info.explain);
    if (explain) box.appendChild(el("p", { class: "muted small", "data-testid": "search-explain" }, explain));
    const suggestions = Array.isArray(info.suggestions) ? info.suggestions : [];
    if (suggestions.length) {
      const line = el("p", { class: "small", "data-testid": "search-suggestions" }, _("Did you mean:") + " ");
      suggestions.slice(0, 5).forEach(function (s) {
        const text = typeof s === "string" ? s : (s.query || s.name || s.text || "");
        if (!text) return;
        const button = el("button", { type: "button", class: "small secondary suggestion" }, text);
        button.addEventListener("click", function () { $("search-q").value = text; search(); });
        line.appendChild(button);
        line.appendChild(document.createTextNode(" "));
      });
      box.appendChild(line);
    }
  }
  function renderResults() {
    renderSearchInfo();
    const list = $("search-results");
    list.textContent = "";
    const fmt = currentFormat();
    state.results.forEach(function (group, index) {
      const item = el("li", { role: "option", class: "result" + (index === state.highlighted ? " highlighted" : ""),
        "aria-selected": index === state.highlighted ? "true" : "false", dataset: { cardId: String(group.id), identity: group.identity } });
      const label = el("span", { class: "result-name" }, displayName(group));
      item.appendChild(label);
      const pips = manaPips(group);
      if (pips) item.appendChild(pips);
      item.appendChild(el("span", { class: "muted small" }, cardMeta(group)));
      const fit = state.fit[group.id];
      if (fit && fit.status) item.appendChild(el("span", { class: "badge " + fit.status, "data-testid": "result-status" }, STATUS_WORDS()[fit.status]));
      if (fit && fit.sections.length === 1 && !(fit.hero && fmt.has_hero)) {
        // Only the maybeboard takes it: the format has no section for this card.
        item.appendChild(el("span", { class: "badge forbidden", "data-testid": "result-status" }, _("Not in this format")));
      }
      // The printing the add buttons use: none chosen adds to the card's row whatever its printing.
      let chosen = null;
      const buttons = el("span", { class: "result-actions" });
      sectionsFor(group).forEach(function (slug) {
        const button = el("button", { type: "button", class: "small add" + (slug === MAYBE ? " secondary" : ""), dataset: { section: slug },
          title: fmtText(_("Add to %s"), [sectionName(slug)]) }, "+ " + sectionName(slug));
        button.addEventListener("click", function () {
          if (chosen) addCard(printingCard(group, chosen), slug, 1, true);
          else addCard(group, slug, 1, false);
        });
        buttons.appendChild(button);
      });
      const heroOk = fit ? fit.hero : group.card_type === "hero";
      if (fmt.has_hero && heroOk) {
        const heroButton = el("button", { type: "button", class: "small secondary set-hero" }, fmtText(_("Set as %s"), [fmt.hero_label || _("Hero")]));
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
  // The preview panel has a fixed size (decks.css): filling it never moves anything else on the page.
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
      name: cardKey(card), card_type: card.card_type, level: card.level, cost: card.cost, count: n, preview: card.preview,
      subtypes: card.subtypes || [], attributes: { manacost: (card.attributes || {}).manacost || "" }, tags: (card.tags || []).slice(),
      added: ++addedSeq });
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
    const slugs = sectionSlugs().concat([MAYBE]);
    return slugs[(slugs.indexOf(slug) + 1) % slugs.length];
  }
  function setTags(slug, id, text) {
    const line = findLine(slug, id);
    if (!line) return;
    const seen = new Set();
    line.tags = text.split(",").map(function (t) { return t.trim().replace(/\s+/g, " ").slice(0, 40); }).filter(function (t) {
      const key = t.toLowerCase();
      if (!t || seen.has(key)) return false;
      seen.add(key);
      return true;
    }).slice(0, 10);
    fillTagFilter();
    changed(slug, id);
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
    if (!state.report || slug === MAYBE) return [];
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
    sectionSlugs().concat([MAYBE]).forEach(function (slug) {
      const total = (state.sections[slug] || []).reduce(function (sum, l) { return sum + l.count; }, 0);
      if (!total && slug !== sectionSlugs()[0]) return;
      box.appendChild(el("span", { class: "summary-count" + (slug === MAYBE ? " maybe" : ""), "data-testid": "summary-count-" + slug }, sectionName(slug) + " " + total));
    });
    const report = state.report;
    if (report) {
      box.appendChild(el("strong", { class: report.legal ? "legal" : "illegal", "data-testid": "summary-legal" },
        report.legal === null ? _("Validation is unavailable") : report.legal ? _("Legal") : _("Not legal")));
    }
    void fmt;
  }
  // How the rows are ordered and grouped inside a section (the toolbar above the deck). Changing a count
  // never changes the order: only adding a card, or the player choosing another order, does.
  function groupKeyOf(line) {
    if (state.groupBy === "type") return typeWord(line) || "—";
    if (state.groupBy === "cost") {
      if ((config.playtest || {}).curve_skip_types && config.playtest.curve_skip_types.includes(line.card_type)) return typeWord(line);
      const v = line.cost !== null && line.cost !== undefined ? line.cost : line.level;
      return v !== null && v !== undefined ? ((line.cost !== null && line.cost !== undefined ? (config.labels || {}).cost : (config.labels || {}).level) || _("Cost")) + " " + v : "—";
    }
    if (state.groupBy === "tag") return (line.tags && line.tags.length) ? line.tags[0] : _("No tag");
    return "";
  }
  function sortedLines(lines) {
    const copy = lines.slice();
    const typeOrder = Object.keys(config.type_labels || {});
    const byName = function (a, b) { return displayName(a).localeCompare(displayName(b)); };
    const costOf = function (l) { const v = l.cost !== null && l.cost !== undefined ? l.cost : l.level; return v === null || v === undefined ? 999 : v; };
    if (state.sortBy === "name") copy.sort(byName);
    else if (state.sortBy === "cost") copy.sort(function (a, b) { return costOf(a) - costOf(b) || byName(a, b); });
    else if (state.sortBy === "type") copy.sort(function (a, b) { return typeOrder.indexOf(a.card_type) - typeOrder.indexOf(b.card_type) || byName(a, b); });
    return copy;
  }
  function groupedLines(lines) {
    const visible = state.tagFilter ? lines.filter(function (l) { return (l.tags || []).includes(state.tagFilter); }) : lines;
    const sorted = sortedLines(visible);
    if (!state.groupBy) return [{ key: "", lines: sorted }];
    const groups = [];
    const index = {};
    sorted.forEach(function (line) {
      // Grouped by tag, a line goes under its first tag (its chips show the others; the tag filter finds
      // it under any of them): one row is one element, in one place.
      const key = groupKeyOf(line);
      if (!(key in index)) { index[key] = groups.length; groups.push({ key: key, lines: [] }); }
      groups[index[key]].lines.push(line);
    });
    if (state.groupBy === "cost") groups.sort(function (a, b) {
      const na = parseInt(a.key.replace(/\D+/g, ""), 10), nb = parseInt(b.key.replace(/\D+/g, ""), 10);
      return (isNaN(na) ? 999 : na) - (isNaN(nb) ? 999 : nb);
    });
    else if (state.groupBy === "tag") {
      const none = _("No tag");
      groups.sort(function (a, b) { return (a.key === none) - (b.key === none) || a.key.localeCompare(b.key); });
    }
    else if (state.groupBy === "type") {
      const order = Object.values(config.type_labels || {});
      groups.sort(function (a, b) { return order.indexOf(a.key) - order.indexOf(b.key); });
    }
    return groups;
  }
  // Rows are kept, not rebuilt: a re-render (a validation answer, a ban-list badge) updates each row in
  // place, so the button under the pointer is the same element before and after and stays where it was.
  const rowCache = new Map();
  const sectionCache = new Map();
  function sectionBox(slug) {
    let entry = sectionCache.get(slug);
    if (entry) return entry;
    const box = el("section", { class: "deck-section", dataset: { section: slug } });
    const head = el("h3", {});
    const title = el("span", {});
    const count = el("span", { class: "badge section-count", "data-testid": "count-" + slug });
    head.appendChild(title);
    head.appendChild(document.createTextNode(" "));
    head.appendChild(count);
    const note = el("p", { class: "muted small maybe-note" });
    const problems = el("div", { class: "section-problems" });
    const list = el("ul", { class: "deck-rows" });
    box.appendChild(head);
    box.appendChild(note);
    box.appendChild(problems);
    box.appendChild(list);
    entry = { box: box, title: title, count: count, note: note, problems: problems, list: list };
    sectionCache.set(slug, entry);
    return entry;
  }
  function deckRow(slug, line) {
    const key = slug + "|" + line.id;
    let entry = rowCache.get(key);
    if (entry) { entry.line = line; return entry; }
    const row = el("li", { class: "deck-row", tabindex: "0", dataset: { cardId: String(line.id), section: slug } });
    const art = el("span", { class: "tile-art", "aria-hidden": "true" });
    const count = el("span", { class: "count", "data-testid": "row-count" });
    const main = el("span", { class: "row-main" });
    const name = el("span", { class: "name" });
    const info = el("span", { class: "row-info" });
    main.appendChild(name);
    main.appendChild(info);
    const actions = el("span", { class: "row-actions" });
    const inc = el("button", { type: "button", class: "small inc", "aria-label": _("Add a copy") }, "+");
    const dec = el("button", { type: "button", class: "small secondary dec", "aria-label": _("Remove a copy") }, "−");
    const tagButton = el("button", { type: "button", class: "small secondary tag-edit", "aria-label": _("Tags"), title: _("Tags"), "data-testid": "tag-edit" }, "#");
    actions.appendChild(inc);
    actions.appendChild(dec);
    actions.appendChild(tagButton);
    const move = el("select", { class: "move", "aria-label": _("Move to section") });
    actions.appendChild(move);
    const notes = el("ul", { class: "row-violations" });
    row.appendChild(art);
    row.appendChild(count);
    row.appendChild(main);
    row.appendChild(actions);
    row.appendChild(notes);
    entry = { key: key, slug: slug, line: line, row: row, art: art, count: count, name: name, info: info, move: move, notes: notes, artFor: null };
    // The handlers read the entry's current line, so a kept row always acts on its own card.
    inc.addEventListener("click", function () { changeCount(slug, entry.line.id, 1); });
    dec.addEventListener("click", function () { changeCount(slug, entry.line.id, -1); });
    tagButton.addEventListener("click", function () { editTags(entry); });
    move.addEventListener("change", function () { if (move.value) moveCard(slug, entry.line.id, move.value, true); });
    row.addEventListener("mouseenter", function () { showPreview(entry.line); });
    row.addEventListener("focus", function () { showPreview(entry.line); });
    row.addEventListener("keydown", function (event) { rowKey(event, slug, entry.line.id); });
    rowCache.set(key, entry);
    return entry;
  }
  function editTags(entry) {
    const existing = entry.row.querySelector(".tag-form");
    if (existing) { existing.querySelector("input").focus(); return; }
    const form = el("form", { class: "tag-form" });
    const input = el("input", { type: "text", maxlength: "300", "aria-label": _("Tags, separated by commas"), placeholder: _("Tags, separated by commas"), "data-testid": "tag-input" });
    input.value = (entry.line.tags || []).join(", ");
    const ok = el("button", { type: "submit", class: "small" }, _("OK"));
    form.appendChild(input);
    form.appendChild(ok);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      form.remove();
      setTags(entry.slug, entry.line.id, input.value);
    });
    input.addEventListener("keydown", function (event) { event.stopPropagation(); if (event.key === "Escape") form.remove(); });
    entry.row.appendChild(form);
    input.focus();
  }
  function updateRow(entry, slug) {
    const line = entry.line;
    const fmt = currentFormat();
    entry.row.setAttribute("aria-label", line.count + " × " + displayName(line));
    entry.count.textContent = String(line.count);
    entry.name.textContent = displayName(line);
    const info = entry.info;
    info.textContent = "";
    const pips = manaPips(line);
    if (pips) info.appendChild(pips);
    // The chosen printing, when the card has several (YGO alternate artworks).
    if (line.printing) info.appendChild(el("span", { class: "printing", "data-testid": "row-printing" }, line.printing));
    const status = slug === MAYBE ? null : state.statuses[line.id];
    if (status) info.appendChild(el("span", { class: "badge " + status, "data-testid": "banlist-badge" }, STATUS_WORDS()[status]));
    (line.tags || []).forEach(function (tag) { info.appendChild(el("span", { class: "tag", "data-testid": "row-tag" }, tag)); });
    // The image grid: the card's picture where the game has one, a text card otherwise.
    const artKey = (line.preview && line.preview.image) || "";
    if (entry.artFor !== artKey + "|" + line.id) {
      entry.art.textContent = "";
      if (artKey) {
        const img = el("img", { src: artKey, alt: "", loading: "lazy", decoding: "async", referrerpolicy: "no-referrer", width: "118", height: "172" });
        entry.art.appendChild(img);
      } else {
        entry.art.appendChild(el("span", { class: "text-card-name" }, displayName(line)));
        entry.art.appendChild(el("span", { class: "text-card-type" }, cardMeta(line)));
        if (line.preview && line.preview.text) entry.art.appendChild(el("span", { class: "text-card-text" }, line.preview.text.slice(0, 160)));
      }
      entry.artFor = artKey + "|" + line.id;
    }
    const targets = sectionSlugs().concat([MAYBE]).filter(function (s) { return s !== slug; });
    const signature = targets.join(",");
    if (entry.move.dataset.targets !== signature) {
      entry.move.textContent = "";
      entry.move.appendChild(el("option", { value: "" }, _("move…")));
      targets.forEach(function (s) { entry.move.appendChild(el("option", { value: s }, "→ " + sectionName(s))); });
      entry.move.dataset.targets = signature;
    }
    entry.move.value = "";
    const problems = violationsFor(line, slug);
    entry.row.classList.toggle("has-violation", problems.length > 0);
    entry.notes.textContent = "";
    problems.forEach(function (v) { entry.notes.appendChild(el("li", { class: v.warning ? "warning" : "violation" }, v.message)); });
    void fmt;
  }
  // Puts ``nodes`` into ``parent`` in order, moving only what is out of place (a node moved in the DOM
  // loses hover and an in-progress click; one left alone keeps both).
  function reconcile(parent, nodes) {
    nodes.forEach(function (node, i) {
      if (parent.children[i] !== node) parent.insertBefore(node, parent.children[i] || null);
    });
    while (parent.children.length > nodes.length) parent.removeChild(parent.lastElementChild);
  }
  const groupHeads = new Map();
  function groupHead(slug, group, total) {
    const key = slug + "|" + group.key;
    let head = groupHeads.get(key);
    if (!head) { head = el("li", { class: "group-head", "data-testid": "group-head" }); groupHeads.set(key, head); }
    head.textContent = group.key + " (" + total + ")";
    return head;
  }
  function renderDeck(focusSlug, focusId) {
    renderSummary();
    const root = $("deck-sections");
    root.classList.toggle("grid-view", state.view === "grid");
    const active = document.activeElement;
    const known = sectionSlugs();
    const slugs = known.concat(Object.keys(state.sections).filter(function (s) { return !known.includes(s) && s !== MAYBE && state.sections[s].length; }))
      .concat([MAYBE]);
    const seen = new Set();
    const boxes = [];
    slugs.forEach(function (slug) {
      const lines = state.sections[slug] || [];
      if (slug === MAYBE && !lines.length && !state.showEmptyMaybe) return;
      const section = sectionBox(slug);
      section.title.textContent = sectionName(slug);
      section.count.textContent = String(lines.reduce(function (sum, l) { return sum + l.count; }, 0));
      section.note.textContent = slug === MAYBE ? _("Cards you are considering: kept with the deck, never validated or played.") : "";
      section.problems.textContent = "";
      if (slug !== MAYBE) (state.report ? state.report.violations : []).filter(function (v) { return v.section === slug && !v.card; })
        .forEach(function (v) { section.problems.appendChild(el("p", { class: "violation" }, v.message)); });
      const nodes = [];
      groupedLines(lines).forEach(function (group) {
        if (group.key) nodes.push(groupHead(slug, group, group.lines.reduce(function (s, l) { return s + l.count; }, 0)));
        group.lines.forEach(function (line) {
          const entry = deckRow(slug, line);
          seen.add(entry.key);
          updateRow(entry, slug);
          nodes.push(entry.row);
        });
      });
      reconcile(section.list, nodes);
      boxes.push(section.box);
    });
    reconcile(root, boxes);
    // Drop the rows of cards no longer in the deck.
    rowCache.forEach(function (entry, key) { if (!seen.has(key)) rowCache.delete(key); });
    if (focusSlug !== undefined && focusSlug !== null && focusId !== undefined && focusId !== null && active && (active.classList.contains("deck-row") || active === document.body)) {
      const entry = rowCache.get(focusSlug + "|" + focusId);
      if (entry && document.activeElement !== entry.row && !entry.row.contains(document.activeElement)) entry.row.focus({ preventScroll: true });
    }
  }
  function fillTagFilter() {
    const select = $("tag-filter");
    if (!select) return;
    const tags = new Set();
    Object.values(state.sections).forEach(function (lines) { lines.forEach(function (l) { (l.tags || []).forEach(function (t) { tags.add(t); }); }); });
    const current = select.value;
    while (select.options.length > 1) select.remove(1);
    Array.from(tags).sort().forEach(function (t) { select.appendChild(el("option", { value: t }, t)); });
    select.value = tags.has(current) ? current : "";
    state.tagFilter = select.value;
  }
  function rowKey(event, slug, id) {
    if (event.target.tagName === "SELECT" || event.target.tagName === "INPUT") return;
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
  // What the rules judge (the maybeboard never is) or, with ``withMaybe``, what is saved (tags included).
  function payloadSections(key, withMaybe) {
    const out = {};
    Object.entries(state.sections).forEach(function ([slug, lines]) {
      if (!lines.length || (slug === MAYBE && !withMaybe)) return;
      out[slug] = lines.map(function (l) {
        return withMaybe ? { card: key(l), count: l.count, tags: l.tags || [] } : { card: key(l), count: l.count };
      });
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
      folder: $("deck-folder") ? $("deck-folder").value.trim() : undefined,
      hero: state.hero ? state.hero.id : null,
      co_heroes: state.hero ? state.coHeroes.map(function (c) { return c.id; }) : [],
      sections: payloadSections(function (l) { return l.id; }, true),
      base_version: state.baseVersion,
    };
    // Cards in sections the format lacks would be refused by the server: say so before sending.
    const stray = Object.keys(body.sections).filter(function (s) { return s !== MAYBE && !sectionSlugs().includes(s); });
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
  $("search-q").addEventListener("input", function () { searchSoon(150); });
  if ($("search-type")) $("search-type").addEventListener("change", search);
  filterInputs().forEach(function (input) {
    if (input.tagName === "SELECT") input.addEventListener("change", search);
    else input.addEventListener("input", function () { searchSoon(250); });
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
  // Where a card may go and its status depend on the format, list and date: ask again for the results.
  function refit() { state.fit = {}; search(); }
  $("format-select").addEventListener("change", function () {
    state.format = this.value; fillTargetSections(); setupHero(); refit(); changed();
  });
  $("banlist-select").addEventListener("change", function () { state.banlist = this.value; refit(); changed(); });
  $("deck-date").addEventListener("change", function () { refit(); changed(); });
  if ($("deck-folder")) $("deck-folder").addEventListener("change", function () { state.dirty = true; $("save-status").textContent = _("Unsaved changes"); });
  function rememberView() {
    try { window.localStorage.setItem("deckhall.builder.view", JSON.stringify({ view: state.view, groupBy: state.groupBy, sortBy: state.sortBy })); }
    catch (error) { /* not kept */ }
  }
  document.querySelectorAll("input[name=deck-view]").forEach(function (radio) {
    radio.checked = radio.value === state.view;
    radio.addEventListener("change", function () { if (radio.checked) { state.view = radio.value; rememberView(); renderDeck(); } });
  });
  [["group-by", "groupBy"], ["sort-by", "sortBy"]].forEach(function ([id, key]) {
    const select = $(id);
    if (!select) return;
    select.value = state[key];
    select.addEventListener("change", function () { state[key] = select.value; rememberView(); renderDeck(); });
  });
  if ($("tag-filter")) $("tag-filter").addEventListener("change", function () { state.tagFilter = this.value; renderDeck(); });
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
  fillTagFilter();
  setupHero();
  renderDeck();
  validate();
  loadTeamEvents();
  loadStatuses();
  search();
  $("save-status").textContent = "";
})();
