"""Golden digests: random games of every variant and option set give exactly the output of
the engine before its speed rounds.

Each case plays seeded random games to the end through ``legal_actions`` / ``apply``, with
occasional resignations, forfeits, timeouts and aborts, and tries illegal actions now and
then (their reasons and legal lists count). A SHA-256 digest covers every legal-action
list, every event's ``to_dict`` and ``for_seat`` for each seat and spectators, the
serialized state (and its round trip through ``from_json``) and the settlement every few
actions. :data:`DIGESTS` were recorded with the engine at commit 09ddeaa, before the speed
round of issue 19 changed its hot path; a change of representation must leave them
unchanged. A deliberate change of the engine's output (a new event field, a
new reason) changes them: record the new values with ``python -m tests.engine.test_digest``
and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from engine import (
    Action,
    IllegalAction,
    Rules,
    apply,
    from_json,
    legal_actions,
    may_abort,
    new_game,
    to_json,
)
from engine.actions import ABORT_ACTION, FORFEIT_ACTION, RESIGN_ACTION, TIMEOUT_ACTION

#: (variant, options) of each case.
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "sixty-six": ("sixty-six", {}),
    "schnapsen": ("schnapsen", {}),
    "three-hand": ("three-hand", {}),
    "four-hand": ("four-hand", {}),
    "no-closing": ("sixty-six", {"closing": False}),
    "automatic-66": ("sixty-six", {"automatic_66": True}),
    "next-trick": ("sixty-six", {"meld_credit": "next_trick"}),
    "played-out-one": ("sixty-six", {"played_out_points": "one", "match_points": 3}),
    "schnapsen-auto": ("schnapsen", {"automatic_66": True, "meld_credit": "next_trick",
                                     "exchange_requires_trick": True}),
    "house": ("sixty-six", {"false_declaration": "mirror", "meld_before_first_trick":
                            "forbidden", "exchange_min_talon": 4, "close_min_talon": 5,
                            "last_trick_bonus": 0, "schneider_bummerl": False,
                            "set_bummerl": 2}),
}

#: Games per case.
GAMES = 40

#: Illegal attempts: these, and the legal actions of the seat after the one to act.
_PROBES = [Action.from_text(t) for t in ("declare", "close", "exchange", "meld:H", "play:AH",
                                         "continue")]


def digest(variant: str, options: dict[str, Any], games: int = GAMES) -> str:
    """The digest of ``games`` seeded random games under these rules."""
    h = hashlib.sha256()
    rules = Rules.make(variant, options)

    def put(value: Any) -> None:
        h.update(json.dumps(value, sort_keys=True, default=str).encode())

    for seed in range(games):
        rng = random.Random(seed)
        state, events = new_game(rules, rng=rng)
        steps = 0
        while not state.over and steps < 3000:
            seat = next(s for s in range(state.players) if legal_actions(state, s))
            legal = legal_actions(state, seat)
            put([a.text() for a in legal])
            action = legal[int(rng.random() * len(legal))]
            r = rng.random()
            if r < 0.002:
                action = RESIGN_ACTION
            elif r < 0.004:
                action = FORFEIT_ACTION
            elif r < 0.03 and action.kind != "continue":
                action = TIMEOUT_ACTION
            elif r < 0.035 and may_abort(state, seat):
                action = ABORT_ACTION
            elif r > 0.99:
                for probe in legal_actions(state, (seat + 1) % state.players) + _PROBES:
                    try:
                        put([e.to_dict() for e in apply(state.copy(), seat, probe,
                                                          rng=random.Random(5))])
                    except IllegalAction as exc:
                        put([exc.reason, [a.text() for a in exc.legal]])
            events += apply(state, seat, action, rng=rng)
            steps += 1
            if steps % 7 == 0:
                text = to_json(state)
                put([text, to_json(from_json(text)), state.settlement])
        for event in events:
            put(event.to_dict())
            put([event.for_seat(s) for s in (None, *range(state.players))])
    return h.hexdigest()


DIGESTS = {
    'sixty-six': '5610084f294a883ddc36b713ce5144e268223b53b94db61724282c6e980eae50',
    'schnapsen': '633f267ada2b0c6fdb51ac941eb9c17aa5fad5e37f847a554248ef1d10834e0c',
    'three-hand': 'f0a976de8b52e86649b21d3e176e3b23203bcb4de5dc9503533ee74a726427dd',
    'four-hand': '879b4ce8cba1591ad7bb927e0480148b971fbd7846880716c792247258630be0',
    'no-closing': 'a3fcc295ffe1279b71d96b6c84bc92c92f0fb8713f9d544bf9d3c4eece073bbd',
    'automatic-66': '5f2cbe40ee54b4268885c2bde76106ed229e2f39c41e2edbea31b128fe345668',
    'next-trick': 'f93d87cb8edb9801e41a47237798b73bf6b2a17e6541eace25c2a8a4f7908d1b',
    'played-out-one': '0280b40ccc77d5f31ed1a6f1141c993dc56c169244f30f92c6dc4cd1ed05810e',
    'schnapsen-auto': '1b5071af66ba3536d796312fd7c12af66c4f033f93232c4f994d410b0c628a9c',
    'house': 'd6f66d8f7eb2b0461f65573193a84cd856b4db8fd35995a2c93d3e6d5e735bd9',
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_random_games_give_the_recorded_digest(case: str) -> None:
    variant, options = CASES[case]
    assert digest(variant, options) == DIGESTS[case]


def test_the_digest_sees_a_changed_event() -> None:
    """A digest of other games (or other output) differs: the comparison can fail."""
    variant, options = CASES["sixty-six"]
    assert digest(variant, options, GAMES - 1) != DIGESTS["sixty-six"]


if __name__ == "__main__":
    for name, (variant, options) in CASES.items():
        print(f"    {name!r}: {digest(variant, options)!r},")
