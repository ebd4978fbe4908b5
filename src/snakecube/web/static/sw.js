// snakecube's static site as an app (written by `snakecube web`): every file of the site is
// cached at the first visit, so that the page opens and solves with the network off. The
// cache is named by the build (VERSION: a hash of the site's files), so a rebuilt site
// installs a new worker; it waits until the page asks it to take over (the page's "Reload"),
// then the old cache is removed. The files are fetched past the browser's HTTP cache
// (`cache: "reload"`): a file the browser still held from before the rebuild would otherwise
// be kept under the new version (a host that sends no Cache-Control, like `python -m
// http.server`, lets the browser guess that a just-fetched file is still fresh).
"use strict";
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `snakecube-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" })))));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("snakecube-") && k !== CACHE)
        .map((k) => caches.delete(k))))
      .then(() => self.clients.claim()));
});

self.addEventListener("message", (event) => {
  if (event.data === "take over") self.skipWaiting();
});

// The site's own files from the cache, else from the network (and kept); other sites' are
// not touched (the site loads none).
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(caches.open(CACHE).then((cache) =>
    cache.match(request, { ignoreSearch: true }).then((hit) => hit || fetch(request).then((answer) => {
      if (answer.ok && answer.type === "basic") cache.put(request, answer.clone());
      return answer;
    }))));
});
