// Tausendeins (1001) in the web client: the log's lines, the table's words, the discard's
// choice and the lobby's rule options (views and settlements as the engine gives them).

import assert from "node:assert/strict";
import { test } from "node:test";

import { gameLength, readRules } from "../../../api/web/lobby.js";
import { discardAction, toggleChosen } from "../../../api/web/table1001.js";
import {
  callsText, contractText, contractVerdict, dealWorking, eventText, gameResultText,
  marriageValue, totalsText, trumpText,
} from "../../../api/web/words.js";

const SEATS = [{ seat: 0, name: "Ann", kind: "human" },
  { seat: 1, name: "Computer (random)", kind: "computer", level: "random" }];
/** A view of seat 0 in the auction (engine.tausendeins.view), with the service's seats. */
const AUCTION = {
  seat: 0, seats: SEATS, variant: "tausendeins", status: "playing", stage: "auction",
  rules: { marriage_values: "german" }, hand_no: 1, dealer: 1, forehand: 0, to_act: 0,
  trump_suit: null, stock_size: 8, melds: [], totals: [100, 35], target: 1001,
  needed: [901, 966],
  auction: { calls: [{ seat: 0, bid: 100 }, { seat: 1, bid: 110 }], contract: 110, declarer: 1,
    raised: false },
};
const PLAYING = { ...AUCTION, stage: "play", trump_suit: "H",
  auction: { calls: [...AUCTION.auction.calls, { seat: 0, bid: null }], contract: 110,
    declarer: 1, raised: true } };
/** The seats of a settlement: seat 0 made a contract of 100 with the unused cards. */
const MADE = {
  seat: 0, cards: ["KC", "9C", "TS"], card_points: 62, tricks: 6,
  marriages: [{ suit: "D", value: 40, trick_no: 1, credited_at: 2, scored: true }],
  forfeited_marriages: [], last_trick_bonus: 0, leftover_points: 23, score: 125, rounded: 125,
  change: 100, total_before: 0, total: 100, needed: 901,
};
const DEFENDED = {
  seat: 1, cards: ["AC"], card_points: 33, tricks: 4, marriages: [], forfeited_marriages:
    [{ suit: "H", value: 60, trick_no: 2 }], last_trick_bonus: 10, leftover_points: 0,
  score: 43, rounded: 40, change: 40, total_before: 0, total: 40, needed: 961,
};
const SETTLEMENT = { hand_no: 1, seats: [MADE, DEFENDED], trump_at_end: "D",
  contract: { declarer: 0, contract: 100, raised: false, score: 125, made: true, by: 25 } };

test("each marriage sets trump, and the log says which suit it ends", () => {
  const view = { ...PLAYING };
  assert.equal(eventText(view, { type: "meld", seat: 1, suit: "D", value: 40, credited: true,
    trump: "D", trump_before: "H" }),
  "Computer (random) melds the marriage of diamonds for 40: trump is now diamonds (was hearts).");
  assert.equal(eventText(view, { type: "meld", seat: 0, suit: "H", value: 60, credited: false,
    trump: "H", trump_before: null }),
  "You meld the marriage of hearts for 60 (counts once a trick is won): trump is now hearts.");
  assert.equal(eventText(view, { type: "meld_credited", seat: 0, suit: "H", value: 60 }),
    "You: the marriage of hearts now counts 60.");
});

test("the auction, the musik and the raise are told in the log", () => {
  const view = AUCTION;
  assert.equal(eventText(view, { type: "hand_dealt", hand_no: 2, dealer: 0, stock_size: 8,
    musiks: 0 }), "Deal 2: You deal; a stock of 8; no trump until a marriage.");
  assert.equal(eventText(view, { type: "hand_dealt", hand_no: 1, dealer: 1, stock_size: 0,
    musiks: 2 }), "Deal 1: Computer (random) deals; 2 musiks of 2 cards; no trump until a marriage.");
  assert.equal(eventText(view, { type: "bid", seat: 0, points: 100, compulsory: true }),
    "You bid 100 (the compulsory opening).");
  assert.equal(eventText(view, { type: "bid", seat: 1, points: 110 }), "Computer (random) bids 110.");
  assert.equal(eventText(view, { type: "pass", seat: 0 }), "You pass.");
  assert.equal(eventText(view, { type: "auction_won", declarer: 1, contract: 110 }),
    "Computer (random) plays a contract of 110.");
  assert.equal(eventText(view, { type: "musik_taken", seat: 1, musik: 2, cards: ["AD", "TS"] }),
    "Computer (random) takes musik 2: Ace of diamonds, Ten of spades.");
  assert.equal(eventText(view, { type: "discarded", seat: 1, count: 2 }),
    "Computer (random) discards two cards.");
  assert.equal(eventText(view, { type: "discarded", seat: 0, count: 2, cards: ["9H", "JS"] }),
    "You discard Nine of hearts and Jack of spades.");
  assert.equal(eventText(view, { type: "raise", seat: 1, points: 130 }),
    "Computer (random) raises the contract to 130.");
  assert.equal(eventText(view, { type: "stock_exhausted" }),
    "The stock is empty: follow suit and win the trick if you can, else trump.");
  assert.equal(eventText(view, { type: "card_drawn", seat: 1, stock_size: 6 }), null);
  assert.equal(eventText(view, { type: "continue", seat: 0 }), null);
});

test("a settled deal, the game's winner and a resignation are told", () => {
  const view = PLAYING;
  assert.equal(eventText(view, { type: "hand_settled", settlement: SETTLEMENT }),
    "Deal 1 over: Contract 100 of You: made (125, 25 over). You +100, Computer (random) +40.");
  assert.equal(eventText(view, { type: "game_won", winner: 1, totals: [640, 1010] }),
    "Computer (random) won the game 640:1010.");
  assert.equal(gameResultText({ ...view, status: "match_over", winner: 0, totals: [1010, 640],
    ended: null }), "You won the game (1010:640).");
  assert.equal(gameResultText({ ...view, status: "match_over", winner: 1, totals: [0, 0],
    ended: ["resigned", 0] }), "Computer (random) won the game (0:0). You resigned.");
  assert.equal(gameResultText({ ...view, status: "aborted", winner: null, ended: ["aborted", 1] }),
    "Aborted by Computer (random): no result.");
});

test("the table's words: totals to the target, trump or none, the calls and the contract", () => {
  assert.equal(totalsText(AUCTION), "You 100 (901 to go) · Computer (random) 35 (966 to go)");
  assert.equal(trumpText(AUCTION), "Trump: none (no marriage yet)");
  assert.equal(trumpText(PLAYING, "german"), "Trump: hearts");
  assert.equal(trumpText({ trump_suit: "C" }, "german"), "Trump: acorns");
  assert.equal(callsText(AUCTION), "You 100, Computer (random) 110");
  assert.equal(contractText(AUCTION), "Highest bid: 110 by Computer (random)");
  assert.equal(contractText(PLAYING), "Contract: 110 (raised) by Computer (random)");
  assert.equal(contractText({ ...PLAYING, auction: null }), null);
});

test("a marriage is worth its suit's value, or (by_order) its place in the deal", () => {
  assert.equal(marriageValue(AUCTION, "C"), 100);
  assert.equal(marriageValue(AUCTION, "D"), 40);
  assert.equal(marriageValue({ rules: { marriage_values: "russian" }, melds: [] }, "H"), 100);
  const ordered = { rules: { marriage_values: "by_order" }, melds: [{}, {}] };
  assert.equal(marriageValue(ordered, "D"), 80);
});

test("the settlement's working: cards, marriages, bonus, unused cards, rounding, the contract", () => {
  assert.equal(dealWorking(MADE), "cards 62 + marriage of diamonds 40 + unused cards 23 = 125");
  assert.equal(dealWorking(DEFENDED), "cards 33 + last trick 10 = 43 → 40");
  assert.equal(contractVerdict(PLAYING, SETTLEMENT.contract),
    "Contract 100 of You: made (125, 25 over).");
  assert.equal(contractVerdict(PLAYING, { declarer: 1, contract: 130, raised: true, score: 95,
    made: false, by: -35 }), "Contract 130 (raised) of Computer (random): failed (95, 35 short).");
});

test("two cards are chosen to discard; a third replaces the first, a second click unchooses", () => {
  let chosen = toggleChosen([], "9H");
  assert.equal(discardAction(chosen), null);
  chosen = toggleChosen(chosen, "JS");
  assert.deepEqual(discardAction(chosen), { type: "discard", cards: ["9H", "JS"] });
  assert.deepEqual(toggleChosen(chosen, "AD"), ["JS", "AD"]);
  assert.deepEqual(toggleChosen(chosen, "9H"), ["JS"]);
});

test("the lobby sends the rule options that differ from their defaults, typed", () => {
  const options = [
    { name: "target_points", type: "integer", default: 1001, range: true },
    { name: "bidding", type: "string", default: "contract" },
    { name: "musik_shown", type: "boolean", default: true },
    { name: "bid_step", type: "integer", default: 10 }];
  const values = { rule_target_points: "300", rule_bidding: "contract", rule_musik_shown: "false",
    rule_bid_step: "10" };
  const form = { elements: { namedItem: (name) => ({ type: "text", value: values[name] }) } };
  assert.deepEqual(readRules(form, "", options), { target_points: 300, musik_shown: false });
});

test("a table is named by its match points, or by the target of its rules", () => {
  assert.equal(gameLength({ variant: "sixty-six", match_points: 7 }), "sixty-six to 7");
  assert.equal(gameLength({ variant: "tausendeins", match_points: null,
    rules: { target_points: 1001 } }), "tausendeins to 1001");
  assert.equal(gameLength({ variant: "tausendeins" }), "tausendeins");
});
