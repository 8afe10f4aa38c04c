// The words a new player reads at the table: the exchange button of each pack, the
// settlement's title in each game's own terms, a hint's actions and values in words (views
// and hints as the server gives them).

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  actionWords, exchangeCard, exchangeWords, gameTerms, hintCell, hintSummary, settlementTitle,
} from "../../../api/web/words.js";

const SIXTY_SIX = { variant: "sixty-six", rules: { deck: 24 }, trump_suit: "H", trump_card: "AH",
  status: "playing", hand_no: 2 };
const DECK_32 = { ...SIXTY_SIX, rules: { deck: 32 } };
const T1001 = { variant: "tausendeins", rules: {}, trump_suit: null, status: "hand_over",
  hand_no: 3 };

test("the exchange names the card given: the Nine, the Seven of 32 cards, Schnapsen's Jack", () => {
  assert.equal(exchangeCard(SIXTY_SIX), "9H");
  assert.equal(exchangeCard(DECK_32), "7H");
  assert.equal(exchangeCard({ ...SIXTY_SIX, variant: "schnapsen" }), "JH");
  assert.deepEqual(exchangeWords(DECK_32), { text: "Exchange seven",
    label: "Exchange the Seven of hearts for the Ace of hearts" });
  assert.deepEqual(exchangeWords(SIXTY_SIX), { text: "Exchange nine",
    label: "Exchange the Nine of hearts for the Ace of hearts" });
  assert.equal(exchangeWords({ ...SIXTY_SIX, variant: "schnapsen" }, "german").text,
    "Exchange unter");
  assert.equal(actionWords(DECK_32, { type: "exchange" }),
    "Exchange the Seven of hearts for the Ace of hearts");
});

test("Tausendeins settles deals and ends a game; Sixty-Six settles hands and ends a match", () => {
  assert.deepEqual(gameTerms(T1001), { hand: "deal", match: "game" });
  assert.equal(settlementTitle(T1001), "Deal 3 settled");
  assert.equal(settlementTitle({ ...T1001, status: "match_over" }), "Game over");
  assert.equal(settlementTitle({ ...SIXTY_SIX, status: "hand_over" }), "Hand 2 settled");
  assert.equal(settlementTitle({ ...SIXTY_SIX, status: "match_over" }), "Match over");
  assert.equal(settlementTitle({ ...T1001, status: "aborted" }), "Game aborted");
});

test("a hint's actions are words, not codes, and its values say what they mean", () => {
  assert.equal(actionWords(T1001, { type: "play", card: "JC" }), "Play the Jack of clubs");
  assert.equal(actionWords(T1001, { type: "discard", cards: ["9H", "JC"] }),
    "Discard the Nine of hearts and the Jack of clubs");
  assert.equal(actionWords(T1001, { type: "meld", suit: "D" }),
    "Meld the marriage of diamonds (it becomes trump)");
  assert.equal(actionWords(T1001, { type: "raise", points: 130 }), "Raise the contract to 130");
  assert.equal(actionWords(SIXTY_SIX, { type: "meld", suit: "S" }, "german"),
    "Show the pair of leaves");
  assert.equal(actionWords(SIXTY_SIX, { type: "close" }), "Close the talon");
  const hint = { best: { type: "play", card: "JC" }, samples: 40, actions: [
    { action: { type: "play", card: "JC" }, text: "play:JC", expected_game_points: -187.84 },
    { action: { type: "pass" }, text: "pass", expected_game_points: -190 }] };
  const summary = hintSummary(T1001, hint);
  assert.equal(summary, "On average over 40 sampled deals it ends the deal 187.8 points behind "
    + "(your points minus the other player's). Next best: Pass, which ends the deal 190.0 "
    + "points behind.");
  assert.doesNotMatch(summary, /play:|margin/);
  assert.equal(hintCell(T1001, 12), "12.0 ahead");
  const family = { best: { type: "close" }, samples: 1, actions: [
    { action: { type: "close" }, expected_game_points: 1.416 },
    { action: { type: "play", card: "QH" }, expected_game_points: -0.5 }] };
  assert.equal(hintSummary(SIXTY_SIX, family), "It wins 1.42 game points. Next best: Play the "
    + "Queen of hearts, which loses 0.50 game points.");
  assert.equal(hintCell(SIXTY_SIX, -0.5), "−0.50");
  const only = { best: { type: "play", card: "QH" }, samples: 0,
    actions: [{ action: { type: "play", card: "QH" }, expected_game_points: 0 }] };
  assert.equal(hintSummary(SIXTY_SIX, only), "It is your only choice now.");
});
