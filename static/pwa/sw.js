// Deckhall's service worker (served as /sw.js so its scope is the whole site). It keeps the last copy of a
// player's own pages — My event, pairings — so a phone that lost the venue Wi-Fi still shows its table,
// opponent and clock. Everything else goes to the network untouched: the live polls keep their
// If-None-Match/304 exchange, and no write is ever answered from here.
//
// Copies are kept per log-in session: the page tells this worker an opaque key of its session, the cache
// is named after it, and another key (another user, or a log-out) deletes every older copy.
"use strict";

var META = "deckhall-meta";
var PAGES = /^\/tournaments\/\d+\/(me|pairings)\/$/;
var sessionKey = null;

function readKey() {
  if (sessionKey !== null) { return Promise.resolve(sessionKey); }
  return caches.open(META).then(function (cache) { return cache.match("/__session__"); }).then(function (hit) {
    return hit ? hit.text() : "";
  }).then(function (key) { sessionKey = key; return key; });
}

function setKey(key) {
  sessionKey = key || "";
  return caches.open(META).then(function (cache) {
    return cache.put("/__session__", new Response(sessionKey));
  }).then(function () {
    return caches.keys();
  }).then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name !== META && name !== "pages-" + sessionKey && name !== "static";
    }).map(function (name) { return caches.delete(name); }));
  });
}

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "session") { event.waitUntil(setKey(data.key)); }
});

function networkFirst(request) {
  return readKey().then(function (key) {
    return fetch(request).then(function (response) {
      // Only a page of this session, answered in full and not redirected elsewhere (a log-in page).
      if (key && response.status === 200 && !response.redirected) {
        var copy = response.clone();
        caches.open("pages-" + key).then(function (cache) { cache.put(request.url, copy); });
      }
      return response;
    }).catch(function (error) {
      if (!key) { throw error; }
      return caches.open("pages-" + key).then(function (cache) { return cache.match(request.url); })
        .then(function (hit) { if (hit) { return hit; } throw error; });
    });
  });
}

function staticFile(request) {
  // Static files: the network when it answers (so a new version is seen at once), the last copy when not.
  return fetch(request).then(function (response) {
    if (response.status === 200) {
      var copy = response.clone();
      caches.open("static").then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function (error) {
    return caches.open("static").then(function (cache) { return cache.match(request); })
      .then(function (hit) { if (hit) { return hit; } throw error; });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate" && PAGES.test(url.pathname) && !url.search) {
    event.respondWith(networkFirst(request));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(staticFile(request));
  }
});
