/* Muster's service worker: once visited, the rules reference, your own lists' pages and their card
   and roster PDFs open without a network. Served at /sw.js so its scope is the whole site.

   Pages are fetched from the network first and kept for when it is gone, in a cache named after the
   signed-in user ("muster-<version>-pages-<user>"). The page script (offline.js) records who is
   signed in and deletes every other user's cache on each page load and at logout, so nothing of a
   user is served after they log out. Lists are private: they are kept only for a signed-in user.
   Pages that need the server (games, the calculator, forms) get a plain "you are offline" page.
   Bump CACHE_VERSION to drop every cache of an older version. */
const CACHE_VERSION = "muster-1";
const SHARED_CACHE = CACHE_VERSION + "-shared";
const META_CACHE = "muster-meta";
const USER_KEY = "/__muster/user";
const OFFLINE_URL = "/offline/";

const PUBLIC_PAGES = [/^\/$/, /^\/reference\//];
const PRIVATE_PAGES = [
  /^\/lists\/$/,
  /^\/lists\/\d+\/$/,
  /^\/lists\/\d+\/print\/(document\/)?$/,
  /^\/lists\/\d+\/(cards|roster|playsheet|print)\.pdf$/,
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHARED_CACHE)
      .then((cache) => cache.addAll([OFFLINE_URL, "/static/css/muster.css"]))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => key !== META_CACHE && !key.startsWith(CACHE_VERSION + "-")).map((key) => caches.delete(key))
      ))
      .then(() => self.clients.claim())
  );
});

function currentUser() {
  return caches.open(META_CACHE)
    .then((cache) => cache.match(USER_KEY))
    .then((response) => (response ? response.text() : ""));
}

function matches(patterns, path) {
  return patterns.some((pattern) => pattern.test(path));
}

function offlinePage() {
  return caches.match(OFFLINE_URL, { cacheName: SHARED_CACHE }).then((response) =>
    response
      ? new Response(response.body, { status: 503, statusText: "Offline", headers: response.headers })
      : new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } })
  );
}

async function networkFirst(request, cacheName) {
  try {
    const response = await fetch(request);
    // Only whole, successful answers are kept: not redirects (to the login page), errors or fragments.
    if (cacheName && response.ok && !response.redirected && response.type === "basic") {
      const copy = response.clone();
      caches.open(cacheName).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch (error) {
    if (cacheName) {
      const cached = await caches.match(request, { cacheName: cacheName });
      if (cached) return cached;
    }
    if (request.mode === "navigate") return offlinePage();
    if (request.method === "GET") {
      const shared = await caches.match(request, { cacheName: SHARED_CACHE });
      if (shared) return shared;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // A form posted offline: say so plainly instead of the browser's error page.
    if (request.mode === "navigate") event.respondWith(fetch(request).catch(offlinePage));
    return;
  }
  if (request.headers.get("HX-Request")) return; // htmx fragments and polls: the network or nothing
  const path = url.pathname;
  if (path.startsWith("/static/")) {
    event.respondWith(networkFirst(request, SHARED_CACHE));
    return;
  }
  event.respondWith(
    currentUser().then((user) => {
      let cacheName = null;
      if (matches(PUBLIC_PAGES, path)) cacheName = CACHE_VERSION + "-pages-" + user;
      else if (user && matches(PRIVATE_PAGES, path)) cacheName = CACHE_VERSION + "-pages-" + user;
      return networkFirst(request, cacheName);
    })
  );
});
