// Unit tests of the web client's pure modules, run by node's test runner
// (tests/web/test_js_units.py runs `node --test` on a copy beside a module package.json).

import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError, failedWrite, unsettled } from "../../../api/web/api.js";
import { cardName, faceSvg, sortCards } from "../../../api/web/cards.js";
import { keyCommand } from "../../../api/web/keys.js";
import { eventText, hoyleLines, seatName, trickReason } from "../../../api/web/words.js";

test("the hand is sorted as in the terminal: trumps first, then C S H D, high to low", () => {
  assert.deepEqual(sortCards(["9D", "QS", "AH", "KS", "TH", "JD"], "H"),
    ["AH", "TH", "KS", "QS", "JD", "9D"]);
  assert.deepEqual(sortCards(["9H", "AC", "TD", "KS"], "D"), ["TD", "AC", "KS", "9H"]);
});

test("cards are named for screen readers, by the deck's pictures", () => {
  assert.equal(cardName("QH"), "Queen of hearts");
  assert.equal(cardName("TC"), "Ten of clubs");
  assert.equal(cardName("QH", "german"), "Ober of hearts");
  assert.equal(cardName("JC", "german"), "Unter of acorns");
});

test("the 8s and 7s of the 32-card pack sort under the 9, are named and drawn with their pips", () => {
  assert.deepEqual(sortCards(["7S", "9S", "8S", "7H"], "H"), ["7H", "9S", "8S", "7S"]);
  assert.equal(cardName("8D"), "Eight of diamonds");
  assert.equal(cardName("7C", "german"), "Seven of acorns");
  assert.equal(faceSvg("7H").match(/>7</g).length, 2); // the corners; the pips in between
  assert.notEqual(faceSvg("8H"), faceSvg("7H"));
});

test("a face is an SVG with its rank in both corners; German pictures differ", () => {
  const french = faceSvg("QH");
  assert.match(french, /^<svg [^>]*viewBox="0 0 100 150"/);
  assert.equal(french.match(/>Q</g).length, 3); // two corners and the middle
  assert.equal(faceSvg("QH", "german").match(/>O</g).length, 3);
  assert.notEqual(faceSvg("9D"), faceSvg("9D", "german"));
});

test("keys 1-9 pick the n-th card, R a hint, B the balance; Enter only on a dialog", () => {
  assert.deepEqual(keyCommand({ key: "1" }), { kind: "card", index: 0 });
  assert.deepEqual(keyCommand({ key: "9" }), { kind: "card", index: 8 });
  assert.equal(keyCommand({ key: "0" }), null);
  assert.deepEqual(keyCommand({ key: "r" }), { kind: "hint" });
  assert.deepEqual(keyCommand({ key: "B" }), { kind: "balance" });
  assert.equal(keyCommand({ key: "Enter" }), null);
  assert.deepEqual(keyCommand({ key: "Enter" }, { overlay: true }), { kind: "confirm" });
  assert.equal(keyCommand({ key: "1" }, { overlay: true }), null);
  assert.equal(keyCommand({ key: "1", target: "input" }), null);
  assert.equal(keyCommand({ key: "r", ctrlKey: true }), null);
});

test("a trick's reason names the ranks when the higher card of the suit won", () => {
  assert.equal(trickReason({ reason: "higher_card", cards: ["KH", "TH"], winning_card: "TH" }),
    "ten beats king");
  assert.equal(trickReason({ reason: "trump", cards: ["AS", "9H"], winning_card: "9H" }),
    "trumps");
  assert.equal(trickReason({ reason: "off_suit", cards: ["9S", "AD"], winning_card: "9S" }),
    "suit not followed");
});

test("the log speaks of the reader as You and names the others", () => {
  const view = { seat: 0, seats: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bob" }] };
  assert.equal(eventText(view, { type: "card_played", seat: 0, card: "QH" }),
    "You play the Queen of hearts.");
  assert.equal(eventText(view, { type: "card_played", seat: 1, card: "TH" }),
    "Bob plays the Ten of hearts.");
  assert.equal(eventText(view, { type: "card_drawn", seat: 1, card: null }), null);
  assert.equal(eventText(view, { type: "declare", seat: 1, points: 70 }),
    "Bob declares 66 with 70 points.");
});

test("the log tells the rule options of other rule sets: automatic 66, later meld credit", () => {
  const seats = [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bob" }];
  const meld = { type: "meld", seat: 1, suit: "H", points: 20, credited: false };
  const view = { seat: 0, seats, rules: { meld_credit: "immediate" } };
  const later = { seat: 0, seats, rules: { meld_credit: "next_trick" } };
  assert.equal(eventText(view, meld), "Bob shows 20 in hearts (counts with the first trick).");
  assert.equal(eventText(later, meld), "Bob shows 20 in hearts (counts with the next trick won).");
  assert.equal(eventText(later, { type: "reached_66", seat: 0, points: 67 }),
    "You reach 66 with 67 points: the hand is over.");
  const settled = { type: "hand_settled", settlement: {
    reason: "reached_66_against_closer", winners: [1], game_points: 3 } };
  assert.equal(eventText(later, settled),
    "Hand over: Bob wins 3 game points (reached 66 against the closer).");
});

test("the log tells the trump Ten's game point and the hand it wins (four-hand hoyle)", () => {
  const seats = [0, 1, 2, 3].map((seat) => ({ seat, kind: "computer", level: "easy",
    name: "Computer (easy)" }));
  const view = { seat: 0, seats };
  const ten = eventText(view, { type: "trump_ten_point", seat: 2, side: 0, score: [6, 4] });
  assert.ok(ten.startsWith("North (easy, partner) takes the trump Ten: 1 game point for "), ten);
  assert.ok(ten.endsWith(" (6:4)."), ten);
  const settled = { type: "hand_settled", settlement: {
    reason: "trump_ten", winners: [0, 2], game_points: 0 } };
  assert.equal(eventText(view, settled),
    "Hand over: You + North (easy, partner) win the match by the trump Ten's game point.");
  assert.deepEqual(hoyleLines(view, { carried_points: 0, carried_to_next: 2, trump_ten_side: 1 }),
    ["The winners of the next hand get 2 game points more.",
      "The trump Ten: 1 game point to West (easy) + East (easy)."]);
  assert.deepEqual(hoyleLines(view, { carried_points: 1, carried_to_next: 0, trump_ten_side: null }),
    ["1 of these game points carried from tied hands.", "Nobody took the trump Ten."]);
  assert.deepEqual(hoyleLines(view, { reason: "played_out" }), []);
});

test("in three- and four-hand the others are named by where they sit, as in the terminal", () => {
  const seats = [0, 1, 2, 3].map((seat) => ({ seat, kind: "computer", level: "easy",
    name: "Computer (easy)" }));
  seats[1] = { seat: 1, kind: "human", name: "Bob" };
  const view = { seat: 0, seats };
  assert.deepEqual([0, 1, 2, 3].map((s) => seatName(view, s)),
    ["You", "West (Bob)", "North (easy, partner)", "East (easy)"]);
  assert.equal(seatName({ seat: null, seats }, 2), "Computer (easy)");
  assert.equal(seatName({ seat: 1, seats: seats.slice(0, 3) }, 0), "East (easy)");
});

test("a write that may stand is never said to be not done", () => {
  const problem = (slug) => new ApiError(503, { type: `https://sixtysix.dev/problems/${slug}`,
    detail: "the game store is unreachable; retry later" });
  for (const slug of ["outcome-unknown", "saved-view-unavailable"]) {
    assert.ok(unsettled(problem(slug)));
    assert.equal(failedWrite(problem(slug), "your move"),
      "The server could not confirm your move: it may have been done.");
  }
  assert.ok(!unsettled(problem("store-unavailable")));
  assert.equal(failedWrite(problem("store-unavailable"), "your message", "Not sent"),
    "Not sent: the game store is unreachable; retry later");
});
