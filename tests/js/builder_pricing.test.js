// The builder's pricing on the phone (static/js/builder_pricing.js) against the Python rules' answers:
// tests/js/builder_pricing_cases.json, written by `manage.py builder_js_cases` (rules/army/js_price_cases.py).
// Run with Node's own test runner: `node --test tests/js/` (part of `make test`).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const fs = require("node:fs");

const pricing = require(path.join(__dirname, "..", "..", "static", "js", "builder_pricing.js"));
const written = JSON.parse(fs.readFileSync(path.join(__dirname, "builder_pricing_cases.json"), "utf8"));
const cases = written.cases.map((c) => ({ ...c, table: written.tables[c.table] }));

test("the cases cover priced and refused changes of every unit shape, at every quality", () => {
  assert.ok(cases.length > 500);
  const tables = new Set(cases.map((c) => c.table));
  assert.ok(tables.size >= 5);
  for (const table of tables) {
    const mine = cases.filter((c) => c.table === table);
    assert.ok(mine.some((c) => c.points !== null), table);
    assert.ok(mine.some((c) => c.points === null), table);
  }
  assert.deepEqual([...new Set(cases.map((c) => c.quality))].sort(), ["inexperienced", "regular", "veteran"]);
});

test("a change is priced as the rules price it, or not guessed where the server decides", () => {
  for (const c of cases) {
    const got = pricing.price(pricing.parseTable(c.table), c.quality, c.models, c.chosen);
    assert.equal(got, c.points, JSON.stringify(c));
  }
});

test("a table that does not read prices nothing; a count that is not digits is no count", () => {
  assert.equal(pricing.parseTable("5,10|,50,65"), null);
  assert.equal(pricing.price(pricing.parseTable(""), "regular", 5, {}), null);
  assert.equal(pricing.count(" 7 "), 7);
  for (const text of ["", "-1", "2.5", "1e2", "x"]) assert.equal(pricing.count(text), null, text);
  assert.equal(pricing.price(pricing.parseTable(cases[0].table), "regular", 5, null), null);
});

test("a unit without a quality field is shown at the first quality it is offered at", () => {
  assert.equal(pricing.firstQuality(pricing.parseTable("1,1|,12,|,,|")), "regular");
  assert.equal(pricing.firstQuality(pricing.parseTable("3,3|60,75,90|,,|")), "inexperienced");
});
