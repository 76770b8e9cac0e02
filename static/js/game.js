/* Game day in the browser (issue 26).

   1. Every tap and poll says which board the phone shows (its revision and its last action, from
      #game-sync), so the server answers with only what changed, out of band.
   2. The board as the phone last saw it is handed to the service worker after every change, so
      it opens offline at that state (kept in the signed-in user's cache, dropped at logout).
   3. Offline, a game played on this phone alone (#game-sync[data-one-phone]) goes on: each action
      is queued in localStorage and shown on the board as waiting; when the network is back the
      queue is sent in order, each action on the revision the previous one made. A refusal stops
      the queue and says so; nothing is dropped unless the player drops it. A game followed on two
      phones shows the last state it saw and catches up (the poll waits for the network). */
(function () {
  "use strict";

  function sync() { return document.getElementById("game-sync"); }
  function offline() { return !navigator.onLine; }
  function queueKey() { var s = sync(); return s ? "muster-queue:" + s.dataset.base : null; }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["x-csrftoken"] || ""; }
    catch (error) { return ""; }
  }

  function readQueue() {
    var key = queueKey();
    if (!key) return [];
    try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (error) { return []; }
  }
  function writeQueue(queue) {
    var key = queueKey();
    if (!key) return;
    if (queue.length) localStorage.setItem(key, JSON.stringify(queue));
    else localStorage.removeItem(key);
    showWaiting();
  }

  function showWaiting() {
    var note = document.getElementById("offline-waiting");
    if (!note) return;
    var count = readQueue().length;
    note.textContent = count ? note.dataset.label + " " + count : "";
    document.documentElement.classList.toggle("game-queued", count > 0);
  }

  // The page as it is now, for the service worker to open offline. Copying the page costs a
  // phone tens of milliseconds: it waits until the tap's answer is on screen and the phone idle.
  var keepTimer = null;
  function keepBoard() {
    if (keepTimer !== null) return;
    keepTimer = setTimeout(function () {
      keepTimer = null;
      if (window.requestIdleCallback) window.requestIdleCallback(keepBoardNow, {timeout: 2000});
      else keepBoardNow();
    }, 200);
  }

  function keepBoardNow() {
    var s = sync();
    if (!s || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    var copy = document.documentElement.cloneNode(true);
    var banner = copy.querySelector("#offline-banner");
    if (banner) banner.remove();
    copy.classList.remove("offline");
    navigator.serviceWorker.controller.postMessage({
      type: "keep-board",
      url: location.pathname,
      html: "<!doctype html>\n" + copy.outerHTML,
    });
  }

  // --- What a queued action shows at once -----------------------------------------------------

  function pick(name, params) { return params.get(name) || ""; }

  function number(el) { return el ? parseInt(el.textContent, 10) || 0 : 0; }

  function drawSide() {
    // A die from the bag as it shows: each side's chance is its share of the dice left.
    var a = number(document.querySelector("#dice-a strong"));
    var b = number(document.querySelector("#dice-b strong"));
    if (a + b === 0) return "";
    var roll = new Uint32Array(1);
    crypto.getRandomValues(roll);
    return roll[0] % (a + b) < a ? "a" : "b";
  }

  function giveOrderButtons(row, extraClass) {
    var template = document.getElementById("order-form-template");
    if (!template || row.querySelector(".order-form")) return;
    var form = template.content.firstElementChild.cloneNode(true);
    if (extraClass) form.classList.add(extraClass);
    form.querySelector("input[name=unit]").value = row.id.slice(2);
    row.querySelector(".unit-head").after(form);
    row.classList.add("unit-awaits");
    window.htmx.process(form);
  }

  function offerOrders(side) {
    document.querySelectorAll("li.unit").forEach(function (row) {
      if (row.dataset.side !== side) return;
      if (parseInt(row.dataset.ordersLeft, 10) > 0 && !row.classList.contains("unit-destroyed")) {
        giveOrderButtons(row, "offline-order");
      }
    });
  }

  // After a fragment: the units that may take the drawn die without a test (#game-awaits) get
  // the order buttons from the template; the others lose theirs (a pinned unit's, with its
  // test, and an officer's passed-on order come with its row from the server).
  function syncOrderButtons() {
    var awaits = document.getElementById("game-awaits");
    if (!awaits) return;
    var keys = awaits.dataset.units.split(" ").filter(Boolean);
    document.querySelectorAll("li.unit").forEach(function (row) {
      if (keys.indexOf(row.id.slice(2)) !== -1) {
        giveOrderButtons(row, "");
      } else if (!row.querySelector(".order-test")) {
        row.querySelectorAll("form.order-form:not(.snap-form)").forEach(function (form) { form.remove(); });
        if (!row.querySelector(".snap-form")) row.classList.remove("unit-awaits");
      }
    });
  }

  function dropOrderForms() {
    document.querySelectorAll("li.unit .order-form").forEach(function (form) { form.remove(); });
    document.querySelectorAll("li.unit-awaits").forEach(function (row) { row.classList.remove("unit-awaits"); });
  }

  function mark(row, text) {
    if (!row) return;
    row.classList.add("unit-queued");
    var status = row.querySelector(".unit-status");
    var badge = document.createElement("span");
    badge.className = "badge badge-queued";
    badge.textContent = text;
    status.appendChild(badge);
  }

  function showLocally(params, label) {
    var action = pick("action", params);
    var row = document.getElementById("u-" + pick("unit", params));
    var delta = parseInt(pick("delta", params) || "1", 10);
    if (action === "pins" || action === "casualties") {
      var form = row && row.querySelector("input[name=action][value=" + action + "]").form;
      var shown = form && form.querySelector("strong");
      if (shown) shown.textContent = Math.max(number(shown) + (action === "pins" ? delta : -delta), 0);
      mark(row, label);
    } else if (action === "remove" || action === "damage") {
      if (action === "remove") row.classList.add("unit-destroyed");
      mark(row, label);
    } else if (action === "record") {
      var dice = document.querySelector("#dice-" + pick("side", params) + " strong");
      if (dice) dice.textContent = Math.max(number(dice) - 1, 0);
      dropOrderForms();
      offerOrders(pick("side", params));
    } else if (action === "order" || action === "snap") {
      row.dataset.ordersLeft = Math.max(parseInt(row.dataset.ordersLeft, 10) - 1, 0);
      dropOrderForms();
      mark(row, label);
    } else if (action === "end_turn") {
      dropOrderForms();
      document.querySelectorAll(".badge-queued").forEach(function (badge) { badge.remove(); });
    }
    var current = document.getElementById("current-die");
    if (current && (action === "record" || action === "order" || action === "end_turn")) current.hidden = true;
  }

  // --- Taps: say which board they were made on; offline, queue them ---------------------------

  document.addEventListener("htmx:configRequest", function (event) {
    var s = sync();
    var game = document.getElementById("game");
    if (!s || !game || !game.contains(event.detail.elt)) return;
    var params = event.detail.parameters;
    if (event.detail.verb === "get") {
      if (offline()) event.preventDefault();  // the poll waits for the network
      return;
    }
    params.seen = s.dataset.seen;
    if (params.rev !== undefined) params.rev = s.dataset.revision;
    if (!offline()) return;
    event.preventDefault();
    if (s.dataset.onePhone === undefined) return;  // two phones: this one only follows offline
    var entries = new URLSearchParams();
    var form = event.detail.formData || null;
    if (form && form.forEach) form.forEach(function (value, name) { entries.append(name, value); });
    else Object.keys(params).forEach(function (name) { entries.append(name, params[name]); });
    if (pick("action", entries) === "record" && pick("side", entries) === "?") entries.set("side", drawSide());
    if (pick("action", entries) === "draw") { entries.set("action", "record"); entries.set("side", drawSide()); }
    entries.delete("seen");
    var queue = readQueue();
    // Each action accepted moves the revision by one: a guarded action must meet the revision
    // the actions queued before it will have made, or the game moved on elsewhere meanwhile.
    entries.set("rev", String(parseInt(s.dataset.revision, 10) + queue.length));
    var label = (document.getElementById("offline-waiting") || {dataset: {}}).dataset.label || "";
    queue.push({path: event.detail.path, body: entries.toString()});
    writeQueue(queue);
    showLocally(entries, label.replace(/:\s*$/, ""));
    keepBoard();
  });

  // --- Back online: send the queue in order ---------------------------------------------------

  var sending = false;

  function refusedText(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var error = doc.querySelector("#game-bar .message-error");
    return {error: error ? error.textContent.trim() : "", sync: doc.getElementById("game-sync")};
  }

  var refused = "";  // the last refusal, said again on the board brought up to date after it

  function conflict(message) {
    refused = message;
    var box = document.getElementById("offline-conflict");
    if (!box || !message) return;
    document.getElementById("offline-conflict-text").textContent =
      box.dataset.refused + " " + message + " " + box.dataset.kept;
    box.hidden = false;
  }

  function reloadBoard() {
    var s = sync();
    if (!s) return Promise.resolve();
    // No "seen": the whole board, as the server has it now.
    return window.htmx.ajax("GET", s.dataset.base, {target: "#game", swap: "outerHTML"});
  }

  async function flush() {
    if (sending || offline()) return;
    var queue = readQueue();
    if (!queue.length) return;
    sending = true;
    refused = "";
    document.getElementById("offline-conflict").hidden = true;
    try {
      while (queue.length) {
        var item = queue[0];
        var response = await fetch(item.path, {
          method: "POST",
          body: new URLSearchParams(item.body),
          headers: {"HX-Request": "true", "X-CSRFToken": csrf()},
          credentials: "same-origin",
        });
        var answer = refusedText(await response.text());
        if (!response.ok || answer.error) {
          conflict(answer.error || response.status + " " + response.statusText);
          break;
        }
        queue.shift();
        writeQueue(queue);
      }
    } catch (error) {
      // The network went again: the rest waits for the next "online".
    } finally {
      sending = false;
    }
    await reloadBoard();
  }

  document.addEventListener("click", function (event) {
    if (event.target.id === "offline-retry") flush();
    if (event.target.id === "offline-drop") {
      var queue = readQueue();
      queue.shift();
      writeQueue(queue);
      document.getElementById("offline-conflict").hidden = true;
      refused = "";
      if (queue.length) flush();
      else reloadBoard();
    }
  });

  window.addEventListener("online", function () {
    if (readQueue().length) flush();
    else reloadBoard();
  });

  // --- Keeping the board up to date, and the back button --------------------------------------

  // A row sent again keeps its tools open: the next tap on the same unit is one tap, not two.
  var openTools = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    // A poll sent before a tap may come back after it: an answer older than the board is dropped
    // (the revision only goes up, undo included), or the board would step back for a poll.
    var s = sync();
    var found = /id="game-sync"[^>]*data-revision="(\d+)"/.exec(event.detail.serverResponse || "");
    if (s && found && parseInt(found[1], 10) < parseInt(s.dataset.revision, 10)) {
      event.detail.shouldSwap = false;
      return;
    }
    openTools = Array.prototype.map.call(document.querySelectorAll("li.unit details.unit-tools[open]"), function (el) {
      return el.closest("li.unit").id;
    });
  });
  document.addEventListener("htmx:afterSettle", function () {
    openTools.forEach(function (id) {
      var tools = document.querySelector("#" + id + " details.unit-tools");
      if (tools) tools.open = true;
    });
    openTools = [];
    syncOrderButtons();
    if (refused && readQueue().length) conflict(refused);
    keepBoard();
    showWaiting();
  });
  window.addEventListener("pageshow", function (event) {
    // A page the browser kept in memory (back/forward cache) may be older than the game: ask at once.
    if (event.persisted && sync() && !offline()) reloadBoard();
  });
  document.addEventListener("DOMContentLoaded", function () {
    showWaiting();
    if (!offline() && readQueue().length) flush();
    if (navigator.serviceWorker) navigator.serviceWorker.ready.then(keepBoard);
  });
})();
