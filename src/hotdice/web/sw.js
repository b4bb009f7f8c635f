/* hotdice's service worker: the offline page, in the player's language, instead of the browser's error when the
   server cannot be reached. Nothing else is kept: every page and answer comes from the server while it answers.
   The server puts SITE before this text (routes/site.py): the cache's name, the offline pages and their files. */
"use strict";

const LANG = "/offline/lang";  // the language of the last page shown, told by hd.js

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SITE.cache)
    .then((cache) => cache.addAll([...Object.values(SITE.pages), ...SITE.files]))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== SITE.cache) await caches.delete(name);
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const lang = event.data && event.data.lang;
  if (Object.hasOwn(SITE.pages, lang)) {
    event.waitUntil(caches.open(SITE.cache).then((cache) => cache.put(LANG, new Response(lang))));
  }
});

/** The offline page in the language of the last page shown, else the browser's. */
async function offline() {
  const cache = await caches.open(SITE.cache);
  const told = await cache.match(LANG);
  const wanted = [told ? await told.text() : "", ...(self.navigator.languages || []).map((l) => l.slice(0, 2))];
  const lang = wanted.find((l) => Object.hasOwn(SITE.pages, l)) || "en";
  return (await cache.match(SITE.pages[lang])) || Response.error();
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.mode === "navigate" && request.method === "GET") {
    event.respondWith((async () => {
      try {
        return (await event.preloadResponse) || await fetch(request);
      } catch (err) {
        return offline();
      }
    })());
  } else if (url.origin === self.location.origin && SITE.files.includes(url.pathname + url.search)) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  }
});
