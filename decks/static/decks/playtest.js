// Deck page playtester: shuffles the deck in the page, deals the opening hand of each drawn section, draws
// the next card, takes a mulligan by the game's rule (rule-set data: [game.playtest]) and deals for the seat
// chosen (Yu-Gi-Oh!: 5 cards going first, 6 going second). Nothing reloads the page; card names are data
// and inserted with textContent only.
(function () {
  "use strict";
  const source = document.getElementById("playtest-config");
  const root = document.getElementById("playtest");
  if (!source || !root) return;
  const config = JSON.parse(source.textContent);
  const _ = window.gettext || function (s) { return s; };
  const fmtText = window.interpolate || function (s, a) { let i = 0; return s.replace(/%s/g, function () { return a[i++]; }); };
  const ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  const $ = function (id) { return document.getElementById(id); };
  const sections = (config.sections || []).filter(function (s) { return s.cards.length; });
  const state = { libraries: {}, hands: {}, mulligans: 0, bottoming: new Set(), seat: "first" };

  function shuffled(cards) {
    const pile = [];
    cards.forEach(function (card) { for (let i = 0; i < card.count; i++) pile.push(card); });
    // Fisher–Yates with the browser's cryptographic generator: every order equally likely.
    const random = new Uint32Array(1);
    for (let i = pile.length - 1; i > 0; i--) {
      window.crypto.getRandomValues(random);
      const j = random[0] % (i + 1);
      const t = pile[i]; pile[i] = pile[j]; pile[j] = t;
    }
    return pile;
  }
  // The first drawn section (the main deck) gets the first-turn draw of the chosen seat.
  function handSize(section, index) {
    const extra = index === 0 ? (state.seat === "second" ? config.draw_second : config.draw_first) : 0;
    return section.size + (extra || 0);
  }
  function deal() {
    state.bottoming = new Set();
    sections.forEach(function (section, index) {
      const library = shuffled(section.cards);
      state.hands[section.slug] = library.splice(0, Math.min(handSize(section, index), library.length));
      state.libraries[section.slug] = library;
    });
  }
  function newHand() {
    state.mulligans = 0;
    deal();
    render();
  }
  // London mulligan (Magic, CR 103.5): shuffle the hand back, draw the full opening hand again, then put
  // one card on the bottom of the library per mulligan taken — the player chooses which.
  function mulligan() {
    if (config.mulligan !== "london") return;
    state.mulligans += 1;
    deal();
    render();
  }
  function keep() {
    const main = sections[0];
    if (!main) return;
    const hand = state.hands[main.slug];
    const chosen = Array.from(state.bottoming).sort(function (a, b) { return b - a; });
    chosen.forEach(function (i) { state.libraries[main.slug].push(hand.splice(i, 1)[0]); });
    state.mulligans = 0;
    state.bottoming = new Set();
    render();
  }
  function drawNext() {
    const main = sections[0];
    if (!main || !state.libraries[main.slug] || !state.libraries[main.slug].length) return;
    state.hands[main.slug].push(state.libraries[main.slug].shift());
    render();
  }
  function toBottom() { return state.mulligans; }
  function render() {
    const box = $("sample-hand");
    box.textContent = "";
    sections.forEach(function (section, index) {
      const hand = state.hands[section.slug] || [];
      const line = document.createElement("div");
      line.className = "hand-section";
      const title = document.createElement("strong");
      title.textContent = section.title + " (" + hand.length + ")";
      line.appendChild(title);
      const list = document.createElement("ul");
      list.className = "hand-cards";
      list.setAttribute("data-testid", "hand-cards-" + section.slug);
      hand.forEach(function (card, i) {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "hand-card" + (index === 0 && state.bottoming.has(i) ? " bottoming" : "");
        button.textContent = card.name;
        button.setAttribute("data-testid", "hand-card");
        if (index === 0 && toBottom()) {
          button.setAttribute("aria-pressed", state.bottoming.has(i) ? "true" : "false");
          button.addEventListener("click", function () {
            if (state.bottoming.has(i)) state.bottoming.delete(i);
            else if (state.bottoming.size < toBottom()) state.bottoming.add(i);
            render();
          });
        }
        button.addEventListener("mouseenter", function () {
          const panel = $("card-preview");
          if (panel && window.DeckhallPreview && card.preview) window.DeckhallPreview.show(panel, card.preview);
        });
        item.appendChild(button);
        list.appendChild(item);
      });
      line.appendChild(list);
      box.appendChild(line);
    });
    const main = sections[0];
    const left = main && state.libraries[main.slug] ? state.libraries[main.slug].length : 0;
    let status = fmtText(ngettext("%s card left in the library.", "%s cards left in the library.", left), [left]);
    if (toBottom()) {
      status = fmtText(ngettext("Mulligan: choose %s card to put on the bottom.", "Mulligan: choose %s cards to put on the bottom.", toBottom()), [toBottom()])
        + " " + fmtText(_("Chosen: %s."), [state.bottoming.size]);
    }
    $("playtest-status").textContent = status;
    $("draw-next").disabled = !left || toBottom() > 0;
    // Each mulligan puts one more card on the bottom: after six, a seventh would keep nothing.
    $("mulligan").disabled = !main || !state.hands[main.slug] || state.mulligans >= 6;
    $("keep-hand").hidden = !toBottom();
    $("keep-hand").disabled = state.bottoming.size !== toBottom();
  }

  if (!sections.length) {
    $("playtest-status").textContent = _("This deck has no cards to draw.");
    $("draw-hand").disabled = true;
    return;
  }
  $("mulligan").hidden = config.mulligan !== "london";
  root.querySelectorAll("input[name=seat]").forEach(function (radio) {
    radio.addEventListener("change", function () { if (radio.checked) { state.seat = radio.value; newHand(); } });
  });
  $("draw-hand").addEventListener("click", newHand);
  $("draw-next").addEventListener("click", drawNext);
  $("mulligan").addEventListener("click", mulligan);
  $("keep-hand").addEventListener("click", keep);
})();
