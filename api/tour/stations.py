"""The eight stations of the Route-66 tour, Chicago to Santa Monica.

Each station is a diner with a named opponent: easy at the first two, normal in the middle,
strong at the last two, Flagstaff and Santa Monica (a longer match there; the last was
``expert``'s until it was no longer offered, not shown stronger than ``strong``); each with
its own variant and match length (the seed names neither, so the diners and their cooks are
the game's own). In
three-hand the diner's two regulars sit at the table; in four-hand the player's partner is a
normal computer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Station:
    slug: str
    city: str
    diner: str
    opponent: str
    level: str
    variant: str
    match_points: int
    #: The opponents' names seat by seat, when more than one sits at the table.
    seated: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The name of each opponent seat (the partner of four-hand is not one)."""
        return self.seated or (self.opponent,)


STATIONS: Final = (
    Station("chicago", "Chicago", "Lakeshore Griddle", "Mabel", "easy", "sixty-six", 3),
    Station("st-louis", "St. Louis", "Gateway Grill", "Earl", "easy", "schnapsen", 3),
    Station("tulsa", "Tulsa", "Cyrus Avery Café", "Dot", "normal", "sixty-six", 7),
    Station("oklahoma-city", "Oklahoma City", "Red Dirt Diner", "the Haskell twins", "normal",
            "three-hand", 7, ("Hank Haskell", "Hattie Haskell")),
    Station("amarillo", "Amarillo", "Big Sky Steakhouse", "Tex", "normal", "schnapsen", 7),
    Station("albuquerque", "Albuquerque", "Turquoise Counter", "Rosa and Luis", "normal",
            "four-hand", 7, ("Rosa", "Luis")),
    Station("flagstaff", "Flagstaff", "Pine Country Diner", "Walt", "strong", "sixty-six", 7),
    Station("santa-monica", "Santa Monica", "End of the Trail Pier Café", "Pearl", "strong",
            "sixty-six", 11),
)
BY_SLUG: Final = {s.slug: s for s in STATIONS}
#: Level of the player's partner in a four-hand station.
PARTNER_LEVEL: Final = "normal"
