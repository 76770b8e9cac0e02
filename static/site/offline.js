/* Registers the service worker (static/site/sw.js, served at /sw.js) and keeps its caches to the
   signed-in user: on every page it records who that is and deletes the pages kept for anyone else,
   and at logout it deletes them all before the form is sent. */
(function () {
  "use strict";
  var root = document.documentElement;

  // Whether this page can reach the server (window.MusterNetwork.offline(), read by game.js).
  // navigator.onLine alone is not enough: a phone on a hall's dead Wi-Fi says it is online, and a
  // page the service worker opened from its cache because the network failed (it marks the page
  // data-served-offline) may be told it is online while the network is still gone. While the page
  // holds itself offline but the browser says online, it asks /ping/ every few seconds; the first
  // answer brings it back. The page's scripts hear "muster:online" and "muster:offline", sent once the
  // state has changed (game.js sends its queue then), not the browser's events, which may come first.
  var offlineNow = !navigator.onLine || root.hasAttribute("data-served-offline");
  var PROBE_EVERY = 4000;
  var probeTimer = null;
  // A request that got no answer at all (htmx's sendError, game.js's sends: the network, not the
  // server, failed) also means the network is gone, whatever the browser says.
  function lost() { if (!offlineNow) change(true); }
  window.MusterNetwork = { offline: function () { return offlineNow; }, lost: lost };
  document.addEventListener("htmx:sendError", lost);

  function probe() {
    probeTimer = null;
    if (!offlineNow) return;
    if (!navigator.onLine) return;  // the browser knows it is offline: its "online" event will come
    fetch("/ping/", { cache: "no-store", credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error("no answer");
      change(false);
    }).catch(function () {
      probeTimer = setTimeout(probe, PROBE_EVERY);
    });
  }

  function change(offline) {
    offlineNow = offline;
    if (offlineNow && probeTimer === null) probeTimer = setTimeout(probe, PROBE_EVERY);
    banner();
    window.dispatchEvent(new Event(offlineNow ? "muster:offline" : "muster:online"));
  }

  // A page already open when the network goes says so plainly (a game cannot follow the other phone).
  var TEXT = {
    en: "You are offline: this page cannot reach the server until the network is back.",
    fr: "Vous êtes hors ligne : cette page ne peut pas joindre le serveur tant que le réseau n'est pas revenu.",
  };
  function banner() {
    // Pages style what needs the network (odds now, a game's queue) from this class.
    root.classList.toggle("offline", offlineNow);
    var note = document.getElementById("offline-banner");
    if (!offlineNow) { if (note) note.remove(); return; }
    if (note) return;
    note = document.createElement("p");
    note.id = "offline-banner";
    note.className = "message message-error";
    note.setAttribute("role", "status");
    note.textContent = TEXT[(root.lang || "en").slice(0, 2)] || TEXT.en;
    document.body.insertBefore(note, document.body.firstChild);
  }
  window.addEventListener("offline", function () { change(true); });
  window.addEventListener("online", function () { change(false); });
  banner();
  if (offlineNow) probeTimer = setTimeout(probe, PROBE_EVERY);

  if (!("serviceWorker" in navigator) || !window.caches) return;
  var META_CACHE = "muster-meta";
  var USER_KEY = "/__muster/user";
  var user = (document.body && document.body.dataset.offlineUser) || "";

  function forget(keep) {
    return caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        var at = key.indexOf("-pages-");
        return at !== -1 && (keep === null || key.slice(at + 7) !== keep);
      }).map(function (key) { return caches.delete(key); }));
    });
  }

  function remember(who) {
    return caches.open(META_CACHE).then(function (cache) {
      return cache.put(USER_KEY, new Response(who, { headers: { "Content-Type": "text/plain" } }));
    });
  }

  // Anonymous pages (the reference) are kept under the empty user; they hold nothing private.
  Promise.all([remember(user), forget(user)]).then(function () {
    return navigator.serviceWorker.register("/sw.js");
  }).catch(function () { /* no offline copy, the site still works */ });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || form.getAttribute("action") !== "/accounts/logout/") return;
    if (form.dataset.offlineCleared) return;
    event.preventDefault();
    // Game actions played offline and not sent yet are this user's too: they go with the rest,
    // and so does the board game.js keeps to take one of them back (muster-base:).
    Object.keys(localStorage).forEach(function (key) {
      if (key.indexOf("muster-queue:") === 0 || key.indexOf("muster-base:") === 0) localStorage.removeItem(key);
    });
    Promise.all([remember(""), forget(null)]).finally(function () {
      form.dataset.offlineCleared = "1";
      form.submit();
    });
  });
})();
