/* Game day in the browser.

   1. Every tap and poll says which board the phone shows (its revision and its last action, from
      #game-sync, and the print of each row and panel on it, data-print), so the server builds the
      board once and answers with only the pieces whose print moved, out of band.
   2. The board as the phone last saw it is handed to the service worker after every change, so
      it opens offline at that state (kept in the signed-in user's cache, dropped at logout).
   3. Offline, a game played on this phone alone (#game-sync[data-one-phone]) goes on: each action
      is queued in localStorage and shown on the board as waiting; when the network is back the
      queue is sent in order, each action on the revision the previous one made. A refusal stops
      the queue and says so; nothing is dropped unless the player drops it. A game followed on two
      phones shows the last state it saw and catches up (the poll waits for the network). Each
      phone of a two-phone game (#game-sync[data-two-phones], from an event pairing) goes on for its
      own side: its queue, each action with the time it was made and the board it was made on, is
      sent whole to merge/ and merged on the server with the other phone's, by time.
   4. Offline, an order test is rolled here (or the typed dice taken) and its result shown at once;
      the action is queued with those dice, so the server replays the very same roll. The page keeps
      the board as the server last sent it ("muster-base:"), so taking back a queued action is: drop
      it, put that board back and show the remaining queued actions on it again. */
(function () {
  "use strict";

  // The rules the phone works out (game_rules.js, loaded first): tested in Node against the engine.
  var RULES = window.MusterGameRules;

  function sync() { return document.getElementById("game-sync"); }
  // offline.js knows better than navigator.onLine (a page opened from the cache, a dead network).
  function offline() { return window.MusterNetwork ? window.MusterNetwork.offline() : !navigator.onLine; }
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
    else { localStorage.removeItem(key); dropBase(); }
    showWaiting();
  }

  // The board without any queued action on it: what an offline undo starts again from.
  function baseKey() { var s = sync(); return s ? "muster-base:" + s.dataset.base : null; }
  function keepBase() {
    var key = baseKey();
    var game = document.getElementById("game");
    if (!key || !game) return;
    try { localStorage.setItem(key, game.outerHTML); } catch (error) { localStorage.removeItem(key); }
  }
  function dropBase() { var key = baseKey(); if (key) localStorage.removeItem(key); }

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
  var keepPending = false;
  function keepBoard() {
    keepPending = true;
    if (keepTimer !== null) return;
    keepTimer = setTimeout(function () {
      keepTimer = null;
      if (window.requestIdleCallback) window.requestIdleCallback(keepBoardNow, {timeout: 2000});
      else keepBoardNow();
    }, 200);
  }

  // Leaving (a reload, another page) before the phone was idle: keep the board as it is now, so
  // the page opened offline next shows the last taps too.
  window.addEventListener("pagehide", function () {
    if (keepPending) keepBoardNow();
  });

  function keepBoardNow() {
    keepPending = false;
    var s = sync();
    if (!s || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    var root = document.documentElement;
    // Online (the usual case) the page is kept as it is; copying it first, to take the offline
    // banner and class off, costs a phone as much again and is only needed offline.
    if (document.getElementById("offline-banner") || root.classList.contains("offline")) {
      root = root.cloneNode(true);
      var banner = root.querySelector("#offline-banner");
      if (banner) banner.remove();
      root.classList.remove("offline");
      root.removeAttribute("data-served-offline");
    }
    navigator.serviceWorker.controller.postMessage({
      type: "keep-board",
      url: location.pathname,
      html: "<!doctype html>\n" + root.outerHTML,
      // The page's scripts and styles: on the first visit they came before the worker did.
      assets: Array.prototype.map.call(
        document.querySelectorAll("script[src], link[rel=stylesheet][href]"),
        function (el) { return el.src || el.href; }
      ),
    });
  }

  // --- What a queued action shows at once -----------------------------------------------------

  function pick(name, params) { return params.get(name) || ""; }

  function number(el) { return el ? parseInt(el.textContent, 10) || 0 : 0; }

  // The edition's numbers and the log's own sentences, as the server sent them with the board
  // (board.offline_words): what the engine would work out is worked out here with the same rules,
  // and written in the same words; the server's replay keeps the last word.
  var wordsRead = null;
  function words() {
    if (wordsRead) return wordsRead;
    var el = document.getElementById("offline-words");
    try { wordsRead = el ? JSON.parse(el.textContent) : null; } catch (error) { wordsRead = null; }
    return wordsRead || {rules: {}, sides: {}, orders: {}, damage: {}, avanti: {}, assault_rule: {}, line: {}};
  }
  var fill = RULES.fill;  // Python's "%(name)s" and "%(name)+d", as gettext left them
  function unitName(row) { var name = row && row.querySelector(".unit-name"); return name ? name.textContent : "?"; }
  function pinsOf(row) { return parseInt(row.dataset.pins, 10) || 0; }
  function turnNow() {
    var shown = document.querySelector(".game-turn strong");
    var found = shown && /\d+/.exec(shown.textContent);
    return found ? parseInt(found[0], 10) : 0;
  }
  // A log line as board.log_line writes it (RULES.logLine, tested against it), on top of the log,
  // until the server's own replaces it. entry: {kind, side, unit (its name), detail, turn (now if
  // not given)}, as the engine logs the action.
  function writeLog(entry) {
    var list = document.getElementById("log-lines");
    // A board kept from before the page carried its sentences writes none (the server's come on sync).
    if (!list || !words().line.turn) return "";
    var empty = document.getElementById("log-empty");
    if (empty) empty.remove();
    var line = document.createElement("li");
    line.className = showingAtOnce ? "log-local" : "log-queued";
    entry.turn = entry.turn || turnNow();
    entry.detail = entry.detail || {};
    if (typedNow) entry.detail.typed = true;
    line.textContent = RULES.logLine(words(), entry);
    list.prepend(line);
    return line.textContent;
  }
  // Pins at the unit's unmodified morale destroy it (rules.game.engine._pin_limit_reached), unless it
  // is Fanatic (data-fanatic) with two or more men left; men unknown: routed, as the engine has it.
  function routs(row) {
    var men = modelsOf(row);
    var limit = parseInt(row.dataset.limit, 10) || Infinity;
    return RULES.routs(pinsOf(row), limit, !!words().rules.pin_rout, !!row.dataset.fanatic, men ? men.left : null);
  }
  function statusBadge(row, text) {
    var badge = document.createElement("span");
    badge.className = "badge badge-disputed";
    badge.textContent = text;
    row.querySelector(".unit-status").appendChild(badge);
    return badge;
  }
  // A unit destroyed (pins, casualties, knocked out, removed): its dice leave the bag and the game
  // (rules.game.engine._destroy, GameState.dice_in_bag), its row keeps no tools.
  function destroy(row) {
    if (row.classList.contains("unit-destroyed")) return;
    var count = document.querySelector("#dice-" + row.dataset.side + " strong");
    if (count) {
      count.textContent = Math.max(number(count) - (parseInt(row.dataset.ordersLeft, 10) || 0), 0);
      var total = count.nextSibling;
      if (total) total.textContent = total.textContent.replace(/\d+/, function (n) {
        return String(Math.max(parseInt(n, 10) - (parseInt(row.dataset.dice, 10) || 0), 0));
      });
    }
    row.dataset.ordersLeft = 0;
    row.classList.add("unit-destroyed");
    row.classList.remove("unit-awaits");
    row.querySelectorAll(".order-form, details.unit-tools, .on-fire-note").forEach(takeAway);
    statusBadge(row, words().destroyed);
  }
  // What a tap takes off the board: online the tap's own form is hidden, not removed, as htmx tells
  // the page of its answer through it (the answer's rows and bar take the hidden ones away).
  function takeAway(el) {
    if (showingAtOnce) el.hidden = true;
    else el.remove();
  }
  function setModels(row, models) {
    var input = row.querySelector("input[name=action][value=casualties]");
    var shown = input && input.form.querySelector("strong");
    if (shown) shown.textContent = models;
    var head = row.querySelector(".unit-head .source");
    if (head) head.textContent = head.textContent.replace(/\d+(?=\/\d)/, String(models));
  }
  function modelsOf(row) {
    var head = row.querySelector(".unit-head .source");
    var found = head && /(\d+)\/(\d+)/.exec(head.textContent);
    return found ? {left: parseInt(found[1], 10), start: parseInt(found[2], 10)} : null;
  }

  function drawSide() {
    // A die from the bag as it shows (RULES.drawSide, tested against engine.draw).
    var a = number(document.querySelector("#dice-a strong"));
    var b = number(document.querySelector("#dice-b strong"));
    if (a + b === 0) return "";
    var roll = new Uint32Array(1);
    crypto.getRandomValues(roll);
    return RULES.drawSide({a: a, b: b}, roll[0]);
  }

  function giveOrderButtons(row, extraClass) {
    var template = document.getElementById("order-form-template");
    if (!template || row.querySelector(".order-form:not([hidden])")) return;
    var form = template.content.firstElementChild.cloneNode(true);
    if (extraClass) form.classList.add(extraClass);
    form.querySelector("input[name=unit]").value = row.id.slice(2);
    var morale = extraClass ? testMorale(row, 0, false) : null;
    if (morale !== null) {
      // A die drawn offline for a pinned unit: its test's target, worked out here.
      var test = form.querySelector(".offline-test");
      test.hidden = false;
      test.querySelector(".order-test").textContent = say(panel().dataset.test, {morale: morale});
      test.querySelector(".order-test").dataset.morale = morale;
    }
    row.querySelector(".unit-head").after(form);
    row.classList.add("unit-awaits");
    waitForAnswer(form);
    window.htmx.process(form);
  }

  // Online, the order buttons a die drawn (or an officer's order) offers at the tap are shown at once
  // but wait for the server's answer before they can be tapped: an order sent before the server has
  // the die would be refused. The answer's settling lets them go (syncOrderButtons).
  function waitForAnswer(form) {
    if (!showingAtOnce) return;
    form.dataset.waits = "1";
    form.querySelectorAll("button").forEach(function (button) { button.disabled = true; });
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
    // The buttons shown at a tap wait no more, and the forms an online tap hid (its own, the others it
    // took away) go, once its answer is in.
    if (!atOnce.size) {
      document.querySelectorAll("form.order-form[data-waits]").forEach(function (form) {
        delete form.dataset.waits;
        form.querySelectorAll("button").forEach(function (button) { button.disabled = false; });
      });
    }
    document.querySelectorAll("li.unit form.order-form[hidden]").forEach(function (form) {
      if (!atOnce.has(form)) form.remove();
    });
    keys.forEach(function (key) {
      var row = document.getElementById("u-" + key);
      if (row) giveOrderButtons(row, "");
    });
    // Only the rows that have order buttons now are looked at, not the whole board: this runs
    // after every tap, on a phone's CPU.
    var rows = new Set(document.querySelectorAll("li.unit-awaits"));
    document.querySelectorAll("li.unit form.order-form").forEach(function (form) { rows.add(form.closest("li.unit")); });
    rows.forEach(function (row) {
      if (!row || keys.indexOf(row.id.slice(2)) !== -1) return;
      if (row.querySelector("form.order-form:not(.offline-order) .order-test")) return;
      row.querySelectorAll("form.order-form:not(.snap-form)").forEach(function (form) { form.remove(); });
      if (!row.querySelector(".snap-form")) row.classList.remove("unit-awaits");
    });
  }

  function dropOrderForms() {
    document.querySelectorAll("li.unit .order-form").forEach(takeAway);
    document.querySelectorAll("li.unit-awaits").forEach(function (row) { row.classList.remove("unit-awaits"); });
  }

  function panel() { return document.getElementById("game-words") || {dataset: {}}; }
  function say(template, values) {
    return (template || "").replace(/\{(\w+)\}/g, function (all, name) { return values[name]; });
  }
  function note(text) { var el = document.getElementById("offline-note"); if (el) el.textContent = text; }
  function die() { var r = new Uint32Array(1); crypto.getRandomValues(r); return 1 + (r[0] % 6); }
  function typed(value) { var n = parseInt(value, 10); return n >= 1 && n <= 6 ? n : 0; }

  // The morale the order test is taken against, as the engine has it (rules.combat.morale.order_test):
  // the unit's morale with its side's Avanti modifier and a lost NCO's (data-morale), plus the
  // officer's bonus, less one a pin (Tiger Fear: one more), within the edition's limits. ``shed``:
  // the pin Vengeance's die took just before; the test is taken all the same, even without a pin
  // left (null: no test, the unit had no pin).
  function testMorale(row, bonus, tiger, shed) {
    var unit = {morale: parseInt(row.dataset.morale, 10), pins: pinsOf(row)};
    return RULES.testMorale(unit, "", bonus, tiger, shed, words().rules.morale_range || [2, 10]);
  }

  // Vengeance's die (a pinned British unit, the box ticked): typed, or rolled here, before the test.
  function vengeanceShed(entries) {
    return entries.get("vengeance") ? RULES.vengeanceShed(typed(entries.get("vengeance_die"))) : 0;
  }

  function officerBonus(form, entries) {
    if (!form) return 0;
    if (pick("action", entries) === "snap") return parseInt(form.dataset.bonus, 10) || 0;
    var officer = form.querySelector("select[name=officer]");
    var option = officer && officer.selectedOptions[0];
    return option ? parseInt(option.dataset.bonus, 10) || 0 : 0;
  }

  // Offline, before the order is queued: its test's dice, typed or rolled here, go into the action
  // (die1, die2; a commissar's re-roll too), so that the server replays exactly this roll.
  function rollTest(row, form, entries) {
    if (!row) return;
    if (entries.get("vengeance")) {
      var own = typed(entries.get("vengeance_die"));
      entries.set("vengeance_die", own || die());
    } else entries.delete("vengeance_die");
    if (entries.get("banzai")) return;
    // A pinned unit given Down takes no test (rules.game.engine._test_needed).
    var down = pick("order", entries) === "down";
    var shed = vengeanceShed(entries);
    var morale = down ? null : testMorale(row, officerBonus(form, entries), !!entries.get("tiger_fear"), shed);
    if (morale !== null) rollOrderTest(entries, morale);
    // The FUBAR chart's D6 and a Rally's (2nd and 1st editions), as rules.game.engine._roll_test rolls them.
    var result = morale === null ? {given: entries.get("order") || ""} : testResult(entries);
    if (result.given === "fubar") entries.set("fubar", die());
    if (result.given === "rally" && words().rules.rally === "d6") entries.set("rally", die());
  }

  // A support roll's dice, typed or rolled here, go into the action: the server replays them.
  function rollSupport(entries) {
    var info = ((words().support || {})[entries.get("side")] || {})[entries.get("roll")];
    if (!info) return;
    ["sdie1", "sdie2"].slice(0, info.dice).forEach(function (name) {
      entries.set(name, typed(entries.get(name)) || die());
    });
  }

  function rollOrderTest(entries, morale) {
    var d1 = typed(entries.get("die1")), d2 = typed(entries.get("die2"));
    if (!d1 || !d2) { d1 = die(); d2 = die(); }
    entries.set("die1", d1);
    entries.set("die2", d2);
    entries.set("morale", morale);  // not read by the server: what the page showed, to replay it here
    if (entries.get("commissar") && RULES.retakes([d1, d2], morale)) {
      var r1 = typed(entries.get("reroll1")), r2 = typed(entries.get("reroll2"));
      if (!r1 || !r2) { r1 = die(); r2 = die(); }
      entries.set("reroll1", r1);
      entries.set("reroll2", r2);
    }
  }

  // The order a tested unit takes, from the dice in the queued action: the order, "down" or "fubar".
  function testResult(entries) {
    var morale = parseInt(entries.get("morale"), 10);
    var dice = [typed(entries.get("die1")), typed(entries.get("die2"))];
    if (entries.get("reroll1")) dice = [typed(entries.get("reroll1")), typed(entries.get("reroll2"))];
    return RULES.testOutcome(dice, null, morale, entries.get("order") || "");
  }

  function orderLabel(order) {
    var template = document.getElementById("order-form-template");
    var found = template && template.content.querySelector("button[value=" + order + "]");
    return found ? found.textContent : order;
  }

  function setPins(row, pins) {
    row.dataset.pins = pins;
    var input = row.querySelector("input[name=action][value=pins]");
    var shown = input && input.form.querySelector("strong");
    if (shown) shown.textContent = pins;
    // The badge by the name says it too ("1 pin", "2 pins", none at 0), in the page's language.
    var badge = row.querySelector(".badge-pins");
    if (!pins) { if (badge) badge.remove(); return; }
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "badge badge-pins";
      row.querySelector(".unit-status").prepend(badge);
    }
    var words = pins === 1 ? panel().dataset.pinOne : panel().dataset.pinMany;
    badge.textContent = words ? words.replace(/\d+/, String(pins)) : String(pins);
  }

  // An NCO killed offline: Initiative Training's die (2nd edition), typed or rolled here and sent, so
  // the server keeps the same one; "nco_lost" (the morale modifier, not read by the server) says
  // the NCO is gone, for the row and the tests queued after it.
  function rollNco(form, entries) {
    var box = form && form.querySelector("fieldset.nco");
    if (!box || !entries.get("nco") || (parseInt(entries.get("delta"), 10) || 0) < 1) return;
    if (box.hasAttribute("data-initiative")) {
      var nco = typed(entries.get("nco_die")) || die();
      entries.set("nco_die", nco);
      if (!RULES.ncoLost(true, nco)) return;  // another man takes over
    }
    entries.set("nco_lost", box.dataset.penalty || "0");
  }

  function loseNco(row, penalty) {
    row.dataset.morale = (parseInt(row.dataset.morale, 10) || 0) + penalty;
    if (penalty) row.dataset.nco = penalty;
    var box = row.querySelector("fieldset.nco");
    if (box) box.remove();  // lost once: the box goes, as the server's row will have it
    var badge = document.createElement("span");
    badge.className = "badge badge-nco";
    badge.textContent = panel().dataset.ncoLost || "NCO";
    row.querySelector(".unit-status").appendChild(badge);
  }

  // The NCO among a casualty's dead, as the engine logs it (rules.game.engine._casualties): lost or
  // replaced on Initiative Training's die; without a die, the penalty is -1 or, where the side's rule
  // ignores it, none.
  function ncoDetail(entries, detail) {
    if (!entries.get("nco")) return;
    var lost = entries.get("nco_lost");
    detail.nco = lost !== null ? "lost" : "replaced";
    if (entries.get("nco_die")) detail.nco_die = parseInt(entries.get("nco_die"), 10);
    detail.nco_penalty = parseInt(lost, 10) || 0;
    if (lost === "0") detail.rule = "initiative-training";
  }

  // The order as rules.game.engine._take_order gives it: the test, its pin, FUBAR, Rally; and its log
  // line, from the detail the engine would log.
  function takeOrder(row, entries, label) {
    var w = words();
    var order = pick("order", entries);
    var given = order;
    var before = pinsOf(row), pins = before;
    var side = row.dataset.side;
    var action = pick("action", entries);
    var d = {order: order, pins_before: before};
    if (action === "snap") d.officer = entries.get("officer_name") || "?";
    var shed = 0;
    if (entries.get("vengeance_die") && entries.get("vengeance")) {
      shed = vengeanceShed(entries) ? 1 : 0;
      d.vengeance = parseInt(entries.get("vengeance_die"), 10);
      d.vengeance_shed = !!shed;
    }
    if (entries.get("banzai")) {
      d.banzai = true;
      d.rule = (w.assault_rule || {})[side] || "";
    } else {
      if (entries.get("tiger_fear")) d.tiger_fear = true;
      if ((w.avanti || {})[side]) d.avanti = w.avanti[side];
      if (row.dataset.nco) d.nco = parseInt(row.dataset.nco, 10);
    }
    if (entries.get("morale")) {
      var result = testResult(entries);
      var dice = result.dice.join("+");
      given = result.given;
      if (entries.get("reroll1") && entries.get("commissar") && w.line.commissar) {
        var men = modelsOf(row);
        if (men) setModels(row, men.left - 1);
        d.commissar = true;
        d.first = [parseInt(entries.get("die1"), 10), parseInt(entries.get("die2"), 10)];
        if (men) d.models = men.left - 1;
      }
      d.dice = result.dice;
      d.morale = parseInt(entries.get("morale"), 10);
      if (given === "fubar") {
        var chart = parseInt(entries.get("fubar"), 10) || 0;
        d.fubar = RULES.fubarOutcome(chart, w.rules.fubar_faces || 0);
        note(say(panel().dataset.fubar, {dice: dice, die: chart}) + " · " + w.line[d.fubar]);
      } else if (given === "down") {
        d.failed = true;
        note(say(panel().dataset.failed, {dice: dice, order: orderLabel("down")}));
      } else {
        d.passed = true;
        note(say(panel().dataset.passed, {dice: dice, order: orderLabel(order)}));
      }
      mark(row, given === "fubar" ? "FUBAR" : orderLabel(given), "badge-test");
    }
    pins = RULES.pinsAfterOrder(before, order, given, {
      shed: shed,
      banzai: !!entries.get("banzai"),
      tested: !!entries.get("morale"),
      rally: parseInt(entries.get("rally"), 10) || 0,
      rallyAll: w.rules.rally === "all",
    });
    d.given = given;
    d.pins_after = pins;
    setPins(row, pins);
    if (given) row.dataset.order = given;
    row.dataset.ordersLeft = Math.max(parseInt(row.dataset.ordersLeft, 10) - 1, 0);
    mark(row, label);
    // An officer who took the order he was given passes it on ("snap to action"), Blitzkrieg to one
    // more unit (rules.game.engine._order).
    var passOn = 0;
    if (action === "order") {
      var blitz = !!(w.blitzkrieg && w.blitzkrieg[side]);
      var takers = Array.prototype.some.call(document.querySelectorAll("li.unit"), function (other) {
        return other !== row && other.dataset.side === side && !other.classList.contains("unit-destroyed") &&
          parseInt(other.dataset.ordersLeft, 10) > 0;
      });
      passOn = RULES.snapPassOn(parseInt(row.dataset.extra, 10) || 0, blitz, given === order, takers);
      if (passOn && blitz) d.blitzkrieg = true;
    }
    var line = writeLog({kind: action, side: side, unit: unitName(row), detail: d});
    if (showingAtOnce) showOrderNow(row, given, line);
    return passOn;
  }

  // Online, the order a unit took shows at the tap where the answer will put it: its row's order
  // badge and the bar's last order (the answer's row and bar replace both).
  function showOrderNow(row, given, line) {
    var badge = row.querySelector(".badge-order");
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "badge badge-order";
      var pins = row.querySelector(".badge-pins");
      if (pins) pins.after(badge);
      else row.querySelector(".unit-status").prepend(badge);
    }
    badge.textContent = words().orders[given] || given;
    var last = document.getElementById("last-order");
    if (last && line) last.textContent = line;
  }

  // The officer's order offered to the other units of his side that can still take one, each
  // with a die of its own (and its own test if pinned, with his bonus).
  function offerSnap(officer, order, left) {
    var template = document.getElementById("snap-form-template");
    var slot = document.getElementById("snap-slot");
    if (!template || !slot || !left) return;
    slot.dataset.left = left;
    var w = words();
    document.querySelectorAll("li.unit").forEach(function (row) {
      if (row === officer || row.dataset.side !== officer.dataset.side) return;
      if (row.classList.contains("unit-destroyed") || !(parseInt(row.dataset.ordersLeft, 10) > 0)) return;
      var form = template.content.firstElementChild.cloneNode(true);
      form.querySelector("input[name=unit]").value = row.id.slice(2);
      form.dataset.bonus = officer.dataset.bonus || "0";
      form.dataset.order = order;
      form.dataset.officer = unitName(officer);
      var button = form.querySelector("button");
      button.textContent = fill(w.line.snap_button, {order: w.orders[order] || order, officer: unitName(officer)});
      button.classList.add("order-" + order);
      var morale = testMorale(row, parseInt(form.dataset.bonus, 10) || 0, false);
      if (morale !== null) {
        var test = form.querySelector(".offline-test");
        test.hidden = false;
        test.querySelector(".order-test").textContent = say(panel().dataset.test, {morale: morale});
      }
      row.querySelector(".unit-head").after(form);
      row.classList.add("unit-awaits");
      waitForAnswer(form);
      window.htmx.process(form);
    });
  }

  // A unit took the officer's order: one unit fewer may; none left, the offer ends.
  function passSnap(row) {
    row.querySelectorAll(".snap-form").forEach(takeAway);
    row.classList.remove("unit-awaits");
    var slot = document.getElementById("snap-slot");
    var left = Math.max((parseInt(slot && slot.dataset.left, 10) || 0) - 1, 0);
    if (slot) slot.dataset.left = left;
    if (!left) endSnap();
  }

  function endSnap() {
    var note = document.getElementById("snap");
    if (note) note.remove();
    document.querySelectorAll("li.unit .snap-form").forEach(function (form) {
      var row = form.closest("li.unit");
      takeAway(form);
      if (!row.querySelector(".order-form:not([hidden])")) row.classList.remove("unit-awaits");
    });
  }

  // Staying Down sheds pins at the end of the turn: a D3 each (rolled here and sent, so the server
  // replays it), or every pin, as the edition says (rules.game.engine.end_turn).
  function rollDownPins(entries) {
    if (words().rules.down !== "d3") return;
    var released = entries.getAll("release");
    var rolled = [];
    document.querySelectorAll("li.unit").forEach(function (row) {
      var key = row.id.slice(2);
      if (row.classList.contains("unit-destroyed") || row.dataset.order !== "down") return;
      if (released.indexOf(key) !== -1 || !pinsOf(row)) return;
      rolled.push(key + ":" + Math.floor((die() + 1) / 2));
    });
    if (rolled.length) entries.set("down_pins", rolled.join(" "));
  }

  // The D3 a unit staying Down rolled (sent with the action as key:n), or 0.
  function downD3(entries, row) {
    var found = (entries.get("down_pins") || "").split(" ").filter(function (pair) {
      return pair.split(":")[0] === row.id.slice(2);
    })[0];
    return found ? parseInt(found.split(":")[1], 10) || 0 : 0;
  }

  // End of turn on this phone: every unit not destroyed gets its dice back in the bag, but for a
  // Down or Ambush order kept (not released), whose die stays out (rules.game.engine._end_turn).
  function endTurn(entries) {
    var released = entries.getAll("release");
    var bag = {}, total = {}, shed = [];
    var turn = turnNow();
    document.querySelectorAll("li.unit").forEach(function (row) {
      var side = row.dataset.side;
      bag[side] = bag[side] || 0;
      total[side] = total[side] || 0;
      if (row.classList.contains("unit-destroyed")) { row.dataset.ordersLeft = 0; return; }
      var dice = parseInt(row.dataset.dice, 10) || 0;
      var unit = {destroyed: false, dice: dice, order: row.dataset.order || "", pins: pinsOf(row)};
      var after = RULES.endOfTurn(unit, released.indexOf(row.id.slice(2)) !== -1, words().rules.down, downD3(entries, row));
      var kept = after.kept;
      row.dataset.ordersLeft = after.ordersLeft;
      if (after.pins !== unit.pins) {
        shed.push([unitName(row), unit.pins - after.pins]);
        setPins(row, after.pins);
      }
      if (!kept) {
        row.dataset.order = "";
        row.querySelectorAll(".badge-order, .badge-test").forEach(function (badge) { badge.remove(); });
      }
      bag[side] += parseInt(row.dataset.ordersLeft, 10);
      total[side] += dice;
    });
    Object.keys(bag).forEach(function (side) {
      var count = document.querySelector("#dice-" + side + " strong");
      if (!count) return;
      count.textContent = bag[side];
      if (count.nextSibling) count.nextSibling.textContent = " / " + total[side];
    });
    // "Turn 2", "End turn 2", "End of turn 2": the number goes up by one wherever it is written.
    document.querySelectorAll(".game-turn strong, #end-turn h2, #end-turn-button").forEach(function (el) {
      el.textContent = el.textContent.replace(/\d+/, function (n) { return String(parseInt(n, 10) + 1); });
    });
    document.querySelectorAll("#end-turn input[type=checkbox]").forEach(function (box) { box.checked = false; });
    // An air strike is offered again next turn while calls are left.
    document.querySelectorAll(".support-air").forEach(function (form) {
      if (parseInt(form.dataset.left, 10) > 0) form.hidden = false;
    });
    note(panel().dataset.turnEnded);
    // The engine logs the end of a turn once the turn has moved on: "Turn 2 · End of turn 1".
    writeLog({kind: "end_turn", turn: turn + 1, detail: {turn: turn, down_pins: shed}});
  }

  function mark(row, text, extraClass) {
    if (!row || showingAtOnce) return;  // online: on its way now, nothing waits
    row.classList.add("unit-queued");
    var status = row.querySelector(".unit-status");
    var waiting = !extraClass && status.querySelector(".badge-queued:not(.badge-test)");
    if (waiting) {
      // One badge per unit, counting its actions waiting: nine pins are not nine badges.
      waiting.dataset.count = (parseInt(waiting.dataset.count, 10) || 1) + 1;
      waiting.textContent = text + " \u00d7" + waiting.dataset.count;
      return;
    }
    var badge = document.createElement("span");
    badge.className = "badge badge-queued" + (extraClass ? " " + extraClass : "");
    badge.textContent = text;
    status.appendChild(badge);
  }

  // Air Superiority's air strike, Massed Batteries' radius (rules.game.engine._support), worked out by
  // RULES: an air strike rolled is not offered again this turn, and one that came uses a call up. Its
  // log entry, or null.
  function supportRoll(params) {
    var w = words();
    var side = pick("side", params), kind = pick("roll", params);
    var info = ((w.support || {})[side] || {})[kind];
    if (!info) return null;
    var dice = [typed(params.get("sdie1"))];
    if (info.dice > 1) dice.push(typed(params.get("sdie2")));
    document.querySelectorAll("#support-" + kind + "-" + side + " input[type=number]").forEach(function (input) {
      input.value = "";
    });
    var detail = {roll: kind, dice: dice};
    if (kind === "air") {
      var form = document.getElementById("support-air-" + side);
      var strike = RULES.airStrike(dice[0], parseInt(form && form.dataset.left, 10) || 0);
      if (form) { form.dataset.left = strike.left; form.hidden = true; }
      detail.outcome = strike.outcome;
      detail.left = strike.left;
    } else {
      detail.radius = RULES.barrageRadius(dice);
    }
    return {kind: "support", side: side, detail: detail};
  }

  // A vehicle's damage result shown on its row, with its log line: the rule (a pin each, On fire, a
  // second Immobilised knocking it out where the edition says so, the pin limit) is RULES.damage.
  function damage(row, result) {
    var w = words();
    var detail = {result: result};
    var fire = Array.prototype.filter.call(row.querySelectorAll(".badge-disputed"), function (badge) {
      return badge.textContent === w.damage.on_fire;
    });
    var men = modelsOf(row);
    var immobilised = parseInt(row.dataset.immobilised, 10) || 0;
    var after = RULES.damage({
      pins: pinsOf(row),
      immobilised: immobilised,
      onFire: fire.length > 0,
      limit: parseInt(row.dataset.limit, 10) || Infinity,
      pinRout: !!w.rules.pin_rout,
      fanatic: !!row.dataset.fanatic,
      men: men ? men.left : null,
    }, result, !!w.rules.second_immobilised);
    if (after.knockedOut) {
      destroy(row);
      if (result !== "knocked_out") detail.knocked_out = true;
      return detail;
    }
    if (!after.onFire && !after.routed) fire.forEach(function (badge) { badge.remove(); });
    setPins(row, after.pins);
    if (after.onFire && !fire.length) statusBadge(row, w.damage.on_fire);
    if (after.immobilised !== immobilised) {
      row.dataset.immobilised = after.immobilised;
      if (after.immobilised === 1) statusBadge(row, w.damage.immobilised);
    }
    if (after.routed) { destroy(row); detail.routed = true; }
    return detail;
  }

  // Communication Breakdown! (rules.game.engine.die_to_send_back): the game's first die, drawn on
  // turn 1 before any unit has an order, may go back to the bag once when its side carries the
  // rule. The bar's own form is offered by the die, so the tap is queued as any other.
  function dropSendBack() {
    document.querySelectorAll("#game-bar .send-back-form").forEach(takeAway);
  }
  function sentBack() {
    // Read afresh: a send-back made online swaps in a board whose words say so (words() keeps the first).
    var el = document.getElementById("offline-words"), fresh = {};
    try { fresh = el ? JSON.parse(el.textContent) : {}; } catch (error) { fresh = {}; }
    return !!fresh.sent_back || panel().dataset.sentBack === "1";
  }
  function offerSendBack(side) {
    var template = document.getElementById("send-back-template");
    var current = document.getElementById("current-die");
    var w = words();
    if (!template || !current) return;
    var ordered = Array.prototype.some.call(document.querySelectorAll("li.unit"), function (row) {
      return !!row.dataset.order;
    });
    var carries = (w.send_back_sides || []).indexOf(side) >= 0;
    if (!RULES.sendBackOffered(turnNow(), carries, ordered, sentBack(), false)) return;
    var form = template.content.firstElementChild.cloneNode(true);
    form.dataset.side = side;
    current.after(form);
    window.htmx.process(form);
  }

  function showLocally(params, label) {
    var w = words();
    var action = pick("action", params);
    var row = document.getElementById("u-" + pick("unit", params));
    var delta = parseInt(pick("delta", params) || "1", 10);
    // The log entry, as the engine logs the action (RULES.logLine writes its line).
    var entry = null;
    var unitEntry = function (detail) {
      return {kind: action, side: row.dataset.side, unit: unitName(row), detail: detail};
    };
    if (action === "pins") {
      setPins(row, Math.max(pinsOf(row) + delta, 0));
      entry = unitEntry({delta: delta, pins: pinsOf(row)});
      if (routs(row)) { destroy(row); entry.detail.routed = true; }
      mark(row, label);
    } else if (action === "casualties") {
      var men = modelsOf(row) || {left: 0, start: 0};
      var after = RULES.casualties({
        men: men.left,
        start: men.start,
        pins: pinsOf(row),
        limit: parseInt(row.dataset.limit, 10) || Infinity,
        pinRout: !!w.rules.pin_rout,
        fanatic: !!row.dataset.fanatic,
      }, delta);
      var left = after.men;
      setModels(row, left);
      entry = unitEntry({delta: delta, models: left});
      if (params.get("nco_lost") !== null) loseNco(row, parseInt(params.get("nco_lost"), 10) || 0);
      if (delta > 0) ncoDetail(params, entry.detail);
      if (after.wipedOut) { destroy(row); entry.detail.wiped_out = true; }
      else if (after.routed) { destroy(row); entry.detail.routed = true; }
      mark(row, label);
    } else if (action === "damage") {
      entry = unitEntry(damage(row, pick("result", params)));
      mark(row, label);
    } else if (action === "remove") {
      destroy(row);
      entry = unitEntry({});
      mark(row, label);
    } else if (action === "record" || action === "draw") {
      var dice = document.querySelector("#dice-" + pick("side", params) + " strong");
      if (dice) dice.textContent = Math.max(number(dice) - 1, 0);
      entry = {kind: "draw", side: pick("side", params), detail: {recorded: action === "record"}};
      showDrawn(pick("side", params));
      dropOrderForms();
      dropSendBack();
      endSnap();  // the next die drawn: the officer's moment has passed
      offerOrders(pick("side", params));
      offerSendBack(pick("side", params));
    } else if (action === "send_back") {
      // The die goes back in the bag (engine._send_back: no die pending, the once used).
      var form = document.querySelector("#game-bar .send-back-form");
      var back = form ? form.dataset.side : "";
      var count = document.querySelector("#dice-" + back + " strong");
      if (count) count.textContent = number(count) + 1;
      panel().dataset.sentBack = "1";
      entry = {kind: "send_back", side: back === "a" ? "b" : "a", detail: {die: back}};
      dropOrderForms();
      dropSendBack();
    } else if (action === "order") {
      var passOn = takeOrder(row, params, label);
      dropOrderForms();
      dropSendBack();
      endSnap();
      offerSnap(row, pick("order", params), passOn);
    } else if (action === "snap") {
      // The unit takes a die of its own from the bag (rules-notes §13).
      var bag = document.querySelector("#dice-" + row.dataset.side + " strong");
      if (bag) bag.textContent = Math.max(number(bag) - 1, 0);
      takeOrder(row, params, label);
      passSnap(row);
    } else if (action === "end_turn") {
      dropOrderForms();
      dropSendBack();
      endSnap();
      document.querySelectorAll(".badge-queued").forEach(function (badge) { badge.remove(); });
      endTurn(params);
    } else if (action === "support") {
      entry = supportRoll(params);
    }
    if (entry) writeLog(entry);
    var current = document.getElementById("current-die");
    if (current && (action === "record" || action === "draw" || action === "order" || action === "send_back" || action === "end_turn")) current.hidden = true;
  }

  // Online, the die drawn (or recorded) is said where the bar says it, until the answer's bar comes.
  function showDrawn(side) {
    var current = document.getElementById("current-die");
    var line = words().line.drawn;
    if (!showingAtOnce || !current || !line) return;
    var shown = document.createElement("p");
    shown.className = "game-die die-" + side + " die-at-once";
    shown.textContent = fill(line, {side: words().sides[side] || ""});
    current.after(shown);
  }

  // --- Taps: say which board they were made on; offline, queue them ---------------------------

  // Every action carries an id made here: the server applies a send retried or replayed once.
  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64;  // version 4
    b[8] = (b[8] & 63) | 128;  // the RFC 4122 variant
    var h = Array.prototype.map.call(b, function (x) { return (x < 16 ? "0" : "") + x.toString(16); }).join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }

  // The fields that carry a die's value (games.forms.DICE_FIELDS, the bombardment's and the Down pins').
  var DICE = ["die1", "die2", "reroll1", "reroll2", "fubar", "rally", "vengeance_die", "nco_die", "sdie1", "sdie2", "down_pins"];
  function diceGiven(entries) {
    var names = [];
    entries.forEach(function (value, name) {
      if (value !== "" && (DICE.indexOf(name) >= 0 || /^bd[12]-/.test(name)) && names.indexOf(name) < 0) names.push(name);
    });
    return names;
  }
  // Whether the player typed some of the action's dice (the phone lists those it rolled itself).
  function typedByPlayer(entries) {
    var rolled = (entries.get("phone_rolled") || "").split(" ");
    return diceGiven(entries).some(function (name) { return rolled.indexOf(name) < 0; });
  }
  var typedNow = false;  // the action being shown locally had dice typed by the player

  // The prints of the rows and panels this page shows (data-print, as the server last sent each one):
  // the answer to a tap or a poll then holds only those that moved. Without them, the whole board.
  // A poll's ride in its URL, and gunicorn refuses a request line past 4,094 bytes
  // (deploy/gunicorn.conf.py): a poll sends them while they take at most POLL_PRINTS_MOST (a
  // 60-unit game's take ~1,600), a tap in its body always (views.PRINTS_MOST bounds them there).
  var POLL_PRINTS_MOST = 3000;
  function shownPrints(most) {
    var pairs = Array.prototype.map.call(document.querySelectorAll("[data-print]"), function (el) {
      return [el.id, el.dataset.print];
    });
    return RULES.printsField(pairs, most);
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var s = sync();
    var game = document.getElementById("game");
    if (!s || !game || !game.contains(event.detail.elt)) return;
    var params = event.detail.parameters;
    if (event.detail.verb === "get") {
      if (offline()) event.preventDefault();  // the poll waits for the network
      else params.prints = shownPrints(POLL_PRINTS_MOST);
      return;
    }
    params.seen = s.dataset.seen;
    if (params.rev !== undefined) params.rev = s.dataset.revision;
    if (/\/act\/$/.test(event.detail.path) && !params.action_id) params.action_id = newId();
    if (!offline()) {
      params.prints = shownPrints();
      // A refusal said in the bar is for the last tap: the answer to this one sends the bar only
      // if it moved.
      document.querySelectorAll("#game-bar .message-error").forEach(function (el) { el.remove(); });
      showAtOnce(event);
      return;
    }
    event.preventDefault();
    // A game followed on two phones (not from a pairing) only follows offline; a two-phone game
    // from a pairing goes on for this phone's own side, its queue merged with the other's later.
    if (s.dataset.onePhone === undefined && s.dataset.twoPhones === undefined) return;
    var entries = formEntries(event.detail);
    if (pick("action", entries) === "record" && pick("side", entries) === "?") entries.set("side", drawSide());
    if (pick("action", entries) === "draw") { entries.set("action", "record"); entries.set("side", drawSide()); }
    entries.delete("seen");
    var action = pick("action", entries);
    var row = document.getElementById("u-" + pick("unit", entries));
    var sent = event.detail.elt.closest("form");
    // A passed-on order names no order of its own (the server takes the officer's): the page's
    // copy says which, for what it shows and for the end of the turn (the server ignores it here).
    if (action === "snap" && sent && sent.dataset.order) entries.set("order", sent.dataset.order);
    if (action === "snap" && sent && sent.dataset.officer) entries.set("officer_name", sent.dataset.officer);
    var typedDice = diceGiven(entries);
    if (action === "end_turn") {
      rollDownPins(entries);
      // The turn it ends: the other phone of a two-phone game may have ended it too, offline.
      entries.set("turn", String(turnNow()));
    }
    if (action === "support") rollSupport(entries);
    if (action === "order" || action === "snap") rollTest(row, sent, entries);
    if (action === "casualties") rollNco(sent, entries);
    var rolledHere = diceGiven(entries).filter(function (name) { return typedDice.indexOf(name) < 0; });
    if (rolledHere.length) entries.set("phone_rolled", rolledHere.join(" "));
    var queue = readQueue();
    if (!queue.length) keepBase();
    // Each action accepted moves the revision by one: a guarded action must meet the revision
    // the actions queued before it will have made, or the game moved on elsewhere meanwhile.
    entries.set("rev", String(parseInt(s.dataset.revision, 10) + queue.length));
    var label = (document.getElementById("offline-waiting") || {dataset: {}}).dataset.label || "";
    // When it was made (this phone's clock; the server corrects its skew) and on which board: a
    // two-phone game's queue is merged with the other phone's actions in the order they happened.
    var item = {path: event.detail.path, body: entries.toString(), made_at: Date.now(), seen: queue.length ? queue[0].seen : s.dataset.seen};
    if (entries.get("morale")) item.expect = testResult(entries).given;
    queue.push(item);
    writeQueue(queue);
    typedNow = typedByPlayer(entries);
    showLocally(entries, label.replace(/:\s*$/, ""));
    typedNow = false;
    if (row && (action === "pins" || action === "casualties" || action === "damage")) {
      // Whether the page removed the unit (a rout, the last man, knocked out): checked against
      // the server's answer when the queue is sent.
      item.destroyed = row.classList.contains("unit-destroyed");
      writeQueue(queue);
    }
    keepBoard();
  });

  // --- Taps shown at once, online ------------------------------------------------------------
  //
  // Online, a pin, a casualty, a damage result, "Destroyed", an order (its test too) and a die drawn
  // show their result at the tap, worked out by the rules the phone plays offline with (RULES, tested
  // against the engine); the server's answer, swapped in a moment later, has the last word: its rows
  // replace the ones shown, its log line the one written here. An order test's dice and the die drawn
  // are rolled here, as offline, and sent with the tap, so the server plays the very roll shown; if
  // its result still differs (a morale worked out differently here), its board stands and the page
  // says so. A refusal, or no answer, brings the board back as the server has it. Support rolls and
  // the end of the turn wait for the answer.

  var AT_ONCE = ["pins", "casualties", "damage", "remove", "order", "snap", "draw", "record"];
  var showingAtOnce = false;  // showLocally is drawing an online tap
  var atOnce = new Map();  // the tap's form -> its requests under way
  var boardBefore = null;  // the board before the first tap still under way, for no answer at all
  var putBack = null;  // the board to bring back once the taps under way are answered, or null
  var lastTapAt = 0;  // when the last of them was made
  var expecting = new Map();  // an order's form -> the order this page showed, checked against the answer
  var POLL_HELD_MS = 15000;  // a poll's answer waits behind a tap's at most this long

  // The tap's fields (and its button's), as htmx sends them.
  function formEntries(detail) {
    var entries = new URLSearchParams();
    var form = detail.formData || null;
    if (form && form.forEach) form.forEach(function (value, name) { entries.append(name, value); });
    else Object.keys(detail.parameters).forEach(function (name) { entries.append(name, detail.parameters[name]); });
    return entries;
  }

  function showAtOnce(event) {
    var detail = event.detail;
    if (!/\/act\/$/.test(detail.path)) return;
    var entries = formEntries(detail);
    var action = pick("action", entries);
    if (AT_ONCE.indexOf(action) < 0 || !words().line.turn) return;
    if (action === "casualties" && entries.get("nco")) return;  // Initiative Training's die: the server's
    var row = document.getElementById("u-" + pick("unit", entries));
    var draws = action === "draw" || action === "record";
    if (!draws && (!row || row.classList.contains("unit-destroyed"))) return;
    if (draws) {
      // The die drawn here, a die of a side as likely as its dice left in the bag, as offline: the
      // player picks no side (the server checks that the bag holds a die of it).
      var side = action === "draw" ? drawSide() : pick("side", entries);
      if (side !== "a" && side !== "b") return;
      entries.set("side", side);
      detail.parameters.side = side;
    }
    var expect = null;
    if (action === "order" || action === "snap") {
      expect = rollHere(row, detail, entries);
      if (expect === null) return;
    }
    var game = document.getElementById("game");
    if (!atOnce.size && game) boardBefore = game.outerHTML;
    atOnce.set(detail.elt, (atOnce.get(detail.elt) || 0) + 1);
    if (expect) expecting.set(detail.elt, {body: entries.toString(), expect: expect});
    lastTapAt = Date.now();
    showingAtOnce = true;
    typedNow = typedByPlayer(entries);
    try {
      showLocally(entries, "");
    } finally {
      showingAtOnce = false;
      typedNow = false;
    }
  }

  // An order's test rolled here as offline (the dice typed, or rolled with crypto.getRandomValues;
  // Vengeance's, a commissar's re-roll, FUBAR's chart and a Rally's D6 too) and put into the tap's
  // request, the fields the phone rolled named in phone_rolled: the server takes them as this
  // phone's dice. The order the page expects the unit to take, or null to leave the tap alone.
  function rollHere(row, detail, entries) {
    var sent = detail.elt.closest ? detail.elt.closest("form") : null;
    if (pick("action", entries) === "snap") {
      if (!sent || !sent.dataset.order) return null;
      entries.set("order", sent.dataset.order);
      if (sent.dataset.officer) entries.set("officer_name", sent.dataset.officer);
    }
    if (!pick("order", entries)) return null;
    var typedDice = diceGiven(entries);
    rollTest(row, sent, entries);
    var rolledHere = diceGiven(entries).filter(function (name) { return typedDice.indexOf(name) < 0; });
    if (rolledHere.length) entries.set("phone_rolled", rolledHere.join(" "));
    diceGiven(entries).concat(["phone_rolled"]).forEach(function (name) {
      if (entries.get(name) !== null) detail.parameters[name] = entries.get(name);
    });
    return entries.get("morale") ? testResult(entries).given : pick("order", entries);
  }

  function tapAnswered(elt, wrong) {
    var left = (atOnce.get(elt) || 0) - 1;
    if (left > 0) atOnce.set(elt, left);
    else atOnce.delete(elt);
    if (wrong && !putBack) putBack = {before: boardBefore};
    if (atOnce.size) return;
    boardBefore = null;
    var again = putBack;
    putBack = null;
    if (!again) return;
    // Refused (the bar says why) or not answered: the board as the server has it, not as shown,
    // the refusal still said; with no network, as it was before the taps.
    if (offline()) {
      if (again.before) window.htmx.swap("#game", again.before, {swapStyle: "outerHTML"});
      return;
    }
    var said = document.querySelector("#game-bar .message-error");
    var message = said ? said.textContent : "";
    reloadBoard().then(function () {
      var dice = document.querySelector("#game-bar .game-dice");
      if (!message || !dice || document.querySelector("#game-bar .message-error")) return;
      var line = document.createElement("p");
      line.className = "message message-error";
      line.setAttribute("role", "alert");
      line.textContent = message;
      dice.after(line);
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!atOnce.has(event.detail.requestConfig && event.detail.requestConfig.elt)) {
      // A poll that left before the tap would show the board without it, for a moment.
      var held = atOnce.size && Date.now() - lastTapAt < POLL_HELD_MS;
      if (held && event.detail.requestConfig && event.detail.requestConfig.verb === "get") {
        event.detail.shouldSwap = false;
      }
      return;
    }
    // The server's log lines come with the answer.
    document.querySelectorAll("#log-lines li.log-local").forEach(function (line) { line.remove(); });
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!atOnce.has(elt)) return;
    var said = document.querySelector("#game-bar .message-error");
    var wrong = !event.detail.successful || !!said;
    var shown = expecting.get(elt);
    expecting.delete(elt);
    // Taken, but not as shown here: the answer's row stands, and the page says so (as the offline
    // replay does, with the same comparison).
    var other = shown && !wrong ? differs(shown, {doc: document}) : "";
    if (other) sayDiffers(other);
    tapAnswered(elt, wrong);
  });

  function sayDiffers(text) {
    var dice = document.querySelector("#game-bar .game-dice");
    if (!dice) return;
    var line = document.createElement("p");
    line.className = "message message-error at-once-differs";
    line.setAttribute("role", "alert");
    line.textContent = (panel().dataset.differsNow || "") + " " + text;
    dice.after(line);
  }

  // --- Undo offline: the last action still waiting goes --------------------------------------

  // The board as the server last sent it, with every queued action but the last shown on it again.
  function takeBack() {
    var queue = readQueue();
    var base = localStorage.getItem(baseKey() || "");
    if (!queue.length) return;
    queue.pop();
    writeQueue(queue);
    if (base) {
      var game = document.getElementById("game");
      var holder = document.createElement("div");
      holder.innerHTML = base;
      game.replaceWith(holder.firstElementChild);
      window.htmx.process(document.getElementById("game"));
      var label = ((document.getElementById("offline-waiting") || {dataset: {}}).dataset.label || "").replace(/:\s*$/, "");
      queue.forEach(function (item) {
        var entries = new URLSearchParams(item.body);
        typedNow = typedByPlayer(entries);
        showLocally(entries, label);
        typedNow = false;
      });
    }
    note("");
    showWaiting();
    keepBoard();
  }

  // --- Back online: send the queue in order ---------------------------------------------------

  var sending = false;

  function refusedText(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var error = doc.querySelector("#game-bar .message-error");
    return {error: error ? error.textContent.trim() : "", sync: doc.getElementById("game-sync"), doc: doc};
  }

  // "fubar", "down" (a failed test, or Down ordered) or any other order: what an order test decided.
  function outcome(order) { return order === "fubar" || order === "down" ? order : "order"; }

  // The order the server gave an order tested offline, when it is not the one this phone showed
  // (the same dice, so only a morale worked out differently here): its row's order label, else "".
  function differs(item, answer) {
    if (item.expect === undefined && item.destroyed === undefined) return "";
    var row = answer.doc.getElementById("u-" + new URLSearchParams(item.body).get("unit"));
    if (!row) return "";
    var name = row.querySelector(".unit-name");
    name = name ? name.textContent : "";
    if (item.destroyed !== undefined) {
      // A unit removed here and not there, or the other way round: what the server's row says.
      if (row.classList.contains("unit-destroyed") === item.destroyed) return "";
      return name + ": " + row.querySelector(".unit-status").textContent.replace(/\s+/g, " ").trim();
    }
    if (outcome(row.dataset.order) === outcome(item.expect)) return "";
    var badge = row.querySelector(".badge-order");
    return name + ": " + (badge ? badge.textContent.trim() : row.dataset.order);
  }

  var refused = "";  // the last refusal, said again on the board brought up to date after it

  var refusedKind = "refused";

  function conflict(message, kind) {
    refused = message;
    refusedKind = kind || "refused";
    var box = document.getElementById("offline-conflict");
    if (!box || !message) return;
    var differ = refusedKind === "differs";
    document.getElementById("offline-conflict-text").textContent = differ
      ? box.dataset.differs + " " + message + (readQueue().length ? " " + box.dataset.keptAfter : "")
      : box.dataset.refused + " " + message + " " + box.dataset.kept;
    var waiting = readQueue().length > 0;
    document.getElementById("offline-retry").hidden = !waiting;
    document.getElementById("offline-drop").hidden = !waiting || differ;
    box.hidden = false;
  }

  function reloadBoard() {
    var s = sync();
    if (!s) return Promise.resolve();
    // No "seen": the whole board, as the server has it now.
    return window.htmx.ajax("GET", s.dataset.base, {target: "#game", swap: "outerHTML"});
  }

  // A two-phone game: the whole queue in one request, merged on the server with what the other
  // phone sent meanwhile (anything that does not fit comes back on both boards, to settle).
  async function merge(queue) {
    var s = sync();
    var body = new URLSearchParams();
    body.set("queue", JSON.stringify(queue.map(function (item) { return {body: item.body, made_at: item.made_at || Date.now()}; })));
    body.set("seen", queue[0].seen || s.dataset.seen);
    body.set("now", String(Date.now()));
    var response = await fetch(s.dataset.merge, {
      method: "POST",
      body: body,
      headers: {"HX-Request": "true", "X-CSRFToken": csrf()},
      credentials: "same-origin",
    });
    if (response.ok) {
      writeQueue([]);
      return;
    }
    // Refused whole (an action for the other side's units, a queue that cannot be read): kept here.
    var text = await response.text();
    conflict(plainRefusal(response, text) || response.status + " " + response.statusText);
  }

  // A refusal outright (403: the other player's side; a queue that cannot be read) is a sentence of
  // plain text.
  function plainRefusal(response, text) {
    return /^text\/plain/.test(response.headers.get("Content-Type") || "") ? text.trim().slice(0, 300) : "";
  }

  // One by one, each on the revision the ones before it made: a refusal, or an answer that differs
  // from what the phone showed, stops the queue there (kept on the phone until "Try again" or "Drop").
  async function sendInOrder(queue) {
    while (queue.length) {
      var item = queue[0];
      var response = await fetch(item.path, {
        method: "POST",
        body: new URLSearchParams(item.body),
        headers: {"HX-Request": "true", "X-CSRFToken": csrf()},
        credentials: "same-origin",
      });
      var text = await response.text();
      var answer = refusedText(text);
      if (!response.ok || answer.error) {
        conflict(answer.error || plainRefusal(response, text) || response.status + " " + response.statusText);
        return;
      }
      queue.shift();
      writeQueue(queue);
      var other = differs(item, answer);
      if (other) {
        // Accepted, but not as shown here: the actions after it were played on another board.
        conflict(other, "differs");
        return;
      }
    }
  }

  async function flush() {
    if (sending || offline()) return;
    var queue = readQueue();
    if (!queue.length) return;
    var s = sync();
    sending = true;
    refused = "";
    document.getElementById("offline-conflict").hidden = true;
    try {
      // A two-phone game sends its whole queue at once, to be merged with the other phone's.
      await (s && s.dataset.twoPhones !== undefined && s.dataset.merge ? merge(queue) : sendInOrder(queue));
    } catch (error) {
      // The network went again: the rest waits until offline.js finds it back (muster:online).
      if (window.MusterNetwork) window.MusterNetwork.lost();
    } finally {
      sending = false;
    }
    await reloadBoard();
    // What is still waiting was not played on the board the server just sent: it is the new start
    // for an offline undo.
    if (readQueue().length) keepBase();
  }

  document.addEventListener("click", function (event) {
    if (event.target.id === "offline-retry") flush();
    if (event.target.id === "offline-undo") takeBack();
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

  window.addEventListener("muster:online", function () {  // offline.js, once it holds the page online
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
  // htmx says "settled" once for every element it swapped in, each out-of-band piece of a
  // fragment included: the board is brought in line once, when they all are.
  var settling = false;
  document.addEventListener("htmx:afterSettle", function () {
    if (settling) return;
    settling = true;
    queueMicrotask(function () {
      settling = false;
      settled();
    });
  });
  function settled() {
    openTools.forEach(function (id) {
      var tools = document.querySelector("#" + id + " details.unit-tools");
      if (tools) tools.open = true;
    });
    openTools = [];
    syncOrderButtons();
    if (refused && (readQueue().length || refusedKind === "differs")) conflict(refused, refusedKind);
    if (refusedKind === "differs" && !readQueue().length) refused = "";
    keepBoard();
    showWaiting();
  }
  window.addEventListener("pageshow", function (event) {
    // A page the browser kept in memory (back/forward cache) may be older than the game: ask at once.
    if (event.persisted && sync() && !offline()) reloadBoard();
  });
  document.addEventListener("DOMContentLoaded", function () {
    showWaiting();
    if (!offline() && readQueue().length) flush();
    if (navigator.serviceWorker) {
      navigator.serviceWorker.ready.then(keepBoard);
      // The first visit: the worker installs and takes the page over (clients.claim) after it
      // loaded; the board is handed to it then, so it opens offline without a second load.
      navigator.serviceWorker.addEventListener("controllerchange", keepBoard);
    }
  });
})();
