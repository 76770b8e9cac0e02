// The phone's copy of the table rules (static/js/game_rules.js) against the Python engine's answers:
// tests/js/gameday_cases.json, written by `manage.py gameday_js_cases` (rules/game/js_cases.py).
// Run with Node's own test runner: `node --test tests/js/` (part of `make test`).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const fs = require("node:fs");

const rules = require(path.join(__dirname, "..", "..", "static", "js", "game_rules.js"));
const cases = JSON.parse(fs.readFileSync(path.join(__dirname, "gameday_cases.json"), "utf8"));

function label(c) {
  return JSON.stringify(c);
}

test("the cases cover every part, in every edition", () => {
  for (const part of ["orders", "morale", "pins", "casualties", "damage", "end_turn"]) {
    assert.ok(cases[part].length > 100, part);
    assert.deepEqual([...new Set(cases[part].map((c) => c.edition))].sort(), ["v1", "v2", "v3"], part);
  }
  const given = new Set(cases.orders.map((c) => c.given));
  for (const outcome of ["advance", "rally", "down", "fubar"]) assert.ok(given.has(outcome), outcome);
  assert.ok(cases.pins.some((c) => c.routs) && cases.pins.some((c) => !c.routs && c.pins >= c.limit));
});

test("an order test's morale and the order the unit takes, as the engine gives them", () => {
  for (const c of cases.orders) {
    const morale = rules.testMorale(c.unit, c.order, c.bonus, false, 0, c.range);
    assert.equal(morale, c.morale, label(c));
    const given = morale === null ? c.order : rules.testOutcome(c.dice, null, morale, c.order).given;
    assert.equal(given, c.given, label(c));
  }
});

test("Tiger Fear's extra pin and Vengeance's shed pin move the morale as the engine does", () => {
  for (const c of cases.morale) {
    assert.equal(rules.testMorale(c.unit, "advance", c.bonus, c.tiger, c.shed, c.range), c.morale, label(c));
  }
});

test("pins at the unit's morale rout it, unless it is Fanatic with two men or more", () => {
  for (const c of cases.pins) {
    assert.equal(rules.routs(c.pins, c.limit, c.pin_rout, c.fanatic, c.men), c.routs, label(c));
  }
});

test("the end of the turn: dice back in the bag, Down and Ambush kept, pins shed staying Down", () => {
  for (const c of cases.end_turn) {
    const after = rules.endOfTurn(c.unit, c.released, c.down, c.d3);
    assert.equal(after.ordersLeft, c.orders_left, label(c));
    if (c.unit.destroyed) continue;  // a destroyed unit's dice have left the game: nothing else to say
    assert.equal(after.kept, c.kept, label(c));
    assert.equal(after.order, c.order_after, label(c));
    assert.equal(after.pins, c.pins_after, label(c));
  }
});

test("a damage result leaves a vehicle's pins, fire and immobilisation as the engine does", () => {
  assert.ok(cases.damage.length > 300);
  assert.ok(cases.damage.some((c) => c.routed) && cases.damage.some((c) => c.knocked_out && c.result === "immobilised"));
  for (const c of cases.damage) {
    const unit = {
      pins: c.unit.pins,
      immobilised: c.unit.immobilised,
      onFire: c.unit.on_fire,
      limit: c.limit,
      pinRout: c.pin_rout,
      fanatic: false,
      men: null,
    };
    const after = rules.damage(unit, c.result, c.second_knocks_out);
    assert.equal(after.knockedOut, c.knocked_out, label(c));
    assert.equal(after.routed, c.routed, label(c));
    assert.equal(after.onFire, c.on_fire, label(c));
    assert.equal(after.pins, c.pins, label(c));
    assert.equal(after.immobilised, c.immobilised, label(c));
  }
});

test("casualties leave a unit's men, wiped out or routed (Fanatics at their limit), as the engine does", () => {
  assert.ok(cases.casualties.some((c) => c.routed) && cases.casualties.some((c) => c.wiped_out));
  assert.ok(cases.casualties.some((c) => c.delta < 0));
  for (const c of cases.casualties) {
    const unit = { ...c.unit, limit: c.limit, pinRout: c.pin_rout };
    const after = rules.casualties(unit, c.delta);
    assert.deepEqual([after.men, after.wipedOut, after.routed], [c.men, c.wiped_out, c.routed], label(c));
  }
});

test("an NCO among the casualties is lost unless Initiative Training's die shows 2+", () => {
  assert.ok(cases.nco.some((c) => c.initiative && !c.lost) && cases.nco.some((c) => c.initiative && c.lost));
  for (const c of cases.nco) assert.equal(rules.ncoLost(c.initiative, c.die), c.lost, label(c));
});

test("a die drawn blind is of the side the engine's draw gives for the same number, none from an empty bag", () => {
  assert.ok(["a", "b", ""].every((side) => cases.draw.some((c) => c.side === side)));
  assert.ok(cases.draw.some((c) => c.number >= c.left.a + c.left.b && c.left.a + c.left.b > 0));
  for (const c of cases.draw) assert.equal(rules.drawSide(c.left, c.number), c.side, label(c));
});

test("Communication Breakdown's die is offered back only for the game's first die, once", () => {
  assert.ok(cases.send_back.some((c) => c.offered) && cases.send_back.some((c) => c.carries && !c.offered));
  for (const c of cases.send_back) {
    assert.equal(rules.sendBackOffered(c.turn, c.carries, c.ordered, c.sent_back, c.finished), c.offered, label(c));
  }
});

test("the pins a unit keeps after its order: a pass loses one, a Rally its die or all, as the engine has it", () => {
  assert.ok(cases.orders.some((c) => c.given === "rally" && c.pins_after < c.unit.pins));
  for (const c of cases.orders) {
    const tested = c.morale !== null;
    const opts = { tested, rally: c.rally || 0, rallyAll: c.rally_all };
    assert.equal(rules.pinsAfterOrder(c.unit.pins, c.order, c.given, opts), c.pins_after, label(c));
  }
});

test("Banzai Charge's pin and Vengeance's shed pin before the test leave the pins the engine has", () => {
  assert.ok(cases.national_pins.some((c) => c.rule === "banzai-charge" && c.pins_after < c.pins));
  assert.ok(cases.national_pins.some((c) => c.shed && c.tested));
  for (const c of cases.national_pins) {
    const opts = {
      shed: c.shed,
      banzai: c.rule === "banzai-charge",
      tested: c.tested,
      rally: c.rally || 0,
      rallyAll: c.rally_all,
    };
    assert.equal(rules.pinsAfterOrder(c.pins, c.order, c.given, opts), c.pins_after, label(c));
  }
});

test("FUBAR's chart gives friendly fire or panic on each face as the engine does", () => {
  assert.deepEqual([...new Set(cases.fubar.map((c) => c.outcome))].sort(), ["friendly_fire", "panic"]);
  for (const c of cases.fubar) assert.equal(rules.fubarOutcome(c.chart, c.faces), c.outcome, label(c));
});

test("an officer's order is passed on to his extra orders' worth of units, one more with Blitzkrieg", () => {
  assert.ok(cases.snap.some((c) => c.blitzkrieg && c.passed_on === c.extra + 1 && c.extra > 0));
  assert.ok(cases.snap.some((c) => c.extra > 0 && c.took && !c.takers && c.passed_on === 0));
  for (const c of cases.snap) {
    assert.equal(rules.snapPassOn(c.extra, c.blitzkrieg, c.took, c.takers), c.passed_on, label(c));
  }
});

test("the log's sentences are the server's, in English and French, for every kind of entry the phone writes", () => {
  const kinds = new Set(cases.log.map((c) => c.entry.kind));
  for (const kind of ["draw", "order", "snap", "pins", "casualties", "damage", "remove", "send_back", "support", "end_turn"]) {
    assert.ok(kinds.has(kind), kind);
  }
  assert.ok(cases.log.some((c) => c.entry.detail.typed) && cases.log.some((c) => c.entry.detail.commissar));
  for (const c of cases.log) {
    for (const language of Object.keys(cases.log_words)) {
      assert.equal(rules.logLine(cases.log_words[language], c.entry), c.line[language], label(c));
    }
  }
});

test("an air strike's outcome and the calls left, and a barrage's radius, as the engine has them", () => {
  assert.deepEqual([...new Set(cases.air_strike.map((c) => c.outcome))].sort(), ["arrives", "empty", "rookie"]);
  for (const c of cases.air_strike) {
    assert.deepEqual(rules.airStrike(c.die, c.left_before), { outcome: c.outcome, left: c.left }, label(c));
  }
  assert.equal(cases.barrage_radius.length, 36);
  for (const c of cases.barrage_radius) assert.equal(rules.barrageRadius(c.dice), c.radius, label(c));
});

// The prints a phone sends with a tap (game.js, from each piece's data-print): the server
// (games.views._shown) reads exactly this form; tests/games/test_board_once.py reads the same string.
test("the prints of what the phone shows, as id:print pairs the server reads", () => {
  const pairs = [["game", "AbCdEf012345"], ["u-a12", "zz_-09AZaz12"], ["game-bar", "000000000000"]];
  assert.equal(rules.printsField(pairs), "game:AbCdEf012345,u-a12:zz_-09AZaz12,game-bar:000000000000");
});

test("a piece without a readable print or id is left out, and is then sent again", () => {
  const pairs = [
    ["", "AbCdEf012345"],  // an element without an id
    ["u-a1", ""],  // a print not rendered
    ["u-a2", "short"],
    ["u-a3", "AbCdEf012345x"],
    ["u a4", "AbCdEf012345"],
    ["u-a5", "AbCdEf01234,"],
    ["u-a6", "AbCdEf012345"],
  ];
  assert.equal(rules.printsField(pairs), "u-a6:AbCdEf012345");
  assert.equal(rules.printsField([]), "");
});

test("prints longer than the bound, once URL-encoded, are not sent at all", () => {
  const pairs = [["game", "AbCdEf012345"], ["u-a1", "AbCdEf012345"]];
  // "game:AbCdEf012345,u-a1:AbCdEf012345" is 35 characters, 41 once ":" and "," are encoded.
  assert.equal(rules.printsField(pairs, 41), "game:AbCdEf012345,u-a1:AbCdEf012345");
  assert.equal(rules.printsField(pairs, 40), "");
});
