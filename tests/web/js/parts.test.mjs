// The clocks' text, the Route-66 map's stations, the dialogs' Tab order and the keys over a
// settlement (pure parts of the web client).

import assert from "node:assert/strict";
import { test } from "node:test";

import { formatRemaining, readingText, running, seatClockText } from "../../../api/web/clock.js";
import { wrapIndex } from "../../../api/web/dom.js";
import { keyCommand } from "../../../api/web/keys.js";
import { MAP, stationLabel, stationPoints, stationState } from "../../../api/web/tourmap.js";

test("a clock counts whole seconds up, and shows only for the seat to move", () => {
  assert.equal(formatRemaining(65000), "1:05");
  assert.equal(formatRemaining(6001), "0:07");
  assert.equal(formatRemaining(-50), "0:00");
  const run = running({ for: "move", seat: 1, remaining_ms: 30000 }, 1000);
  assert.deepEqual(run, { kind: "move", seat: 1, endsAt: 31000 });
  assert.equal(seatClockText(run, 1, 11000), "0:20");
  assert.equal(seatClockText(run, 0, 11000), "");
  assert.equal(readingText(run, 11000), "");
  const reading = running({ for: "settlement", seat: null, remaining_ms: 12000 }, 0);
  assert.equal(readingText(reading, 2000), "Reading time 0:10");
  assert.equal(seatClockText(reading, 0, 0), "");
  assert.equal(running({ for: null, seat: null, remaining_ms: null }, 0), null);
  assert.equal(running(null, 0), null);
});

test("eight stations lie east to west inside the map, each stamped, open or locked", () => {
  const points = stationPoints(8);
  assert.equal(points.length, 8);
  for (let i = 1; i < 8; i += 1) assert.ok(points[i].x < points[i - 1].x);
  for (const { x, y } of points) {
    assert.ok(x >= 0 && x <= MAP.width && y >= 20 && y <= MAP.height - 40, `${x},${y}`);
  }
  const chicago = { number: 1, city: "Chicago", diner: "Lakeshore Griddle", opponent: "Mabel",
    level: "easy", variant: "sixty-six", match_points: 3, stamped_at: null, open: true };
  assert.equal(stationState(chicago), "open");
  assert.equal(stationState({ ...chicago, open: false }), "locked");
  assert.equal(stationState({ ...chicago, stamped_at: 1738324800 }), "stamped");
  assert.equal(stationLabel(chicago),
    "1. Chicago, Lakeshore Griddle: Mabel (easy), sixty-six to 3 — open");
});

test("Tab and Shift+Tab wrap round inside a dialog", () => {
  assert.equal(wrapIndex(-1, 3, false), 0);
  assert.equal(wrapIndex(-1, 3, true), 2);
  assert.equal(wrapIndex(2, 3, false), 0);
  assert.equal(wrapIndex(0, 3, true), 2);
  assert.equal(wrapIndex(1, 3, false), 2);
});

test("over the settlement B opens the balance; Tab is trapped in any dialog", () => {
  assert.deepEqual(keyCommand({ key: "b" }, { overlay: true, settlement: true }),
    { kind: "balance" });
  assert.equal(keyCommand({ key: "b" }, { overlay: true }), null); // the balance is open
  assert.deepEqual(keyCommand({ key: "Tab" }, { overlay: true }), { kind: "trap" });
  assert.deepEqual(keyCommand({ key: "Tab", target: "input" }, { overlay: true }),
    { kind: "trap" });
  assert.equal(keyCommand({ key: "Tab" }), null);
  assert.equal(keyCommand({ key: "1" }, { overlay: true, settlement: true }), null);
});
