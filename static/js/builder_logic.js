/* The builder's decisions on the phone, with no page and no network (builder.js does the page):

   - Pricing: a unit's price table as the page carries it (rules/army/price_table.py writes it) and
     the points of a change of men, quality or options, as rules.army.points.entry_points counts
     them, or null when the phone cannot be sure (the server's answer decides then, as it always
     has the last word). Node runs it against cases the Python rules wrote (`manage.py
     builder_js_cases`, tests/js/), so the two cannot drift apart unnoticed.
   - Sending in order: a queue that sends one change at a time, in the order they were made. */
(function (root, factory) {
  var pricing = factory();
  if (typeof module === "object" && module.exports) module.exports = pricing;
  else root.MusterBuilder = pricing;
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var QUALITIES = ["inexperienced", "regular", "veteran"]; // rules.army.model.QUALITIES

  // A count as a player types it: digits only, else null (not a number the phone prices).
  function count(text) {
    return /^\d+$/.test(String(text).trim()) ? Number(text) : null;
  }

  // price_table.encode's text read back, or null when it does not have its four parts.
  function parseTable(text) {
    var parts = String(text || "").split("|");
    if (parts.length !== 4) return null;
    function costs(part) {
      return part.split(",").map(function (c) { return c === "" ? null : Number(c); });
    }
    var range = parts[0].split(",").map(Number);
    var options = {};
    parts[3].split(";").forEach(function (option) {
      var f = option.split(":");
      if (f.length !== 4) return;
      options[f[0]] = {
        cost: costs(f[1]),
        whole: f[2].indexOf("a") >= 0,
        free: f[2].indexOf("f") >= 0,
        within: f[2].indexOf("w") >= 0, // its men take places within the unit's largest size
        adds: Number(f[3]) || 0,
      };
    });
    return { base: range[0], max: range[1], cost: costs(parts[1]), perMan: costs(parts[2]), options: options };
  }

  // The quality a unit is shown at when the page has no quality field: the first it is offered at.
  function firstQuality(table) {
    return QUALITIES[table.cost.findIndex(function (c) { return c !== null; })];
  }

  // Points of the unit at ``quality`` with ``models`` men and the options ``chosen`` (key -> count),
  // as entry_points counts them; null when the server would refuse it or price it in a way the
  // table does not say (a free unit, whose limits per list only the server knows).
  function price(table, quality, models, chosen) {
    var q = QUALITIES.indexOf(quality);
    if (!table || q < 0 || table.cost[q] === null || chosen === null || models === null) return null;
    if (models < table.base || models > table.max) return null;
    var extra = models - table.base;
    if (extra && table.perMan[q] === null) return null;
    var total = table.cost[q] + extra * (table.perMan[q] || 0);
    var everyone = models;
    var within = 0;
    var keys = Object.keys(chosen).filter(function (key) { return chosen[key] > 0; });
    for (var i = 0; i < keys.length; i++) {
      var option = table.options[keys[i]];
      if (!option || option.free || option.cost[q] === null) return null;
      everyone += option.adds * chosen[keys[i]];
      if (option.within) within += option.adds * chosen[keys[i]];
    }
    if (models + within > table.max) return null; // the server refuses it: no guess
    keys.forEach(function (key) {
      var option = table.options[key];
      total += option.cost[q] * (option.whole ? everyone : chosen[key]);
    });
    return total < 0 ? null : total; // never below 0: the server refuses such an entry
  }

  // One change at a time, in the order they were made: ``send(item)`` starts an item's request and
  // says whether it went (false: nothing to send it from any more, the item is ``dropped``); the
  // next is sent once ``answered()`` is called for the one under way. ``hold()`` keeps the queue
  // from sending (until ``release()``) while the page paints a change first; ``idle()`` is called
  // when the queue has nothing left to send or wait for.
  function serialQueue(hooks) {
    var queue = { items: [], current: null };
    var HELD = { held: true };
    queue.busy = function () {
      return queue.items.length > 0 || queue.current !== null;
    };
    queue.push = function (item) {
      queue.items.push(item);
    };
    queue.hold = function () {
      if (queue.current === null) queue.current = HELD;
    };
    queue.release = function () {
      if (queue.current === HELD) queue.current = null;
      queue.next();
    };
    queue.answered = function () {
      queue.current = null;
    };
    queue.next = function () {
      while (queue.current === null && queue.items.length) {
        var item = queue.items.shift();
        queue.current = item;
        if (hooks.send(item)) return;
        queue.current = null;
        if (hooks.dropped) hooks.dropped(item);
      }
      if (queue.current === null && hooks.idle) hooks.idle();
    };
    return queue;
  }

  return {
    QUALITIES: QUALITIES,
    count: count,
    parseTable: parseTable,
    firstQuality: firstQuality,
    price: price,
    serialQueue: serialQueue,
  };
});
