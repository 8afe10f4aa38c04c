"""Computer opponents that never see hidden cards (docs/rules.md §8).

Public interface, used by the hint and analysis endpoints and the arena::

    from engine.ai import LEVELS, choose, evaluate

    action = choose(view, "normal")           # engine.Action for the seat of ``view``
    ev = evaluate(view, "strong")             # every legal action ranked, best first
    ev.best, ev.actions[0].value, ev.samples, ev.reason, ev.would_declare, ev.as_dict()

``view`` is a seat's view (:func:`engine.view`) or a pasted one of the same shape; levels are
``random``, ``easy``, ``normal`` and ``strong`` (:data:`LEVELS` describes them;
:mod:`~engine.ai.catalogue` lists them per variant with their think-time budgets), or a variant
of one with changed settings for measurements (``"strong:close_hedge=2"``,
:func:`level_variant`); ``strong_v1`` is ``strong`` as of issue 19, frozen to
measure changes against (``sixtysix arena`` and the benches take it; :data:`LEVELS` and the
API do not offer it), and ``expert`` is kept for the arena too, no longer offered: not shown
stronger than ``strong`` (:data:`~engine.ai.player.RETIRED` names the level that plays for
it in a stored game). Modules:
:mod:`~engine.ai.knowledge` (what the seat knows), :mod:`~engine.ai.sampling` (uniform deals
of the unseen cards), :mod:`~engine.ai.inference` (weighting them by the opponent's play),
:mod:`~engine.ai.solver` (exact phase-2 solver),
:mod:`~engine.ai.talon` (exact search with the talon open, per deal),
:mod:`~engine.ai.policy` (rule-of-thumb play), :mod:`~engine.ai.player` (decisions).
"""

from engine.ai.knowledge import InvalidView, Knowledge
from engine.ai.player import (
    LEVELS,
    RETIRED,
    ActionValue,
    Evaluation,
    Level,
    choose,
    evaluate,
    level_variant,
)

__all__ = ["LEVELS", "RETIRED", "ActionValue", "Evaluation", "InvalidView", "Knowledge", "Level",
           "choose", "evaluate", "level_variant"]
