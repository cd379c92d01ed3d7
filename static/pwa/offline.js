// My event on a venue Wi-Fi that comes and goes.
//
// Every write on the page (a game, a confirm, a dispute, a swap, a check-in: forms marked data-queue) is put
// in a queue kept on the phone (localStorage, per log-in session) with a one-time Idempotency-Key, and sent
// from there: at once when the network answers, else when it returns. The server applies a key once, so a
// send whose answer was lost is simply sent again. Until it is sent, the page lists it as "saved on this
// phone, not sent yet". A write the server refuses, or one based on a result the opponent or an organizer
// changed meanwhile (409), is shown as such and never sent again by itself.
//
// The page also registers the service worker that keeps a copy of it for offline reloads (static/pwa/sw.js),
// keeps the latest live fragment so such a copy shows what the phone last saw, and keeps the round clock right
// on a copy (the clock offset of the last time the server answered).
(function () {
  "use strict";
  var configEl = document.getElementById("offline-config");
  var box = document.getElementById("live");
  if (!configEl || !box) { return; }
  var config = JSON.parse(configEl.textContent);
  var texts = config.texts;
  var prefix = "deckhall:" + config.session + ":" + location.pathname + ":";
  var queueKey = prefix + "queue";
  var list = document.getElementById("offline-queue");
  var sending = false;

  function read(key, fallback) {
    try { var v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
  }
  function write(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* full or private mode: in memory only */ }
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  function items() { return read(queueKey, []); }

  // --- the service worker and the copy of this page -------------------------------------------------------
  // Only in a secure context: over plain http:// on the venue's LAN address there is no navigator.serviceWorker
  // at all, and behind a certificate error Chromium refuses the registration (README, "HTTPS at the venue").
  if ("serviceWorker" in navigator && config.worker) {
    navigator.serviceWorker.register(config.worker, {scope: "/"}).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (registration.active) { registration.active.postMessage({type: "session", key: config.session}); }
    }).catch(function () { /* refused (a certificate error): the queue below still works */ });
  }
  var holder = document.querySelector("[data-server-now]");
  var clockKey = "deckhall:" + config.session + ":clock";
  var clock = read(clockKey, null);
  if (holder) {
    var rendered = holder.dataset.serverNow;
    if (clock && clock.rendered === rendered) {
      // The same render again: this is the worker's copy, not a fresh page. Its "server now" is old; the
      // round clock goes on from the end time with the offset measured when the server last answered.
      holder.dataset.serverNow = new Date(Date.now() + clock.offset).toISOString();
      var saved = read(prefix + "fragment", null);
      if (saved && saved.rendered === rendered) { box.innerHTML = saved.html; }
      document.documentElement.classList.add("offline-copy");
    } else {
      write(clockKey, {rendered: rendered, offset: Date.parse(rendered) - Date.now()});
    }
  }
  document.addEventListener("live:updated", function () {
    if (holder) { write(prefix + "fragment", {rendered: (read(clockKey, {}) || {}).rendered, html: box.innerHTML}); }
    show();
  });

  // --- the queue ------------------------------------------------------------------------------------------
  function describe(form, submitter) {
    var label = form.dataset.queue || "";
    var chosen = [];
    form.querySelectorAll("input[type=radio]:checked").forEach(function (input) {
      var text = input.closest("label") ? input.closest("label").textContent.trim() : "";
      var legend = input.closest("fieldset") && input.closest("fieldset").querySelector("legend");
      if (text) { chosen.push((legend ? legend.textContent.trim() + " " : "") + text); }
    });
    if (submitter && submitter.textContent && !chosen.length) { chosen.push(submitter.textContent.trim()); }
    return chosen.length ? label + " — " + chosen.join("; ") : label;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-queue")) { return; }
    event.preventDefault();
    form.removeAttribute("data-touched");  // written: the answer's page shows it as saved
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) { data.append(event.submitter.name, event.submitter.value); }
    var queue = items();
    queue.push({
      key: newKey(), url: form.action, body: new URLSearchParams(data).toString(),
      label: describe(form, event.submitter), game: form.dataset.game || null, state: "waiting", at: Date.now()
    });
    write(queueKey, queue);
    show();
    send();
  }, true);

  function messagesOf(doc) {
    var out = {error: [], ok: []};
    doc.querySelectorAll(".messages .message").forEach(function (li) {
      (li.classList.contains("error") ? out.error : out.ok).push(li.textContent.trim());
    });
    return out;
  }

  // Forms the person started filling in since their last write: the next game's form is offered as soon as
  // a game is saved on the phone, so they may be choosing its answers when the saved game's answer arrives.
  box.addEventListener("change", function (event) {
    var form = event.target.closest ? event.target.closest("form") : null;
    if (form) { form.setAttribute("data-touched", ""); }
  });

  function touchedFields() {
    var kept = [];
    box.querySelectorAll("form[data-touched][data-testid]").forEach(function (form) {
      var fields = [];
      form.querySelectorAll("input, select, textarea").forEach(function (el) {
        if (!el.name || el.type === "hidden") { return; }
        if (el.type === "radio" || el.type === "checkbox") {
          if (el.checked) { fields.push({name: el.name, value: el.value, checked: true}); }
        } else {
          fields.push({name: el.name, value: el.value});
        }
      });
      kept.push({id: form.getAttribute("data-testid"), fields: fields});
    });
    return kept;
  }

  function restoreFields(kept) {
    kept.forEach(function (entry) {
      var form = box.querySelector('form[data-testid="' + entry.id + '"]');
      if (!form) { return; }  // that form is gone (the match was settled meanwhile): nothing to carry over
      form.setAttribute("data-touched", "");
      entry.fields.forEach(function (field) {
        form.querySelectorAll("[name]").forEach(function (el) {
          if (el.name !== field.name || el.type === "hidden") { return; }
          if (field.checked) {
            if (el.value === field.value) { el.checked = true; }
          } else if (el.type !== "radio" && el.type !== "checkbox") {
            el.value = field.value;
          }
        });
      });
    });
  }

  function adopt(doc) {
    // The answer is the page after the write (the view's redirect back here): show its result and messages,
    // keeping what the person entered meanwhile in a form the new page offers too.
    var fresh = doc.getElementById("live");
    if (fresh) {
      var kept = touchedFields();
      box.innerHTML = fresh.innerHTML;
      restoreFields(kept);
      document.dispatchEvent(new CustomEvent("live:updated", {detail: {box: box}}));
    }
    var notes = doc.querySelector(".messages");
    var here = document.querySelector(".messages");
    if (notes && here) { here.replaceWith(notes); } else if (notes) { document.querySelector("main").before(notes); }
  }

  function send() {
    if (sending) { return; }
    var queue = items();
    var item = queue.filter(function (i) { return i.state === "waiting"; })[0];
    if (!item) { return; }
    sending = true;
    fetch(item.url, {
      method: "POST", body: item.body, credentials: "same-origin",
      headers: {"Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": item.key}
    }).then(function (response) {
      if (response.status >= 500 || response.status === 429) { throw new Error("retry later"); }
      var login = response.redirected && response.url.indexOf("/accounts/login/") !== -1;
      return response.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var notes = messagesOf(doc);
        if (login) {
          item.note = texts.login;  // stays waiting: sent again once the player has logged in
        } else if (response.status === 409) {
          item.state = "conflict";
          item.note = notes.error.join(" ") || texts.conflict;
          adopt(doc);
        } else if (!response.ok || notes.error.length) {
          item.state = "refused";
          item.note = notes.error.join(" ") || (doc.body ? doc.body.textContent.trim().slice(0, 200) : "");
          adopt(doc);
        } else {
          item.state = "sent";
          adopt(doc);
        }
        var now = items().map(function (i) { return i.key === item.key ? item : i; })
          .filter(function (i) { return i.state !== "sent"; });
        write(queueKey, now);
        sending = false;
        show();
        if (!login) { send(); }
      });
    }).catch(function () {
      // No network (or a server that could not answer): keep it, and try again later.
      sending = false;
      show();
    });
  }

  function show() {
    var queue = items();
    // A game saved on the phone is no longer offered; the next game's form is.
    var pendingGames = {};
    queue.forEach(function (i) { if (i.game && i.state === "waiting") { pendingGames[i.game] = true; } });
    box.querySelectorAll("form[data-game]").forEach(function (form) {
      var n = form.dataset.game;
      var wrap = form.closest("[data-game-step]") || form;
      var later = wrap.hasAttribute("data-later");
      var previousPending = pendingGames[String(Number(n) - 1)];
      wrap.hidden = pendingGames[n] ? true : (later ? !previousPending : false);
    });
    if (!list) { return; }
    list.innerHTML = "";
    list.hidden = !queue.length;
    queue.forEach(function (item) {
      var li = document.createElement("li");
      li.className = "queued " + item.state;
      li.dataset.state = item.state;
      var what = document.createElement("strong");
      what.textContent = item.label;
      li.appendChild(what);
      var state = document.createElement("span");
      state.className = "state";
      state.textContent = " · " + (texts[item.state] || item.state) + (item.note ? " — " + item.note : "");
      li.appendChild(state);
      if (item.state !== "waiting") {
        var dismiss = document.createElement("button");
        dismiss.type = "button";
        dismiss.className = "link-button";
        dismiss.textContent = texts.dismiss;
        dismiss.addEventListener("click", function () {
          write(queueKey, items().filter(function (i) { return i.key !== item.key; }));
          show();
        });
        li.appendChild(document.createTextNode(" "));
        li.appendChild(dismiss);
      }
      list.appendChild(li);
    });
  }

  // Say so while the phone is off the network (or shows the worker's copy), so nobody mistakes it for live.
  var note = document.getElementById("offline-note");
  function connection() {
    if (!note) { return; }
    var off = !navigator.onLine || document.documentElement.classList.contains("offline-copy");
    note.hidden = !off;
    note.textContent = off ? texts.offline : "";
  }
  window.addEventListener("offline", connection);
  window.addEventListener("online", function () {
    document.documentElement.classList.remove("offline-copy");
    connection();
  });
  connection();
  window.addEventListener("online", send);
  window.setInterval(send, 5000);
  show();
  send();
})();
