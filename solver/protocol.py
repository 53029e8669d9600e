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


class GameRules(Protocol[State, Move]):
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


class CostedRules(GameRules[State, Move], Protocol):
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


class Concealable(GameRules[State, Move], Protocol):
    """A game whose stock may lie face down: all that the search over unseen cards
    (:mod:`solver.chance`) needs is to read the stock and to put its cards in another order."""

    def stock(self, state: State) -> Sequence[int]:
        """The stock's cards (codes below 256), the next to be dealt first."""
        ...

    def with_stock(self, state: State, stock: Sequence[int]) -> State:
        """``state`` with the same cards in its stock put in the order ``stock``; the rest of the
        layout unchanged."""
        ...


class Classed(Concealable[State, Move], Protocol):
    """A concealable game whose rules never tell apart the cards of one class (Baroness and
    Thirteens look at ranks only, never at suits): two positions that differ only by a renaming
    of cards within their classes have the same future, and so the same chance. The search over
    unseen cards (:mod:`solver.chance`) then keys positions by class and turns up classes rather
    than cards. Optional: a game without ``card_classes`` is searched card by card, and that is
    always sound (Accordion and Amazons tell suits apart)."""

    #: The class of each card code (256 bytes, indexed by code; the bytes of codes that are no
    #: card are never read).
    card_classes: bytes

    def class_keyed(self) -> Concealable[State, Move]:
        """The same rules on the same states (the same kernel layout, where compiled) whose
        ``key`` writes each card as its class: equal for layouts that differ only by a renaming
        of cards within classes. Only its ``key`` is used (and its kernel's)."""
        ...


def card_classes(game: Any) -> tuple[bytes, Concealable[Any, Any]] | None:
    """The class table of ``game`` and its class-keyed twin (:class:`Classed`), or None where it
    has no classes (each card is its own)."""
    table = getattr(game, "card_classes", None)
    if table is None:
        return None
    if len(table) != 256:
        raise ValueError(f"a card class table has 256 bytes, not {len(table)}")
    return bytes(table), game.class_keyed()
