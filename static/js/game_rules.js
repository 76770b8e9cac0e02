/* The rules game day works out on the phone, with no page and no network: the order test's morale
   and outcome, the rout at the pin limit (Fanatics included), casualties and the NCO among them, a
   vehicle's damage results, Communication Breakdown's die, the officer's order passed on, a unit's
   end of turn, the support rolls' results (an air strike, a barrage's radius), and the log's sentence for each of them (from the server's own words). game.js reads
   the board's rows into plain values and calls these; Node runs them against cases the Python engine
   wrote (`manage.py gameday_js_cases`, tests/js/), so the two copies cannot drift apart unnoticed.
   Each function names the engine function it mirrors (rules/game/engine.py). */
(function (root, factory) {
  var rules = factory();
  if (typeof module === "object" && module.exports) module.exports = rules;
  else root.MusterGameRules = rules;
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var VENGEANCE_SHEDS_ON = 4;  // engine.VENGEANCE_SHEDS_ON: Vengeance's die loses a pin on 4-6

  // Pins Vengeance's die makes the unit lose before its order (engine._shed): one on 4-6.
  function vengeanceShed(die) {
    return die >= VENGEANCE_SHEDS_ON ? 1 : 0;
  }

  // The morale an order test is taken against, or null when the order needs no test
  // (engine._test_needed, engine._test_odds). unit: {morale: its row's morale (base, Avanti and a
  // lost NCO included), pins}; bonus: the officer's; tiger: Tiger Fear (one more pin, so an
  // unpinned unit tests too); shed: pins Vengeance took away first; range: the edition's [min, max].
  function testMorale(unit, order, bonus, tiger, shed, range) {
    if (order === "down") return null;  // a pinned unit given Down takes no test
    if (unit.pins <= 0 && !tiger) return null;
    var pins = Math.max(unit.pins - (shed || 0), 0) + (tiger ? 1 : 0);
    return Math.min(Math.max(unit.morale + (bonus || 0) - pins, range[0]), range[1]);
  }

  // The order a tested unit takes (engine._passes; Not One Step Back!'s re-roll replaces the dice):
  // "fubar" on a double six, the order on dice at or under the morale, else "down".
  function testOutcome(dice, reroll, morale, order) {
    var final = reroll || dice;
    if (final[0] === 6 && final[1] === 6) return {given: "fubar", dice: final};
    return {given: final[0] + final[1] <= morale ? order : "down", dice: final};
  }

  // Whether the test failed and Not One Step Back! takes it again (a man removed for it).
  function retakes(dice, morale) {
    return (dice[0] === 6 && dice[1] === 6) || dice[0] + dice[1] > morale;
  }

  // "You men, snap to action!" (engine._order): an officer who took the order he was given passes it
  // on to as many units as his extra orders, one more with Blitzkrieg, while a unit of his side can
  // still take one (takers); else to none.
  function snapPassOn(extra, blitzkrieg, tookIt, takers) {
    if (!extra || !tookIt || !takers) return 0;
    return extra + (blitzkrieg ? 1 : 0);
  }

  // FUBAR's chart (engine._take_order): its die at or under the edition's friendly-fire faces is
  // friendly fire, above it panic.
  function fubarOutcome(chart, friendlyFireFaces) {
    return chart <= friendlyFireFaces ? "friendly_fire" : "panic";
  }

  // The pins a unit keeps once it has taken its order (engine._take_order). opts.shed: Vengeance's
  // pin, lost first; opts.banzai: the test passed without a roll, a pinned unit not going Down
  // losing a pin; otherwise opts.tested: a test was taken and ``given`` is its outcome (passed: a pin
  // lost; Down or FUBAR: none); then a Rally sheds its die's worth (opts.rally), or every pin where
  // the edition says so (opts.rallyAll).
  function pinsAfterOrder(pins, order, given, opts) {
    var left = Math.max(pins - (opts.shed || 0), 0);
    if (opts.banzai) return pins > 0 && order !== "down" ? Math.max(left - 1, 0) : left;
    if (opts.tested && given !== "fubar" && given !== "down") left = Math.max(left - 1, 0);
    if (given === "rally") left = opts.rallyAll ? 0 : Math.max(left - (opts.rally || 0), 0);
    return left;
  }

  // Pins at the unit's unmodified morale destroy it (engine._pin_limit_reached), unless the edition
  // has no pin rout, or it is Fanatic with two or more men left (men unknown: routed).
  function routs(pins, limit, pinRout, fanatic, men) {
    if (!pinRout || pins < limit) return false;
    return !(fanatic && men !== null && men !== undefined && men >= 2);
  }

  // One unit at the end of the turn (engine._end_turn): a Down or Ambush order not released is kept
  // (its die stays out of the bag); a unit kept Down sheds pins, a D3 (its die, 1-3) or all of
  // them, as the edition says. unit: {destroyed, dice, order, pins}; downRule: "d3" or "all".
  function endOfTurn(unit, released, downRule, d3) {
    if (unit.destroyed) return {ordersLeft: 0, kept: false, order: unit.order, pins: unit.pins};
    var kept = (unit.order === "down" || unit.order === "ambush") && !released;
    var pins = unit.pins;
    if (kept && unit.order === "down" && pins) pins -= downRule === "d3" ? Math.min(d3 || 0, pins) : pins;
    return {ordersLeft: kept ? unit.dice - 1 : unit.dice, kept: kept, order: kept ? unit.order : "", pins: pins};
  }

  var INITIATIVE_TAKES_OVER = 2;  // engine.INITIATIVE_TAKES_OVER: Initiative Training's 2+ keeps a leader

  // Men lost (delta > 0) or back (delta < 0) (engine._casualties): never below none nor above the
  // men it started with; the last man gone wipes the unit out, and a Fanatic unit held at its pin
  // limit by its men routs once fewer than two are left. unit: {men, start, pins, limit, pinRout, fanatic}.
  function casualties(unit, delta) {
    var left = Math.min(Math.max(unit.men - delta, 0), unit.start);
    if (left === 0) return {men: 0, wipedOut: true, routed: false};
    return {men: left, wipedOut: false, routed: !!unit.fanatic && routs(unit.pins, unit.limit, unit.pinRout, true, left)};
  }

  // The squad's NCO among the casualties (engine._casualties): lost, unless the side rolls
  // Initiative Training's die (2nd edition: initiative) and it shows 2+.
  function ncoLost(initiative, die) {
    return !(initiative && die >= INITIATIVE_TAKES_OVER);
  }

  // A die drawn blind from the bag (engine.draw): each die left is as likely, so a side's chance is
  // its share of the dice left. left: {a, b}, the dice left of each side; number: a random whole
  // number (crypto's), taken modulo the dice left as the engine's rng.randrange(total) gives it.
  // "" from an empty bag.
  function drawSide(left, number) {
    var total = left.a + left.b;
    if (total === 0) return "";
    return number % total < left.a ? "a" : "b";
  }

  // Communication Breakdown! (engine.die_to_send_back): the die just drawn may go back to the bag
  // when it is the game's first (turn 1, no unit given an order yet), its side carries the rule, the
  // game goes on and no die went back before.
  function sendBackOffered(turn, carries, ordered, sentBack, finished) {
    return turn === 1 && !!carries && !ordered && !sentBack && !finished;
  }

  // A damage result on a vehicle (engine._damage): "extinguished" puts the fire out; "knocked_out"
  // destroys it; any other adds a pin, and sets it on fire or immobilises it, a second immobilised
  // result knocking it out where the edition says so (secondKnocksOut); then the pins may rout it.
  // unit: {pins, immobilised: times so far, onFire, limit, pinRout, fanatic, men}.
  function damage(unit, result, secondKnocksOut) {
    var after = {pins: unit.pins, immobilised: unit.immobilised, onFire: unit.onFire, knockedOut: false, routed: false};
    if (result === "extinguished") {
      after.onFire = false;
      return after;
    }
    if (result === "knocked_out") {
      after.knockedOut = true;
      after.onFire = false;
      return after;
    }
    after.pins += 1;
    if (result === "on_fire") {
      after.onFire = true;
    } else {
      after.immobilised += 1;
      if (after.immobilised >= 2 && secondKnocksOut) {
        after.knockedOut = true;
        after.onFire = false;
        return after;
      }
    }
    if (routs(after.pins, unit.limit, unit.pinRout, unit.fanatic, unit.men)) {
      after.routed = true;
      after.onFire = false;
    }
    return after;
  }

  // Air Superiority's air strike (rules.combat.support.air_strike_result, engine._support): the chart's
  // outcome on its die, and the calls left once a plane that came (or a rookie pilot) used one up.
  var AIR_STRIKE_CHART = {1: "rookie", 2: "empty", 3: "empty", 4: "arrives", 5: "arrives", 6: "arrives"};
  var CALL_USED = {arrives: true, rookie: true};
  function airStrike(die, callsLeft) {
    var outcome = AIR_STRIKE_CHART[die];
    return {outcome: outcome, left: Math.max(callsLeft - (CALL_USED[outcome] ? 1 : 0), 0)};
  }

  // Massed Batteries' barrage radius (rules.combat.support.barrage_radius): the higher die, + 6".
  var BARRAGE_RADIUS_BASE = 6;
  function barrageRadius(dice) {
    return Math.max.apply(null, dice) + BARRAGE_RADIUS_BASE;
  }

  // --- The log's sentences (armybuilder.games.board.log_line) --------------------------------------
  //
  // words: the server's own translated sentences with their %(name)s holes (board.offline_words):
  // line (the templates), orders and damage (labels), sides (names), assault_rules (names by slug).
  // entry: one log entry as the phone knows it, shaped as the engine's (rules.game.engine.LogEntry):
  // {kind, turn, side, unit: its name, detail}, the detail's unit keys already names (a snap's
  // officer; the end of turn's down_pins as [name, pins] pairs). Returns the line log_line writes.

  // Python's "%(name)s" and "%(name)+d", as gettext left them.
  function fill(template, values) {
    return (template || "").replace(/%\((\w+)\)(\+?)[sd]/g, function (all, name, sign) {
      var value = values[name];
      return (sign && value >= 0 ? "+" : "") + value;
    });
  }

  function orderWords(line, words, entry) {
    var d = entry.detail;
    var text = fill(line.order, {unit: entry.unit, order: words.orders[d.order]});
    if (d.blitzkrieg) text += " · " + line.blitzkrieg;
    if (entry.kind === "snap") text += " · " + fill(line.snap, {officer: d.officer});
    if (d.banzai) text += " · " + fill(line.banzai, {rule: (words.assault_rules || {})[d.rule || "banzai-charge"] || ""});
    if (d.tiger_fear) text += " · " + line.tiger;
    if (d.avanti) text += " · " + fill(line.avanti, {modifier: d.avanti});
    if (d.vengeance !== undefined && d.vengeance !== null) {
      if (d.vengeance_shed) {
        text += " · " + fill(line.vengeance_shed, {die: d.vengeance, before: d.pins_before, after: d.pins_before - 1});
      } else {
        text += " · " + fill(line.vengeance_stay, {die: d.vengeance});
      }
    }
    if (d.nco) text += " · " + fill(line.nco_order, {modifier: d.nco});
    if (d.commissar) {
      var models = d.models === undefined ? "?" : d.models;
      text += " · " + fill(line.commissar, {a: d.first[0], b: d.first[1], models: models});
    }
    if (d.dice) {
      text += " · " + fill(line.test, {a: d.dice[0], b: d.dice[1], morale: d.morale});
      if (d.fubar === "friendly_fire") text += " · " + line.friendly_fire;
      else if (d.fubar) text += " · " + line.panic;
      else if (d.failed) text += " · " + line.failed;
      else text += " · " + line.passed;
    }
    if (d.given === "rally") text += " · " + fill(line.rally, {before: d.pins_before, after: d.pins_after});
    return text;
  }

  // What became of a squad's NCO killed with its casualties (board._nco_line).
  function ncoWords(line, d) {
    var nco = line.nco || {};
    if (d.nco_die !== undefined && d.nco_die !== null) {
      var text = fill(d.nco === "replaced" ? nco.initiative_replaced : nco.initiative_lost, {die: d.nco_die});
      return text + (d.nco_rolled ? " · " + line.rolled : "");
    }
    if (d.rule && !d.nco_penalty) return nco.no_penalty;
    return nco.lost;
  }

  // Air Superiority's air strike and Massed Batteries' radius (board._support_line).
  function supportWords(line, words, entry) {
    var d = entry.detail;
    var info = ((words.support || {})[entry.side] || {})[d.roll] || {};
    var values = {side: words.sides[entry.side], dice: d.dice.join(", "), rule: info.rule};
    var text;
    if (d.roll === "air") {
      values.outcome = (words.air_outcomes || {})[d.outcome];
      values.left = d.left;
      text = fill((info.line || {})[d.left], values);
    } else {
      values.radius = d.radius;
      text = fill(info.line, values);
    }
    return text + (d.rolled ? " · " + line.rolled : "");
  }

  function logLine(words, entry) {
    var line = words.line;
    var d = entry.detail || {};
    var text;
    if (entry.kind === "draw") {
      text = fill(d.recorded ? line.recorded : line.drawn, {side: words.sides[entry.side]});
    } else if (entry.kind === "order" || entry.kind === "snap") {
      text = orderWords(line, words, entry);
    } else if (entry.kind === "pins") {
      text = fill(line.pins, {unit: entry.unit, delta: d.delta, pins: d.pins});
      if (d.routed) text += " · " + line.routed;
    } else if (entry.kind === "casualties") {
      // The sentence the language's plural rule gives this count (board._by_count): never none.
      var forms = d.delta < 0 ? line.back : line.casualty;
      var count = Math.abs(d.delta);
      var form = forms.forms[forms.index[Math.min(count, forms.index.length) - 1]];
      text = fill(form, {unit: entry.unit, delta: count, models: d.models});
      if (d.nco) text += " · " + ncoWords(line, d);
      if (d.wiped_out) text += " · " + line.wiped_out;
      if (d.routed) text += " · " + line.routed;
    } else if (entry.kind === "damage") {
      text = fill(line.damage, {unit: entry.unit, result: words.damage[d.result]});
      if (d.knocked_out) text += " · " + line.knocked_out;
      if (d.routed) text += " · " + line.routed;
    } else if (entry.kind === "remove") {
      text = fill(line.remove, {unit: entry.unit});
    } else if (entry.kind === "send_back") {
      text = fill(line.send_back, {side: words.sides[d.die]});
    } else if (entry.kind === "support") {
      text = supportWords(line, words, entry);
    } else if (entry.kind === "end_turn") {
      text = fill(line.end_turn, {turn: d.turn});
      var shed = (d.down_pins || []).filter(function (pair) { return pair[1]; }).map(function (pair) {
        return pair[0] + " \u2212" + pair[1];
      });
      if (shed.length) text += " · " + fill(line.down_pins, {units: shed.join(", ")});
    } else {
      text = entry.kind;
    }
    if (d.typed) text += " · " + line.typed;
    return fill(line.turn, {turn: entry.turn}) + " · " + text;
  }

  // What the phone shows, for the server to send back only what moved (views._shown reads it): each
  // row's and panel's print (its data-print, board.digest) by its element's id, as "id:print" pairs
  // joined by commas. A pair the server would not read is left out (the piece is then sent again).
  // most: the longest the field may be once URL-encoded; longer, none is sent (the whole board comes).
  var PRINT_ID = /^[A-Za-z0-9_-]{1,64}$/;
  var PRINT_VALUE = /^[A-Za-z0-9_-]{12}$/;  // board.PRINT_CHARS
  function printsField(pairs, most) {
    var field = pairs
      .filter(function (pair) { return PRINT_ID.test(pair[0] || "") && PRINT_VALUE.test(pair[1] || ""); })
      .map(function (pair) { return pair[0] + ":" + pair[1]; })
      .join(",");
    return most !== undefined && encodeURIComponent(field).length > most ? "" : field;
  }

  return {
    printsField: printsField,
    fill: fill,
    logLine: logLine,
    airStrike: airStrike,
    barrageRadius: barrageRadius,
    VENGEANCE_SHEDS_ON: VENGEANCE_SHEDS_ON,
    INITIATIVE_TAKES_OVER: INITIATIVE_TAKES_OVER,
    casualties: casualties,
    ncoLost: ncoLost,
    drawSide: drawSide,
    sendBackOffered: sendBackOffered,
    damage: damage,
    vengeanceShed: vengeanceShed,
    testMorale: testMorale,
    testOutcome: testOutcome,
    retakes: retakes,
    pinsAfterOrder: pinsAfterOrder,
    fubarOutcome: fubarOutcome,
    snapPassOn: snapPassOn,
    routs: routs,
    endOfTurn: endOfTurn,
  };
});
