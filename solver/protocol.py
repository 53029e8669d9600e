"""The narrow protocol through which the search engine knows a game.

A game object is one ruleset with its options fixed. States and moves are immutable, hashable
values of the game's own choosing; the engine never looks inside them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol, TypeVar

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)

#: The score of a state where the game cannot end (e.g. a compulsory move is pending).
NO_SCORE = 2**31 - 1


class Game(Protocol[State, Move]):
    """What a ruleset offers the search: moves, their effect, the goal, and a score to minimise.

    Compulsory rules are expressed by :meth:`moves` returning only the choices the rules leave
    open (dealing from a stock is a move like any other). The state graph may hold cycles.
    """

    def moves(self, state: State) -> Sequence[Move]:
        """The legal moves in ``state``, best-first in the ruleset's preferred order."""
        ...

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``; ``state`` itself is left unchanged."""
        ...

    def is_won(self, state: State) -> bool:
        """Whether ``state`` is a win (it then has the lowest score the game allows)."""
        ...

    def key(self, state: State) -> bytes:
        """A canonical layout key: equal for states whose futures are the same."""
        ...

    def score(self, state: State) -> int:
        """The score if the game ended here, lower is better (Accordion: piles; others: cards
        left), or NO_SCORE where the rules do not let it end here."""
        ...

    def lower_bound(self, state: State) -> int:
        """An admissible bound: no state reachable from ``state`` scores lower than this."""
        ...


class CostedGame(Game[State, Move], Protocol):
    """A game whose moves have costs, for IDA* (e.g. Amazons counts passes through the stock)."""

    def move_cost(self, state: State, move: Move) -> int:
        """The non-negative cost of playing ``move`` in ``state``."""
        ...

    def cost_to_win_bound(self, state: State) -> int:
        """An admissible bound on the cost still needed to win from ``state``."""
        ...

    def cost_to_win_cap(self) -> int:
        """The most ``cost_to_win_bound`` ever returns: IDA* does not ask for the bound where
        even that much would not cut a state off."""
        ...

    def hold_bound_cache(self, max_bytes: int | None) -> Callable[[], int]:
        """Keep the memory ``cost_to_win_bound`` caches in within ``max_bytes`` (None: the
        game's own default), so that ``--max-memory`` bounds it too; returns a function giving
        the bytes it holds now, for the search's memory figures."""
        ...


class Compiled(Protocol):
    """A game with a compiled twin, a kernel (solver/_protocol.pxd), that the compiled engine
    searches in its place: the same moves, layouts, keys, scores and bounds, on flat states.
    (Not generic: states and moves cross into the kernel as bytes and integers.)"""

    def kernel(self) -> Any:
        """The kernel of this ruleset with its options fixed; ImportError where it was not built."""
        ...

    def encode(self, state: Any) -> bytes:
        """``state`` as the kernel's flat state (``kernel().state_size`` bytes)."""
        ...

    def decode(self, code: int) -> Any:
        """The move the kernel numbers ``code``. A code names its move whatever the state it is
        played in, so a line the compiled search found turns back into moves without replaying
        it (the referee, solver.replay.checked, replays it once, through the rules)."""
        ...


class Concealable(Game[State, Move], Protocol):
    """A game whose stock may lie face down: all that the search over unseen cards
    (:mod:`solver.chance`) needs is to read the stock and to put its cards in another order."""

    def stock(self, state: State) -> Sequence[int]:
        """The stock's cards (codes below 256), the next to be dealt first."""
        ...

    def with_stock(self, state: State, stock: Sequence[int]) -> State:
        """``state`` with the same cards in its stock put in the order ``stock``; the rest of the
        layout unchanged."""
        ...
