// The builder's decisions without a page (static/js/builder_logic.js): its pricing against the Python
// rules' answers (tests/js/builder_pricing_cases.json, written by `manage.py builder_js_cases` from
// rules/army/js_price_cases.py), and its queue that sends changes one at a time.
// Run with Node's own test runner: `node --test tests/js/` (part of `make test`).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const fs = require("node:fs");

const pricing = require(path.join(__dirname, "..", "..", "static", "js", "builder_logic.js"));
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

// A queue whose sends are recorded; an item with ``gone`` has nothing to send it from any more.
function recorded() {
  const log = [];
  const queue = pricing.serialQueue({
    send: (item) => {
      if (item.gone) return false;
      log.push(`send ${item.name}`);
      return true;
    },
    dropped: (item) => log.push(`drop ${item.name}`),
    idle: () => log.push("idle"),
  });
  return { log, queue };
}

test("changes are sent one at a time, in the order they were made", () => {
  const { log, queue } = recorded();
  for (const name of ["a", "b", "c"]) {
    queue.push({ name });
    queue.next();
  }
  assert.deepEqual(log, ["send a"]);
  assert.equal(queue.current.name, "a");
  assert.ok(queue.busy());
  queue.answered();
  queue.next();
  queue.answered();
  queue.next();
  assert.deepEqual(log, ["send a", "send b", "send c"]);
  queue.answered();
  assert.ok(!queue.busy());
  queue.next();
  assert.deepEqual(log.slice(-1), ["idle"]);
});

test("a change with nothing left to send it from is dropped and the next one goes", () => {
  const { log, queue } = recorded();
  queue.push({ name: "a", gone: true });
  queue.push({ name: "b" });
  queue.next();
  assert.deepEqual(log, ["drop a", "send b"]);
  queue.answered();
  queue.push({ name: "c", gone: true });
  queue.next();
  assert.deepEqual(log, ["drop a", "send b", "drop c", "idle"]);
  assert.ok(!queue.busy());
});

test("a held queue sends nothing until it is released (the page paints the change first)", () => {
  const { log, queue } = recorded();
  queue.push({ name: "a" });
  queue.hold();
  queue.next();
  queue.push({ name: "b" });
  queue.next();
  assert.deepEqual(log, []);
  assert.ok(queue.busy());
  queue.release();
  assert.deepEqual(log, ["send a"]);
  queue.hold(); // a change under way is not held back: it is answered as usual
  assert.equal(queue.current.name, "a");
  queue.answered();
  queue.next();
  assert.deepEqual(log, ["send a", "send b"]);
});
