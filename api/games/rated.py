"""Why a game does not count for the leaderboard and ratings: the ``unrated_reason`` of its
meta and views (``None`` when it counts)."""

from __future__ import annotations

from typing import Final

DECK: Final = "unrated: a game dealt from a given deck never counts"
ANONYMOUS: Final = ("unrated: no player account sits in this game (create it with "
                    "Authorization: Bearer <player token> to play for the leaderboard)")
PEOPLE: Final = ("unrated: a game from POST /v1/games counts only against computers (play "
                 "people at a table)")
TABLE: Final = "unrated: the table was created with rated false"
TAUSENDEINS: Final = ("unrated: Tausendeins games do not count for the leaderboard or the "
                      "ratings, which score games of Sixty-Six; each is kept in the players' "
                      "histories")
