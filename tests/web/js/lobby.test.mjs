// The lobby's choices as a new player reads them: the 32-card pack where a variant has it, and
// the rule options with their descriptions (the variants and options of GET /v1/rules).

import assert from "node:assert/strict";
import { test } from "node:test";

import { deckChoices, deckRules, gameLength, optionText } from "../../../api/web/lobby.js";

test("the lobby offers the 32-card pack where a variant has it, and sends it as option deck", () => {
  const sixtySix = { name: "sixty-six", decks: [{ deck: 24, deck_size: 24 },
    { deck: 32, deck_size: 32 }] };
  assert.deepEqual(deckChoices(sixtySix),
    [["24", "24 cards"], ["32", "32 cards (with the 8s and 7s)"]]);
  assert.deepEqual(deckChoices({ name: "schnapsen", decks: [{ deck: 24, deck_size: 20 }] }), []);
  assert.deepEqual(deckChoices({ name: "tausendeins", decks: [] }), []);
  assert.deepEqual(deckRules("32"), { deck: 32 });
  assert.deepEqual(deckRules("24"), {});
  assert.deepEqual(deckRules(""), {});
  assert.equal(gameLength({ variant: "sixty-six", match_points: 7, rules: { deck: 32 } }),
    "sixty-six to 7, 32 cards");
});

test("a rule option shows its description and its values without underscores", () => {
  const option = { name: "musik_leftover", type: "string", default: "last_trick",
    allowed: ["last_trick", "declarer", "none"], range: false,
    description: "Who scores the 4 unused cards (the other musik and the discards)." };
  assert.deepEqual(optionText(option), { label: "musik leftover",
    description: "Who scores the 4 unused cards (the other musik and the discards).",
    choices: [["last_trick", "last trick"], ["declarer", "declarer"], ["none", "none"]] });
  assert.deepEqual(optionText({ ...option, range: true, allowed: [100, 10001] }).choices, []);
});
