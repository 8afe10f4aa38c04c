"""``GET /v1/rules``: variants, rule options, table settings and computer levels (with their
think-time budgets, and per variant the level each plays as: :mod:`engine.ai.catalogue`)."""

from __future__ import annotations

from typing import Any, cast

from flask.views import MethodView

from api.games.computers import COMPUTER_LEVELS, TAUSENDEINS_PLAYS_AS
from api.http.resources.blueprint import Blueprint
from api.http.schemas import RulesSchema
from api.leaderboard.pairs import PAIR_LIMIT, PAIR_WINDOW
from api.leaderboard.scoring import BONUS, LEAVE_PENALTY, MIN_SETTLED
from api.live.clock import clock_settings
from engine import describe, registry
from engine.ai.catalogue import THINK_BUDGETS, listing, listing_by_deck
from engine.games import option_json
from engine.tausendeins.ai.player import LEVELS as T1001_LEVELS
from engine.tausendeins.registration import TAUSENDEINS

blp = Blueprint("rules", __name__, url_prefix="/v1/rules",
                description="What can be played: variants, options, settings, computer levels, "
                            "and how the leaderboard counts")


@blp.route("")
class RulesResource(MethodView):
    @blp.response(200, RulesSchema)
    def get(self) -> dict[str, Any]:
        """Variants, rule options with defaults and allowed values, settings, levels, and the
        figures of the leaderboard's rules (docs/play.md, "Leaderboard, ratings and the
        Route-66 tour")."""
        described = describe()
        settings = [*cast(list[dict[str, Any]], described["settings"]), {
            "name": "auto_continue", "type": "boolean", "default": False,
            "description": "Acknowledge finished hands for human seats too: the next hand is "
                           "dealt at once."}, *clock_settings()]
        return {
            **described,
            "variants": _variants(cast(list[dict[str, Any]], described["options"])),
            "settings": settings,
            "computer_levels": [_level(lv.name, lv.description) for lv in COMPUTER_LEVELS.values()],
            "computer_levels_by_variant": {
                **{variant: [lv.as_dict() for lv in levels]
                   for variant, levels in listing().items()},
                TAUSENDEINS.name: _tausendeins_levels()},
            "computer_levels_by_deck": {
                **{variant: {deck: [lv.as_dict() for lv in levels]
                             for deck, levels in packs.items()}
                   for variant, packs in listing_by_deck().items()},
                TAUSENDEINS.name: {}},
            "leaderboard": {"placement_bonus": list(BONUS), "leave_penalty": LEAVE_PENALTY,
                            "min_settled_hands": MIN_SETTLED, "rated_pair_limit": PAIR_LIMIT,
                            "rated_pair_window_s": PAIR_WINDOW},
        }


def _variants(listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every variant of every registered game, each with its ``game``; its own ``options``
    unless the top-level list (``listed``) names them all for it."""
    top = {(o["name"], v) for o in listed for v in o["variants"]}
    out = []
    for game in registry.games():
        for variant in game.variants():
            entry = game.describe(variant)
            entry = {"name": entry.get("name", variant), "game": game.name, **entry}
            options = game.options(variant)
            if "options" not in entry and any((o.name, variant) not in top for o in options):
                entry["options"] = [option_json(o) for o in options]
            out.append(entry)
    return out


def _tausendeins_levels() -> list[dict[str, Any]]:
    """Each public level as it plays Tausendeins (:mod:`engine.tausendeins.ai`: a fixed
    number of playouts a move, no work budget or cap; ``strong`` solves the last 8 tricks
    exactly)."""
    return [{"name": name, "plays_as": plays_as, "exact_search": plays_as == "strong",
             "description": T1001_LEVELS[plays_as]}
            for name, plays_as in TAUSENDEINS_PLAYS_AS.items()]


def _level(name: str, description: str) -> dict[str, Any]:
    """A registered level, with its think-time budget when it is one of engine.ai's."""
    out: dict[str, Any] = {"name": name, "description": description}
    if name in THINK_BUDGETS:
        out["think_median_ms"], out["think_p99_ms"] = THINK_BUDGETS[name]
    return out
