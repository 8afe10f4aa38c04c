"""Variants, rule options (house rules) and table settings — docs/rules.md §2, §6, §7.

:class:`Rules` is immutable and validated: an unknown option, a wrong type or an
out-of-range value raises :class:`~engine.errors.InvalidOption` naming the option
and the allowed values; so does a combination that cannot be played (``closing`` false with
a ``close_min_talon`` other than its default). :func:`describe` lists everything for
publication. Its ``plan`` (:class:`Plan`) is what the engine's hot path reads: the options
resolved once into flags and numbers.

The options of other rule sets (issue 19), precisely:

* ``closing`` false: no ``close`` action, ever; phase 2 begins only when the talon runs out.
* ``automatic_66``: after every completed trick (the last one included) and every meld, if
  the side that won the trick or melded holds 66 or more *credited* points (trick points
  plus credited melds; a pending meld does not count until it is credited, and the
  last-trick bonus is a played-out rule, never counted), the hand ends at once (after the
  trick's winner and loser have drawn, as a declaration would follow) and is scored as a
  correct declaration by that side (a closer's as a successful closing, against a closer
  as a declaration against the closer); the settlement's reason is ``reached_66``
  (``closed_reached_66``, ``reached_66_against_closer``) and its ``declared_by`` the seat
  that reached 66. There is no ``declare`` action, so no false declaration
  (``false_declaration`` still scores a timeout). Only one side's points change at a time,
  so only one side can reach 66.
* ``meld_credit`` ``next_trick``: a meld is pending until its side wins a trick after it
  (the very trick led with its King or Queen counts), then credited with that trick; if the
  hand ends first (the side never wins another trick, or the other side reaches 66 or
  declares), the meld lapses and is listed as forfeited. A meld therefore never lets its
  side declare at once. ``meld_before_first_trick`` still decides whether one may meld
  before the first trick.
* ``played_out_points`` ``one``: a hand played out with the talon exhausted (not closed)
  and nobody declaring (reasons ``played_out``, Schnapsen's ``last_trick``) is worth 1 game
  point to its winner whatever the loser's tricks and points (no Schneider, no Schwarz); a
  tie still scores nothing. Closed hands (``closed_played_out``, ``closing_failed``),
  declarations and automatic 66 keep their scoring; with ``automatic_66`` a side reaching 66
  with the last trick wins by the table, as reaching 66 ends the hand before it is played
  out.

The four-hand options of the 32-card pack (docs/rules.md §13), precisely:

* ``four_hand_scoring`` ``hoyle`` (four-hand with ``deck`` 32 only: the 24-card four-hand keeps
  the project's scoring, and refuses it saying why): no marriages (no ``meld`` action;
  declaring is as before); a hand's winners score by their own points, see
  :mod:`engine.scoring`; a 65:65 tie carries 1 game point to the winners of the next hand
  that has winners. The options about marriages, the mirror of a false declaration, the
  one-point played-out hand and the last-trick bonus must then stay at their defaults.
* ``trump_ten_point`` (with hoyle only): the side that wins the trick holding the trump Ten
  gets 1 game point at once, whoever wins the hand; if that brings it to ``match_points``
  (BC's "a side at 6" of a match of 7), the hand ends right after that trick and the match
  is won (settlement reason ``trump_ten``), before the hand would be scored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from engine.cards import (
    BEATERS,
    BEATERS_TEN_LOW,
    HIGHER_IN_SUIT,
    HIGHER_IN_SUIT_TEN_LOW,
    JACK,
    NINE,
    RANK_CODES,
    RANKS,
    RANKS_32,
    SEVEN,
    TEN,
    Mask,
    card,
)
from engine.errors import InvalidOption


@dataclass(frozen=True, slots=True)
class Variant:
    """Fixed properties of a variant as dealt with one pack (docs/rules.md §6, §13).

    :data:`VARIANTS` is the registry of variants by name, each with the 24-card pack (Schnapsen
    its 20 cards); :meth:`with_deck` gives the same variant with the 32-card pack (option
    ``deck``), the 8s and 7s kept: an exchange by the trump 7, four-hand 8 cards each."""

    name: str
    players: int
    description: str
    ranks: tuple[int, ...]
    packets: tuple[int, ...]
    #: Rank of the trump card that may be exchanged for the face-up trump card.
    exchange_rank: int | None
    #: Whether a talon exists (four-hand deals all cards).
    has_talon: bool
    #: Schnapsen: a played-out hand goes to the winner of the last trick.
    last_trick_wins: bool
    #: Scoring sides: two-hand 2, three-hand 3 (one sits out each hand), four-hand 2 pairs.
    sides: int

    #: Pack sizes the variant may be played with (option ``deck``).
    decks: tuple[int, ...] = (24,)

    @property
    def deck(self) -> tuple[int, ...]:
        """Card indices of the deck, suit by suit, high to low."""
        return tuple(card(r, s) for s in range(4) for r in self.ranks)

    @property
    def deck_mask(self) -> Mask:
        m = 0
        for c in self.deck:
            m |= 1 << c
        return m

    @property
    def hand_size(self) -> int:
        return sum(self.packets)

    @property
    def talon_size(self) -> int:
        """Talon cards at the start of a hand, the trump card included (0: all cards dealt)."""
        return len(self.ranks) * 4 - min(self.players, 2 if self.has_talon else 4) \
            * self.hand_size

    @property
    def trump_by(self) -> str:
        """How trump is fixed: ``turned_card`` (the card under the talon) or
        ``dealer_last_card`` (four-hand: the dealer's last card, shown and kept)."""
        return "turned_card" if self.has_talon else "dealer_last_card"

    @property
    def tricks(self) -> int:
        """Tricks of a hand played out."""
        return len(self.ranks) * 4 // self.players if not self.has_talon \
            else len(self.ranks) * 2

    def side_of(self, seat: int) -> int:
        """Scoring side of a seat: four-hand pairs seats 0+2 and 1+3."""
        return seat % 2 if self.players == 4 else seat

    def with_deck(self, size: int) -> Variant:
        """This variant dealt with the pack of option ``deck`` ``size`` (one of its
        :attr:`decks`; 24, the default, is the variant's own pack, Schnapsen's 20 cards)."""
        return VARIANTS[self.name] if size == 24 else _PACKS[self.name, size]


SIXTY_SIX: Final = Variant(
    "sixty-six", 2, "Two-hand Sixty-Six with 24 cards (default).",
    RANKS, (3, 3), NINE, True, False, 2, (24, 32),
)
SCHNAPSEN: Final = Variant(
    "schnapsen", 2, "Austrian two-hand with 20 cards (no nines); the last trick wins.",
    RANKS[:5], (3, 2), JACK, True, True, 2,
)
THREE_HAND: Final = Variant(
    "three-hand", 3, "Three players; the dealer sits out and the other two play two-hand.",
    RANKS, (3, 3), NINE, True, False, 3, (24, 32),
)
FOUR_HAND: Final = Variant(
    "four-hand", 4, "Pairs 0+2 against 1+3; all cards dealt, strict play from the first trick.",
    RANKS, (3, 3), None, False, False, 2, (24, 32),
)
VARIANTS: Final = {v.name: v for v in (SIXTY_SIX, SCHNAPSEN, THREE_HAND, FOUR_HAND)}
#: The 32-card forms (docs/rules.md §13): the 8s and 7s kept, the trump 7 exchanges, a
#: 20-card talon in two- and three-hand; four-hand deals 3, 3 and 2, 8 cards each.
_PACKS: Final = {
    (v.name, 32): replace(v, ranks=RANKS_32, exchange_rank=SEVEN if v.has_talon else None,
                          packets=v.packets if v.has_talon else (3, 3, 2))
    for v in VARIANTS.values() if 32 in v.decks
}


def find_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise InvalidOption(
            "variant", f"unknown variant {name!r}; allowed: {', '.join(VARIANTS)}", list(VARIANTS)
        ) from None


@dataclass(frozen=True, slots=True)
class Option:
    """A rule option: name, type, default, the values it allows, and its source."""

    name: str
    type: type
    default: object
    allowed: tuple[object, ...]
    description: str
    source: str
    #: Variants the option applies to (all when empty).
    variants: tuple[str, ...] = ()

    def check(self, value: object) -> object:
        ok_type = isinstance(value, self.type) and not (
            self.type is int and isinstance(value, bool)
        )
        if not ok_type or value not in self.allowed:
            allowed = ", ".join(repr(a) for a in self.allowed)
            raise InvalidOption(
                self.name, f"{self.name} must be one of {allowed}; got {value!r}", self.allowed
            )
        return value


_ALL_TALON = ("sixty-six", "schnapsen", "three-hand")
_DECK_32 = ("sixty-six", "three-hand", "four-hand")

OPTIONS: Final = {
    o.name: o
    for o in (
        Option("deck", int, 24, (24, 32),
               "Cards in the pack: 24 (A T K Q J 9) or the historic 32 with the 8s and 7s "
               "(worth 0): a 20-card talon and the trump 7 as exchange card in two- and "
               "three-hand, 8 cards each in four-hand; all point thresholds unchanged.",
               "003; RULES-32", _DECK_32),
        Option("ten_rank", str, "high", ("high", "low"),
               "Where the Ten ranks in its suit: high (A T K Q J 9 8 7) or low, as in the "
               "1715 rules of Mariage (A K Q J T 9 8 7; it still counts 10); low needs deck 32.",
               "RULES-32 (WM)", _DECK_32),
        Option("exchange_min_talon", int, 2, (2, 3, 4),
               "Least talon size (the trump card included) at which the trump nine "
               "(Schnapsen: jack; deck 32: seven) may be exchanged.", "000, 003; 001 uses 3",
               _ALL_TALON),
        Option("exchange_requires_trick", bool, False, (False, True),
               "The exchanger must already have won a trick in this hand.",
               "001, 002 use true", _ALL_TALON),
        Option("close_min_talon", int, 3, (2, 3, 4, 5),
               "Least talon size (the trump card included) at which the talon may be closed.",
               "000, 001", _ALL_TALON),
        Option("meld_before_first_trick", str, "pending", ("pending", "forbidden"),
               "pending: a meld before one's first trick is credited with that trick or lapses; "
               "forbidden: no meld before one's first trick.", "000, 001; 003 forbids"),
        Option("false_declaration", str, "fixed", ("fixed", "mirror"),
               "fixed: the opponent gets 2, or 3 without a trick; mirror: the opponent gets "
               "what the declarer would have won.", "001, 002, 003; 000 mirrors"),
        Option("last_trick_bonus", int, 10, (0, 10),
               "Points for the last trick when the talon ran out and no one declared.",
               "all", ("sixty-six", "three-hand", "four-hand")),
        Option("match_points", int, 7, (3, 7, 11),
               "Game points that win a match (Bummerl).", "all; 001 offers 3 and 11"),
        Option("schneider_bummerl", bool, True, (True, False),
               "A match lost without a game point (7:0) counts two Bummerl.", "000"),
        Option("set_bummerl", int, 1, (1, 2, 3),
               "Bummerl that win a set (Partie); 1 plays a single match.", "000"),
        Option("closing", bool, True, (True, False),
               "The player on lead may close the talon; false switches closing off "
               "(close_min_talon must then stay at its default).",
               "all; false: other rule sets (issue 19)", _ALL_TALON),
        Option("automatic_66", bool, False, (False, True),
               "true: the hand ends at once when a side's credited points (tricks and "
               "credited melds, no last-trick bonus) reach 66, after the trick or the meld "
               "that brings them there, scored as a correct declaration; there is no "
               "declare action (so no false declaration).",
               "other rule sets (issue 19)"),
        Option("meld_credit", str, "immediate", ("immediate", "next_trick"),
               "immediate: a meld counts at once if its side has won a trick, else with its "
               "first trick; next_trick: every meld counts only when its side wins its next "
               "trick (the trick led with the marriage card included), and lapses if the "
               "hand ends first.", "other rule sets (issue 19)"),
        Option("played_out_points", str, "table", ("table", "one"),
               "Game points of a hand played out with the talon exhausted (not closed) and "
               "nobody at 66: table (1, 2 or 3 by the loser's tricks and points) or one "
               "(always 1: no Schneider or Schwarz); closings and declarations keep the "
               "table.", "other rule sets (issue 19)"),
        Option("four_hand_scoring", str, "project", ("project", "hoyle"),
               "Four-hand with deck 32: project (the scoring of the other variants: the table "
               "on the loser, marriages) or hoyle (no marriages; the winning side scores 1 "
               "with 66-99 points, 2 with 100 or more, 3 with every trick; at 65:65 nobody "
               "scores and the winners of the next hand get 1 more per such tie).",
               "RULES-32 (BC)", ("four-hand",)),
        Option("trump_ten_point", bool, False, (False, True),
               "With four_hand_scoring hoyle: the side that wins the trump Ten in a trick gets "
               "1 game point at once; if that brings it to match_points, the hand ends after "
               "that trick and the match is won.", "RULES-32 (BC)", ("four-hand",)),
    )
}

#: Option values that cannot be combined: (option, value, other option that must stay at
#: its default, why).
CONFLICTS: Final = (
    ("closing", False, "close_min_talon", "closing is switched off"),
    ("deck", 24, "ten_rank", "the 24-card pack is played (the low Ten belongs to the 32)"),
    ("deck", 24, "four_hand_scoring",
     "the 24-card pack is played (the hoyle scoring belongs to four-hand with 32 cards)"),
    ("four_hand_scoring", "project", "trump_ten_point",
     "the project's scoring is played (the trump Ten's point belongs to hoyle)"),
    ("four_hand_scoring", "hoyle", "meld_before_first_trick", "hoyle has no marriages"),
    ("four_hand_scoring", "hoyle", "meld_credit", "hoyle has no marriages"),
    ("four_hand_scoring", "hoyle", "false_declaration",
     "hoyle scores the winners' own points (a mirror has no table of the loser to reflect)"),
    ("four_hand_scoring", "hoyle", "played_out_points",
     "hoyle scores a played-out hand by the winners' points"),
    ("four_hand_scoring", "hoyle", "last_trick_bonus",
     "hoyle's lines (66, 100, 130) count the last trick's 10"),
)


def _default(name: str) -> Any:
    return OPTIONS[name].default


@dataclass(frozen=True, slots=True)
class Plan:
    """The options as the engine's hot path asks them, resolved once per :class:`Rules` (its
    ``plan``): flags and numbers instead of option names and strings, so that a lead or a
    card play tests no option by name."""

    #: Four-hand: seats 0+2 and 1+3 score as pairs.
    pairs: bool
    #: A meld before one's side has a trick is allowed (``meld_before_first_trick`` pending).
    meld_early: bool
    #: Per trump suit: the bit of the trump card that may be exchanged for the trump card
    #: under the talon (0: the variant has no exchange).
    exchange_bits: tuple[int, ...]
    exchange_min_talon: int
    #: The exchange is open before one's side has a trick (not ``exchange_requires_trick``).
    exchange_early: bool
    #: Least talon size at which the talon may be closed; larger than any talon when
    #: ``closing`` is off.
    close_min_talon: int
    #: The hand ends when a side reaches 66 (``declare`` is then no action).
    automatic_66: bool
    #: ``meld_credit`` next_trick: every trick a side wins credits its pending melds.
    credit_every_trick: bool
    #: The last-trick bonus in force.
    bonus: int
    #: ``played_out_points`` one.
    played_out_one: bool
    #: ``ten_rank`` low: the trick tables below rank the Ten under the Jack.
    ten_low: bool
    #: Marriages may be melded (not ``four_hand_scoring`` hoyle).
    melds: bool
    #: ``four_hand_scoring`` hoyle: a hand is scored by the winners' own points.
    hoyle: bool
    #: ``trump_ten_point``: the bit of each trump suit's Ten, whose winner in a trick gets 1
    #: game point (all 0 without the option).
    trump_ten_bits: tuple[int, ...]
    #: ``beaters[trump][best]``: the cards that beat ``best`` (:data:`engine.cards.BEATERS`).
    beaters: tuple[tuple[Mask, ...], ...]
    #: ``higher[c]``: the cards of ``c``'s suit that beat it.
    higher: tuple[Mask, ...]

    @classmethod
    def of(cls, rules: Rules) -> Plan:
        rank = rules.variant.exchange_rank
        return cls(
            pairs=rules.variant.players == 4,
            meld_early=rules.meld_before_first_trick == "pending",
            exchange_bits=tuple(0 if rank is None else 1 << card(rank, s) for s in range(4)),
            exchange_min_talon=rules.exchange_min_talon,
            exchange_early=not rules.exchange_requires_trick,
            close_min_talon=rules.close_min_talon if rules.closing else 1 << 30,
            automatic_66=rules.automatic_66,
            credit_every_trick=rules.meld_credit == "next_trick",
            bonus=rules.bonus,
            played_out_one=rules.played_out_points == "one",
            ten_low=rules.ten_rank == "low",
            melds=rules.four_hand_scoring != "hoyle",
            hoyle=rules.four_hand_scoring == "hoyle",
            trump_ten_bits=tuple(1 << card(TEN, s) if rules.trump_ten_point else 0
                                 for s in range(4)),
            beaters=BEATERS_TEN_LOW if rules.ten_rank == "low" else BEATERS,
            higher=HIGHER_IN_SUIT_TEN_LOW if rules.ten_rank == "low" else HIGHER_IN_SUIT,
        )


@dataclass(frozen=True, slots=True)
class Rules:
    """A variant and its options. Build with :meth:`make` to validate input. ``plan`` is
    derived from the rest (not an argument, not compared)."""

    variant: Variant = SIXTY_SIX
    deck: int = _default("deck")
    ten_rank: str = _default("ten_rank")
    exchange_min_talon: int = _default("exchange_min_talon")
    exchange_requires_trick: bool = _default("exchange_requires_trick")
    close_min_talon: int = _default("close_min_talon")
    meld_before_first_trick: str = _default("meld_before_first_trick")
    false_declaration: str = _default("false_declaration")
    last_trick_bonus: int = _default("last_trick_bonus")
    match_points: int = _default("match_points")
    schneider_bummerl: bool = _default("schneider_bummerl")
    set_bummerl: int = _default("set_bummerl")
    closing: bool = _default("closing")
    automatic_66: bool = _default("automatic_66")
    meld_credit: str = _default("meld_credit")
    played_out_points: str = _default("played_out_points")
    four_hand_scoring: str = _default("four_hand_scoring")
    trump_ten_point: bool = _default("trump_ten_point")
    plan: Plan = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # the variant as dealt with the pack of ``deck`` (the option decides, not the argument)
        object.__setattr__(self, "variant", self.variant.with_deck(self.deck))
        object.__setattr__(self, "plan", Plan.of(self))

    @classmethod
    def make(cls, variant: str = "sixty-six", options: Mapping[str, object] | None = None) -> Rules:
        """Validated rules: unknown names, wrong types and values raise ``InvalidOption``."""
        v = find_variant(variant)
        values: dict[str, Any] = {}
        for name, value in (options or {}).items():
            opt = OPTIONS.get(name)
            if opt is None:
                raise InvalidOption(
                    name, f"unknown option {name!r}; allowed: {', '.join(OPTIONS)}", list(OPTIONS)
                )
            if opt.variants and v.name not in opt.variants:
                raise InvalidOption(
                    name, f"{name} does not apply to {v.name}; it applies to "
                    f"{', '.join(opt.variants)}", list(opt.variants),
                )
            values[name] = opt.check(value)
        for name, value, other, why in CONFLICTS:
            if values.get(name, _default(name)) == value and other in values \
                    and values[other] != _default(other):
                raise InvalidOption(
                    other, f"{other} must stay at its default {_default(other)!r} when "
                    f"{why} ({name}={value!r})", [_default(other)],
                )
        return cls(variant=v, **values)

    @property
    def bonus(self) -> int:
        """The last-trick bonus in force (Schnapsen has none)."""
        return 0 if self.variant.last_trick_wins else self.last_trick_bonus

    def options(self) -> dict[str, object]:
        """All option values, by name (the variant excluded)."""
        return {name: getattr(self, name) for name in OPTIONS}

    def as_dict(self) -> dict[str, object]:
        return {"variant": self.variant.name, **self.options()}

    def changed_options(self) -> dict[str, object]:
        """The options whose values differ from the variant's defaults."""
        defaults = Rules(variant=self.variant).options()
        return {k: v for k, v in self.options().items() if defaults[k] != v}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rules:
        """The rules of an :meth:`as_dict` (a view's or a record's ``rules``); options at the
        variant's default are dropped first, so options that do not apply to it may be listed
        with their defaults. Raises ``InvalidOption``."""
        variant = find_variant(str(data.get("variant")))
        defaults = Rules(variant=variant).options()
        return cls.make(variant.name, {k: v for k, v in data.items()
                                       if k != "variant" and defaults.get(k) != v})


@dataclass(frozen=True, slots=True)
class Settings:
    """Table settings that shape views, not play (docs/rules.md §7)."""

    #: Show each side's current points in the view.
    point_counter: bool = False
    #: Flag in the view when the seat holds 66 credited points.
    hint_66: bool = False

    @classmethod
    def make(cls, values: Mapping[str, object] | None = None) -> Settings:
        out: dict[str, bool] = {}
        for name, value in (values or {}).items():
            if name not in ("point_counter", "hint_66"):
                raise InvalidOption(
                    name, f"unknown setting {name!r}; allowed: point_counter, hint_66",
                    ["point_counter", "hint_66"],
                )
            if not isinstance(value, bool):
                raise InvalidOption(name, f"{name} must be true or false; got {value!r}",
                                    [True, False])
            out[name] = value
        return cls(**out)

    def as_dict(self) -> dict[str, bool]:
        return {"point_counter": self.point_counter, "hint_66": self.hint_66}


SETTINGS_DESCRIPTIONS: Final = {
    "point_counter": "Show each side's current points in the view (default off).",
    "hint_66": "Flag in the view when the seat holds 66 credited points (default off).",
}


def describe() -> dict[str, object]:
    """Variants, options (default, allowed values, source) and settings, for publication."""
    return {
        "variants": [
            {
                "name": v.name,
                "players": v.players,
                "description": v.description,
                "deck_size": len(v.deck),
                "hand_size": v.hand_size,
                "talon_size": v.talon_size,
                "tricks": v.tricks,
                "trump_by": v.trump_by,
                # every pack of option ``deck`` with what it changes
                "decks": [{"deck": size, "deck_size": len(p.deck), "hand_size": p.hand_size,
                           "talon_size": p.talon_size, "tricks": p.tricks,
                           "exchange_card": None if p.exchange_rank is None
                           else RANK_CODES[p.exchange_rank]}
                          for size in v.decks for p in (v.with_deck(size),)],
            }
            for v in VARIANTS.values()
        ],
        "options": [
            {
                "name": o.name,
                "type": {bool: "boolean", int: "integer", str: "string"}[o.type],
                "default": o.default,
                "allowed": list(o.allowed),
                "description": o.description,
                "source": o.source,
                "variants": list(o.variants or VARIANTS),
            }
            for o in OPTIONS.values()
        ],
        "settings": [
            {"name": n, "type": "boolean", "default": False, "description": d}
            for n, d in SETTINGS_DESCRIPTIONS.items()
        ],
    }
