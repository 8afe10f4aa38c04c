"""The rules of Tausendeins: its options, validated, and the marriage values they give
(docs/rules.md, "Tausendeins").

:class:`T1001Rules` is immutable; :meth:`T1001Rules.make` raises
:class:`~engine.errors.InvalidOption` for an unknown option, a wrong type or a value out of
range, naming the allowed values. An :class:`IntRange` option takes any integer of its range
(``target_points``); every other option lists its values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES, Suit
from engine.errors import InvalidOption
from engine.rules import Option

NAME: Final = "tausendeins"
PLAYERS: Final = 2
DESCRIPTION: Final = ("Tausendeins (1001): two-hand, no turned trump; every marriage makes its "
                      "suit trump at once; deals are played out and scored to 1001, with an "
                      "auction for a contract by default.")


@dataclass(frozen=True, slots=True)
class IntRange(Option):
    """An integer option taking any value from ``minimum`` to ``maximum`` (its ``allowed``
    lists the two bounds)."""

    def check(self, value: object) -> object:
        low, high = self.allowed
        assert isinstance(low, int) and isinstance(high, int)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise InvalidOption(
                self.name, f"{self.name} must be an integer from {low} to {high}; got {value!r}",
                list(self.allowed))
        return value


_S = "RULES-1001"
OPTIONS: Final = {o.name: o for o in (
    Option("marriage_values", str, "german", ("german", "russian", "by_order"),
           "Marriage values: german (C 100, S 80, H 60, D 40), russian (H 100, D 80, C 60, "
           "S 40) or by_order (the deal's 1st, 2nd, 3rd, 4th marriage: 40, 60, 80, 100).",
           f"{_S} §1", (NAME,)),
    Option("deal", str, "stock", ("stock", "all"),
           "stock: 8 cards each and an 8-card stock drawn from in tricks 1-4; all: 12 each, "
           "strict play from trick 1.", f"{_S} §2", (NAME,)),
    Option("phase1_follow", str, "free", ("free", "follow"),
           "While the stock lasts: free (any card) or follow (follow suit if you can).",
           f"{_S} §3", (NAME,)),
    Option("phase2_head", bool, True, (True, False),
           "Once the stock is empty: true, follow suit and win the trick if you can; false, "
           "any card of the suit led. Then trump if you can, then any card.",
           f"{_S} §3", (NAME,)),
    Option("marriage_order", str, "free", ("free", "ascending"),
           "free: any held marriage may be melded; ascending: only a suit worth more than the "
           "current trump suit.", f"{_S} §4", (NAME,)),
    Option("meld_first_lead", str, "allowed", ("allowed", "forbidden"),
           "Whether the first lead of a deal may be a meld.", f"{_S} §4", (NAME,)),
    Option("meld_without_trick", str, "lapses", ("lapses", "counts"),
           "lapses: a marriage melded before the melder's first trick waits for it and is "
           "forfeited if none comes; counts: credited at once.", f"{_S} §4", (NAME,)),
    Option("last_trick_bonus", int, 0, (0, 10),
           "Points for winning the last trick of a deal.", f"{_S} §5", (NAME,)),
    Option("deal_rounding", str, "none", ("none", "nearest_10"),
           "none, or each deal score rounded to a multiple of 10 (5 rounds up); under a "
           "contract only the non-declarer's score.", f"{_S} §5", (NAME,)),
    IntRange("target_points", int, 1001, (100, 10001),
             "Total that wins the game; at or over it after a deal, the higher total wins "
             "(equal totals: one more deal).", f"{_S} §6", (NAME,)),
    Option("bidding", str, "contract", ("contract", "none"),
           "contract: an auction for a contract before each deal; none: Hülsemann's game "
           "without an auction.", f"{_S} §7", (NAME,)),
    Option("bid_min", int, 100, (60, 80, 100, 120),
           "The compulsory opening bid of forehand.", f"{_S} §7.1", (NAME,)),
    Option("bid_step", int, 10, (5, 10),
           "Every bid and raise rises by a multiple of this.", f"{_S} §7.1", (NAME,)),
    Option("bid_cap", str, "marriages", ("marriages", "none"),
           "marriages: no bid above 120 plus the marriages the bidder holds; none: up to the "
           "most a deal can hold.", f"{_S} §7.1", (NAME,)),
    Option("contract_gain", str, "bid", ("bid", "actual"),
           "A made contract adds the bid, or the declarer's actual deal score.",
           f"{_S} §7.3", (NAME,)),
    Option("defender_marriages", str, "count", ("count", "ignored"),
           "Whether the non-declarer's marriages score (they set trump either way).",
           f"{_S} §7.3", (NAME,)),
    Option("contract_deal", str, "stock", ("stock", "musik"),
           "stock: the deal of option deal; musik: 10 cards each and two 2-card musiks, the "
           "declarer takes one and discards 2; 10 tricks, strict from trick 1.",
           f"{_S} §7.4", (NAME,)),
    Option("musik_shown", bool, True, (True, False),
           "Whether the musik the declarer takes is shown to the other player.",
           f"{_S} §7.4", (NAME,)),
    Option("musik_leftover", str, "last_trick", ("last_trick", "declarer", "none"),
           "Who scores the 4 unused cards (the other musik and the discards).",
           f"{_S} §7.4", (NAME,)),
)}

#: Suit values of a marriage by ``marriage_values`` (``by_order`` ranks suits as ``german``).
SUIT_VALUES: Final = {
    "german": {CLUBS: 100, SPADES: 80, HEARTS: 60, DIAMONDS: 40},
    "russian": {CLUBS: 60, SPADES: 40, HEARTS: 100, DIAMONDS: 80},
}
#: Marriage values by the order of the deal's melds (``by_order``).
ORDER_VALUES: Final = (40, 60, 80, 100)
#: Card points of a deal.
CARD_POINTS: Final = 120


@dataclass(frozen=True, slots=True)
class T1001Rules:
    """The options of a Tausendeins game (see :data:`OPTIONS`). Build with :meth:`make`."""

    marriage_values: str = "german"
    deal: str = "stock"
    phase1_follow: str = "free"
    phase2_head: bool = True
    marriage_order: str = "free"
    meld_first_lead: str = "allowed"
    meld_without_trick: str = "lapses"
    last_trick_bonus: int = 0
    deal_rounding: str = "none"
    target_points: int = 1001
    bidding: str = "contract"
    bid_min: int = 100
    bid_step: int = 10
    bid_cap: str = "marriages"
    contract_gain: str = "bid"
    defender_marriages: str = "count"
    contract_deal: str = "stock"
    musik_shown: bool = True
    musik_leftover: str = "last_trick"

    @classmethod
    def make(cls, options: Mapping[str, object] | None = None) -> T1001Rules:
        """Validated rules: unknown names, wrong types and values raise ``InvalidOption``."""
        values: dict[str, Any] = {}
        for name, value in (options or {}).items():
            opt = OPTIONS.get(name)
            if opt is None:
                raise InvalidOption(name, f"unknown option {name!r} for {NAME}; allowed: "
                                    f"{', '.join(OPTIONS)}", list(OPTIONS))
            values[name] = opt.check(value)
        return cls(**values)

    @property
    def variant_name(self) -> str:
        return NAME

    @property
    def musik(self) -> bool:
        """The Polish deal with two musiks (``contract_deal`` musik under a contract)."""
        return self.bidding == "contract" and self.contract_deal == "musik"

    @property
    def contract(self) -> bool:
        return self.bidding == "contract"

    @property
    def tricks(self) -> int:
        """Tricks of a deal: 10 with the musik deal, else 12."""
        return 10 if self.musik else 12

    @property
    def stock_size(self) -> int:
        """Cards in the stock at the start of a deal (0: no stock)."""
        return 8 if self.deal == "stock" and not self.musik else 0

    @property
    def most_points(self) -> int:
        """The most a player can score in a deal: all cards, marriages and the bonus."""
        return CARD_POINTS + sum(ORDER_VALUES) + self.last_trick_bonus

    def suit_rank(self, suit: Suit) -> int:
        """The suit's worth for ``marriage_order`` ascending (german order under by_order)."""
        table = SUIT_VALUES.get(self.marriage_values, SUIT_VALUES["german"])
        return table[suit]

    def marriage_value(self, suit: Suit, melds_before: int) -> int:
        """Points of a marriage in ``suit`` melded after ``melds_before`` melds of the deal."""
        if self.marriage_values == "by_order":
            return ORDER_VALUES[melds_before]
        return SUIT_VALUES[self.marriage_values][suit]

    def held_marriages_value(self, suits: list[Suit]) -> int:
        """What the marriages of ``suits``, held in a hand, count for ``bid_cap``."""
        if self.marriage_values == "by_order":
            return sum(ORDER_VALUES[: len(suits)])
        return sum(SUIT_VALUES[self.marriage_values][s] for s in suits)

    def options(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def as_dict(self) -> dict[str, object]:
        return {"variant": NAME, **self.options()}

    def changed_options(self) -> dict[str, object]:
        """The options whose values differ from the defaults."""
        return {k: v for k, v in self.options().items() if OPTIONS[k].default != v}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> T1001Rules:
        """The rules of an :meth:`as_dict` (``variant`` must be ``tausendeins``)."""
        if data.get("variant", NAME) != NAME:
            raise InvalidOption("variant", f"not {NAME} rules: {data.get('variant')!r}", [NAME])
        return cls.make({k: v for k, v in data.items() if k != "variant"})


def describe_variant() -> dict[str, object]:
    """The variant as :func:`engine.rules.describe` lists it."""
    return {"name": NAME, "players": PLAYERS, "description": DESCRIPTION, "deck_size": 24,
            "hand_size": 8, "talon_size": 8, "tricks": 12, "trump_by": "marriage",
            "decks": []}
