"""Tausendeins discards are face down (docs/rules.md §14): after the musik deal's discard, the
other seat and spectators still know every shown musik card until it is played, discarded or
not, and never learn an unshown discarded card; the declarer sees his own discards."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import act, bearer, two_humans, view
from tests.engine.tausendeins.helpers import deck

#: Seat 0 (forehand) holds TC; musik 2 is KC QH, shown when taken.
CARDS = deck(["TC"], [], ["AH", "TH", "KC", "QH"], kind="musik")


def _seen(client: FlaskClient, game_id: str, token: str | None) -> tuple[dict[str, Any], str]:
    """A seat's (or a spectator's) view, and the text of it and of every event it is given."""
    seen = view(client, game_id, token)
    events = client.get(f"/v1/games/{game_id}/events?after=0&limit=500",
                        headers=bearer(token) if token else {}).json
    return seen, json.dumps(seen) + json.dumps(events)


def test_a_shown_musik_card_stays_known_once_discarded(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, variant="tausendeins",
                                 rules={"contract_deal": "musik"}, deck=CARDS, first_dealer=1)
    assert act(client, game_id, tokens[1], {"type": "pass"}).status_code == 200
    assert act(client, game_id, tokens[0], {"type": "take_musik", "musik": 2}).status_code == 200
    for token in (tokens[1], None):
        assert view(client, game_id, token)["known_cards"] == {"0": ["KC", "QH"]}
    assert act(client, game_id, tokens[0],
               {"type": "discard", "cards": ["KC", "TC"]}).status_code == 200
    declarer = view(client, game_id, tokens[0])
    assert declarer["musik"]["own_discards"] == ["TC", "KC"]
    assert declarer["hand"].count("QH") == 1 and "KC" not in declarer["hand"]
    for token in (tokens[1], None):
        seen, text = _seen(client, game_id, token)
        assert seen["known_cards"] == {"0": ["KC", "QH"]}  # which was laid away: not told
        assert seen["musik"]["own_discards"] is None
        assert '"TC"' not in text  # the unshown discard, never
    assert act(client, game_id, tokens[0], {"type": "play", "card": "QH"}).status_code == 200
    for token in (tokens[1], None):
        seen, text = _seen(client, game_id, token)
        assert seen["known_cards"] == {"0": ["KC"]}  # played: no longer in the hand
        assert '"TC"' not in text
