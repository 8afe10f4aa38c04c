"""Computer players for Tausendeins that never see hidden cards::

    from engine.tausendeins.ai import LEVELS, choose, rank

    action = choose(view(state, seat), "strong", random.Random(7))
    ranking = rank(view(state, seat), "strong", random.Random(7))  # its best: that action

Levels ``random``, ``easy``, ``normal``, ``strong`` (:data:`LEVELS`; budgets in
:mod:`~engine.tausendeins.ai.player`). Modules: :mod:`~engine.tausendeins.ai.knowledge` (the
view and consistent deals), :mod:`~engine.tausendeins.ai.policy` (rules of thumb),
:mod:`~engine.tausendeins.ai.solver` (exact perfect-information search),
:mod:`~engine.tausendeins.ai.player` (the levels).
"""

from engine.tausendeins.ai.knowledge import InvalidView, Knowledge, knowledge
from engine.tausendeins.ai.player import LEVEL_TABLE, LEVELS, Level, Ranking, choose, level, rank

__all__ = ["LEVELS", "LEVEL_TABLE", "InvalidView", "Knowledge", "Level", "Ranking", "choose",
           "knowledge", "level", "rank"]
