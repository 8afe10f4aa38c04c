"""Types of the native search core (``engine/ai/_core.c``): :class:`engine.ai.solver.Solver`'s
``lead`` and ``follow`` in C, given the card and scoring tables by :func:`configure`."""

from collections.abc import Sequence

#: The SHA-256 of the C source the module was built from (:func:`engine.native.search_core`).
SOURCE_DIGEST: str

def configure(points: Sequence[int], suit_of: Sequence[int], suit_masks: Sequence[int],
              higher: Sequence[int], higher_ten_low: Sequence[int], beaters: Sequence[int],
              beaters_ten_low: Sequence[int], marriage_of: Sequence[int],
              marriages: Sequence[int], meld_values: Sequence[int], order: Sequence[int],
              most_points: Sequence[int], fewest_points: Sequence[int], table: Sequence[int],
              rules: Sequence[int]) -> None: ...

def solve(trump: int, closer: int, snap0: int, snap1: int, bonus: int, flags: int,
          to_move: int, h0: int, h1: int, p0: int, p1: int, tk: int, e0: int, e1: int,
          table_card: int, melded: int, /) -> int:
    """The exact value of a phase-2 position for the player to move, in one call
    (``engine.ai.solver.solve``): ``closer``, ``table_card``, ``melded`` -1 for none;
    ``flags`` bits 0-4: last_trick_wins, pending_melds, next_trick_melds, played_out_one,
    ten_low."""

class Core:
    """One solver's search and transposition table (trump and rules fixed)."""

    @property
    def nodes(self) -> int:
        """Nodes searched: calls of ``lead``, as :attr:`engine.ai.solver.Solver.nodes`."""
    @property
    def entries(self) -> int:
        """Positions in the transposition table."""

    def __init__(self, trump: int, closer: int | None, snapshot: tuple[int, int] | None,
                 bonus: int, last_trick_wins: bool, pending_melds: bool,
                 next_trick_melds: bool, played_out_one: bool, ten_low: bool) -> None: ...
    def lead(self, p: int, h0: int, h1: int, p0: int, p1: int, tk: int, pend0: int,
             pend1: int, alpha: int, beta: int, melded: int | None = None, /) -> int: ...
    def follow(self, f: int, led: int, h0: int, h1: int, p0: int, p1: int, tk: int,
               pend0: int, pend1: int, alpha: int, beta: int, /) -> int: ...

class Talon:
    """One hand's talon search and its tables (trump and rules fixed), with its phase-2
    searches (the open one, one per closer and snapshot)."""

    def __init__(self, trump: int, bonus: int, last_trick_wins: bool, pending_melds: bool,
                 next_trick_melds: bool, played_out_one: bool, ten_low: bool,
                 low_trump: int | None, exchange_min: int, exchange_needs_trick: bool,
                 close_min: int, may_close: bool) -> None: ...
    @property
    def nodes(self) -> int:
        """Phase-1 nodes searched, as :attr:`engine.ai.talon.TalonSolver.nodes`."""
    @property
    def solver_nodes(self) -> int:
        """Nodes of the phase-2 searches, as :attr:`engine.ai.talon.TalonSolver.solver_nodes`."""
    def lead(self, p: int, h0: int, h1: int, talon: tuple[int, ...], p0: int, p1: int, tk: int,
             e0: int, e1: int, alpha: int, beta: int, melded: int | None = None, /) -> int: ...
    def follow(self, f: int, led: int, h0: int, h1: int, talon: tuple[int, ...], p0: int,
               p1: int, tk: int, e0: int, e1: int, alpha: int, beta: int, /) -> int: ...
