/* Registers the service worker (static/site/sw.js, served at /sw.js) and keeps its caches to the
   signed-in user: on every page it records who that is and deletes the pages kept for anyone else,
   and at logout it deletes them all before the form is sent. */
(function () {
  "use strict";
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

  // A page already open when the network goes says so plainly (a game cannot follow the other phone).
  var TEXT = {
    en: "You are offline: this page cannot reach the server until the network is back.",
    fr: "Vous êtes hors ligne : cette page ne peut pas joindre le serveur tant que le réseau n'est pas revenu.",
  };
  function banner() {
    // Pages style what needs the network (odds now, a game's queue) from this class.
    document.documentElement.classList.toggle("offline", !navigator.onLine);
    var note = document.getElementById("offline-banner");
    if (navigator.onLine) { if (note) note.remove(); return; }
    if (note) return;
    note = document.createElement("p");
    note.id = "offline-banner";
    note.className = "message message-error";
    note.setAttribute("role", "status");
    note.textContent = TEXT[(document.documentElement.lang || "en").slice(0, 2)] || TEXT.en;
    document.body.insertBefore(note, document.body.firstChild);
  }
  window.addEventListener("offline", banner);
  window.addEventListener("online", banner);
  banner();

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
