"""What the searches of one hint proved, kept for the later ones (see :mod:`solver.analysis`):
winnable states and score floors, each engine keeping them where its search reads them. The
Python engine's are here (:class:`PythonProofs`, its searches run on the game as
:class:`_Proven` shows it); the compiled engine's beside its other wrappers, in
:mod:`solver.engine`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from solver.protocol import GameRules
from solver.result import Limits, SearchResult, Verdict
from solver.search import depth_first
from solver.table import TableMemory, TranspositionTable, ValueTable, digest

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)


class Proofs(Generic[State, Move]):
    """What the searches of one hint proved, kept for the later ones: winnable states (by the
    engine's digest: a winning line through the state, and the state's place on it) and score
    floors. Each engine keeps the floors and the winnable states where its search reads them.

    The memory bound is shared out once, so that a hint keeps to it as a whole: a quarter for the
    floors and winnable states (``proof_bytes``), the rest for each move's search, one at a time
    (``search_bytes``; None: unbounded)."""

    def __init__(self, game: GameRules[State, Move], limits: Limits) -> None:
        self.game = game
        self.wins: dict[int, tuple[tuple[Move, ...], int]] = {}
        self.win_score = 0
        bound = limits.max_memory
        self.proof_bytes = None if bound is None else bound // 4
        self.search_bytes = None if bound is None else bound - bound // 4

    def digest(self, state: State) -> int:
        raise NotImplementedError

    def search(
        self, start: State, limits: Limits, restart_nodes: int | None
    ) -> tuple[SearchResult[Move], Iterable[int] | Any]:
        """``start`` searched with what is known (its table held to ``search_bytes``, not
        ``limits.max_memory``); the result, and the digests it searched."""
        raise NotImplementedError

    def _winnable(self, digest: int) -> None:
        """Let the searches know the state of this digest is winnable."""

    def _raise_floors(self, searched: Any, least: int) -> None:
        """Every searched state scores at least ``least``."""
        raise NotImplementedError

    def learn(self, start: State, result: SearchResult[Move], searched: Any) -> None:
        """Keep what ``result``, searched from ``start`` (its table ``searched``), proves about
        other states."""
        if result.verdict is Verdict.WON:
            self.win_score = result.best_score
            state = start
            for place, move in enumerate(result.best_line):
                found = self.digest(state)
                self.wins[found] = (result.best_line, place)
                self._winnable(found)
                state = self.game.apply(state, move)
        elif result.verdict is Verdict.LOST:
            self._raise_floors(searched, result.best_score)


class PythonProofs(Proofs[State, Move]):
    """The Python engine's: the searches run on the game as :class:`_Proven` shows it."""

    def __init__(self, game: GameRules[State, Move], limits: Limits) -> None:
        super().__init__(game, limits)
        self.proven = _Proven(game, self, TableMemory(self.proof_bytes))

    def digest(self, state: State) -> int:
        return digest(self.game.key(state))

    def search(self, start: State, limits: Limits, restart_nodes: int | None) -> tuple[SearchResult[Move], set[int]]:
        table = TranspositionTable(TableMemory(self.search_bytes))
        return depth_first(self.proven, start, limits, restart_nodes=restart_nodes, table=table), table.entries

    def _raise_floors(self, searched: set[int], least: int) -> None:
        floors = self.proven.floors
        entries = floors.entries
        for entry in searched:
            if entry in entries:
                entries[entry] = max(entries[entry], least)
            elif not floors.full():
                entries[entry] = least


class _Proven(Generic[State, Move]):
    """The game as the Python engine's searches see it, with what earlier searches proved:
    floors raise the lower bound, and a state known to be winnable counts as won (with the
    win's score)."""

    def __init__(self, game: GameRules[State, Move], proofs: Proofs[State, Move], memory: TableMemory) -> None:
        self.game = game
        self.proofs = proofs
        self.floors = ValueTable(memory)
        self._last: tuple[object, int] = (object(), 0)

    def moves(self, state: State) -> Sequence[Move]:
        return self.game.moves(state)

    def apply(self, state: State, move: Move) -> State:
        return self.game.apply(state, move)

    def key(self, state: State) -> bytes:
        return self.game.key(state)

    def lower_bound(self, state: State) -> int:
        bound = self.game.lower_bound(state)
        floor = self.floors.entries.get(self._digest(state)) if self.floors.entries else None
        return bound if floor is None or floor < bound else floor

    def is_won(self, state: State) -> bool:
        return self.game.is_won(state) or self._winnable(state)

    def score(self, state: State) -> int:
        return self.proofs.win_score if self._winnable(state) else self.game.score(state)

    def _winnable(self, state: State) -> bool:
        return bool(self.proofs.wins) and self._digest(state) in self.proofs.wins

    def _digest(self, state: State) -> int:
        """The state's digest, remembered for the last state asked about: the search asks for its
        bound, then its score, then whether it is won, one state at a time."""
        if state is not self._last[0]:
            self._last = (state, digest(self.game.key(state)))
        return self._last[1]
