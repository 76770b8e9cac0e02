/* Muster's service worker: once visited, the rules reference, your own lists' pages and their card
   and roster PDFs open without a network. Served at /sw.js so its scope is the whole site.

   Pages are fetched from the network first and kept for when it is gone, in a cache named after the
   signed-in user ("muster-<version>-pages-<user>"). The page script (offline.js) records who is
   signed in and deletes every other user's cache on each page load and at logout, so nothing of a
   user is served after they log out. Lists are private: they are kept only for a signed-in user.
   A game's board (/games/<id>/, and /g/<token>/ for the opponent) is kept the same way, in the
   cache of the user signed in on this phone only (an opponent without an account: the anonymous
   cache, dropped when someone signs in), so it opens offline; the page (game.js) sends the board
   as it last showed it after every change ("keep-board" message), so offline it opens at the last
   state this phone saw, not at the one it was loaded with. Logout deletes it with the rest.
   Pages that need the server (the calculator, "odds now", forms) get a plain "you are offline" page.
   A session can also end without a logout (it expires, or ends on another device). Every response
   of Muster says whose session it belongs to (the X-Muster-User header: a user id, or empty); at the
   first one that disagrees with the kept user, the worker drops that user's pages. And the cookie
   "muster_user" lives exactly as long as the session cookie: when the browser lets it expire, the
   worker (through the Cookie Store API, where the browser has it) serves no kept page of that user,
   offline too.
   Bump CACHE_VERSION to drop every cache of an older version. */
const CACHE_VERSION = "muster-2";
const SHARED_CACHE = CACHE_VERSION + "-shared";
const META_CACHE = "muster-meta";
const USER_KEY = "/__muster/user";
const OFFLINE_URL = "/offline/";
const USER_HEADER = "X-Muster-User";
const USER_COOKIE = "muster_user";

const PUBLIC_PAGES = [/^\/$/, /^\/reference\//];
const PRIVATE_PAGES = [
  /^\/lists\/$/,
  /^\/lists\/\d+\/$/,
  /^\/lists\/\d+\/print\/(document\/)?$/,
  /^\/lists\/\d+\/(cards|roster|playsheet|print)\.pdf$/,
  /^\/games\/\d+\/$/,
];
// A game's board through its share link: the opponent may have no account, so it is kept for
// whoever is signed in, the anonymous visitor included (the link itself is the secret).
const BOARD_PAGES = [/^\/games\/\d+\/$/, /^\/g\/[\w-]+\/$/];

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

function remember(user) {
  return caches.open(META_CACHE).then((cache) =>
    cache.put(USER_KEY, new Response(user, { headers: { "Content-Type": "text/plain" } }))
  );
}

// Deletes the pages kept for anyone but ``keep``.
function forget(keep) {
  return caches.keys().then((keys) => Promise.all(
    keys.filter((key) => {
      const at = key.indexOf("-pages-");
      return at !== -1 && key.slice(at + 7) !== keep;
    }).map((key) => caches.delete(key))
  ));
}

async function switchTo(user) {
  await forget(user);
  await remember(user);
}

// Whose session the browser holds now, from the cookie that expires with it; null when this
// browser gives a service worker no cookies to read.
async function sessionUser() {
  if (!self.cookieStore) return null;
  try {
    const cookie = await self.cookieStore.get(USER_COOKIE);
    return cookie ? cookie.value : "";
  } catch (error) {
    return null;
  }
}

// A response from Muster names the session's user: a different one ends the kept user's pages.
async function learn(response) {
  const named = response.headers.get(USER_HEADER);
  if (named === null || response.type !== "basic") return;
  if (named !== (await currentUser())) await switchTo(named);
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

// A page opened from the cache because the network failed says so on its <html> element
// (data-served-offline): the browser may still call itself online (a dead Wi-Fi, an emulated network),
// and the page must play offline all the same (offline.js).
async function servedOffline(response) {
  const text = (await response.text()).replace(/<html(?=[\s>])/i, "<html data-served-offline");
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function networkFirst(request, cacheName) {
  try {
    const response = await fetch(request);
    await learn(response);
    // Only whole, successful answers are kept: not redirects (to the login page), errors or fragments.
    if (cacheName && response.ok && !response.redirected && response.type === "basic") {
      const copy = response.clone();
      caches.open(cacheName).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch (error) {
    if (cacheName) {
      const cached = await caches.match(request, { cacheName: cacheName });
      if (cached) return request.mode === "navigate" ? servedOffline(cached) : cached;
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
  if (request.headers.get("HX-Request")) {
    // htmx fragments and polls: the network or nothing, but they too say whose session it is.
    event.respondWith(fetch(request).then((response) => learn(response).then(() => response)));
    return;
  }
  const path = url.pathname;
  if (path.startsWith("/static/")) {
    event.respondWith(networkFirst(request, SHARED_CACHE));
    return;
  }
  event.respondWith((async () => {
    let user = await currentUser();
    const session = await sessionUser();
    if (user && session !== null && session !== user) {
      // The session cookie expired (or is someone else's): the kept pages are not this visitor's.
      await switchTo(session);
      user = session;
    }
    let cacheName = null;
    if (matches(PUBLIC_PAGES, path) || matches(BOARD_PAGES.slice(1), path)) cacheName = CACHE_VERSION + "-pages-" + user;
    else if (user && matches(PRIVATE_PAGES, path)) cacheName = CACHE_VERSION + "-pages-" + user;
    return networkFirst(request, cacheName);
  })());
});

// The board's scripts and styles (same site, under /static/ only), kept once: on the first visit the
// page loaded them before this worker controlled it, so they are not in the cache yet.
async function keepAssets(assets) {
  if (!Array.isArray(assets)) return;
  const shared = await caches.open(SHARED_CACHE);
  await Promise.all(assets.map(async (address) => {
    let url;
    try { url = new URL(address, self.location.origin); } catch (error) { return; }
    if (url.origin !== self.location.origin || !url.pathname.startsWith("/static/")) return;
    if (await shared.match(url.href)) return;
    try {
      const response = await fetch(url.href);
      if (response.ok) await shared.put(url.href, response);
    } catch (error) {
      // Offline already: the asset stays missing until the next visit online.
    }
  }));
}

// The board as the page shows it now (game.js, after every change): offline it opens at this state.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep-board" || typeof data.html !== "string" || !matches(BOARD_PAGES, data.url || "")) return;
  if (!event.source || new URL(event.source.url).pathname !== data.url) return;  // only the board's own page
  event.waitUntil((async () => {
    const user = await currentUser();
    const session = await sessionUser();
    if (session !== null && session !== user) return;  // the session ended: keep nothing of it
    if (!user && data.url.startsWith("/games/")) return;  // a creator's board is kept only while signed in
    const cache = await caches.open(CACHE_VERSION + "-pages-" + user);
    await cache.put(data.url, new Response(data.html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
    await keepAssets(data.assets);
  })());
});
