"""Information-set Monte Carlo tree search for the last tricks of phase 1 (``Level.ismcts``).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree of the deciding seat's
information sets, a node for each sequence of actions played since the decision. Each
iteration draws a deal of the unseen cards (the caller's ``deal``), walks down the tree with
only the actions legal in that deal, choosing by UCB1 over the times an action was *available*
rather than the parent's visits, adds one node, and values the rest of the hand by the
caller's ``leaf`` (in :mod:`engine.ai.player`, the level's exact searches once the talon is
down to its ``search_talon``). Every node's statistics are game points for the side that chose
the action leading to it.

Unlike a search of each sampled deal apart (PIMC), no choice inside the tree can depend on the
deal: the seat does not play its later tricks as if it knew the cards and the talon's order
(strategy fusion), and the opponent does not answer as if he saw the seat's hand (the
overestimated opponent). The price: the opponent's choices are also blind to his own hand
beyond which cards he may play, and every iteration costs a deal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.actions import DECLARE, DECLARE_ACTION, Action
from engine.play import apply, legal_actions
from engine.scoring import DECLARE_TARGET
from engine.state import PLAYING, GameState

#: UCB1's exploration constant, in game points (a hand's outcome spans −3..3).
EXPLORATION = 2.0


@dataclass(slots=True)
class Node:
    """An information set of the deciding seat: the actions since the decision lead here."""

    children: dict[Action, Node] = field(default_factory=dict)
    visits: int = 0
    #: Game points summed over the visits, for the side that chose the action into this node.
    total: float = 0.0
    #: Iterations in which the action into this node was legal at its parent.
    available: int = 0

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def choices(state: GameState, seat: int) -> list[Action]:
    """The actions a computer level considers: the declaration alone once it holds 66
    credited points on lead (every level declares then), else every legal action but a
    false declaration."""
    legal = legal_actions(state, seat)
    if DECLARE_ACTION in legal and state.credited_points(state.side_of(seat)) >= DECLARE_TARGET:
        return [DECLARE_ACTION]
    return [a for a in legal if a.kind != DECLARE]


def iterate(root: Node, state: GameState, side: int, horizon: Callable[[GameState], bool],
            leaf: Callable[[GameState], float], rng: random.Random) -> float:
    """One iteration on ``state`` (a deal, played on in place): select, expand one node, value
    the rest by ``leaf`` (game points for ``side``, of a settled hand too) once ``horizon``
    holds or the hand is over, and back them up the path. Returns them."""
    path: list[tuple[Node, bool]] = []  # each node entered, and whether ``side`` chose it
    node = root
    while state.status == PLAYING and not horizon(state):
        seat = state.to_act()
        assert seat is not None
        legal = choices(state, seat)
        untried = [a for a in legal if a not in node.children]
        if untried:
            action = rng.choice(untried)
            node.children[action] = Node()
        else:
            log_of = math.log
            action = max(legal, key=lambda a: _ucb(node.children[a], log_of))
        for a in legal:  # the untried ones count from their first try on
            child = node.children.get(a)
            if child is not None:
                child.available += 1
        node = node.children[action]
        path.append((node, state.side_of(seat) == side))
        apply(state, seat, action)
        if untried:
            break
    value = leaf(state)
    for entered, ours in path:
        entered.visits += 1
        entered.total += value if ours else -value
    return value


def _ucb(child: Node, log_of: Callable[[float], float]) -> float:
    return child.mean() + EXPLORATION * math.sqrt(log_of(child.available) / child.visits)
