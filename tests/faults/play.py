"""Playing games over real HTTP for the fault and fuzz tests: random legal moves, acknowledged
versions recorded."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

import requests

#: Config that switches the rate limits off: these tests send many actions per second.
UNLIMITED: Final = {"SIXTYSIX_RATE_ADDRESS": "off", "SIXTYSIX_RATE_CREATE": "off",
                    "SIXTYSIX_RATE_ACTIONS": "off", "SIXTYSIX_LOG_REQUESTS": 0}
TIMEOUT: Final = 30.0


class StoreUnavailable(AssertionError):
    """The server answered 503: a failure, unless the test itself took the store away."""


@dataclass(slots=True)
class TwoHumans:
    """A human-vs-human game and the last version the server acknowledged to a client."""

    game_id: str
    tokens: list[str]
    acked: int

    @classmethod
    def create(cls, session: requests.Session, url: str) -> TwoHumans:
        response = session.post(f"{url}/v1/games", json={
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]},
            timeout=TIMEOUT)
        assert response.status_code == 201, response.text
        body = response.json()
        return cls(body["game_id"], [s["token"] for s in body["seats"]], body["version"])

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def view(self, session: requests.Session, url: str, seat: int) -> dict[str, Any]:
        response = session.get(f"{url}/v1/games/{self.game_id}", headers=self.auth(seat),
                               timeout=TIMEOUT)
        if response.status_code == 503:
            raise StoreUnavailable(response.text)
        assert response.status_code == 200, response.text
        out: dict[str, Any] = response.json()
        return out

    def move(self, session: requests.Session, url: str, rng: random.Random,
             ) -> requests.Response | None:
        """One random legal action of a seat that has one (``If-Match`` its version); records
        the acknowledged version. ``None`` when the match is over."""
        for seat in (0, 1):
            view = self.view(session, url, seat)
            if view["status"] == "match_over":
                return None
            if view["legal_actions"]:
                response = session.post(
                    f"{url}/v1/games/{self.game_id}/actions",
                    json=rng.choice(view["legal_actions"]),
                    headers={**self.auth(seat), "If-Match": f'"{view["version"]}"'},
                    timeout=TIMEOUT)
                if response.status_code == 200:
                    self.acked = response.json()["version"]
                return response
        raise AssertionError(f"no seat can act in {self.game_id}")
