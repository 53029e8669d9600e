"""Hints: every legal move of a position, with what it leaves, best first.

Each move's position is searched depth first (on the engine :mod:`solver.engine` picks), and what
those searches prove is kept in one table that serves the later ones:

- A search that exhausted its space (``lost``, minimum ``m``) proves that no state reachable from
  its start scores below ``m``; every state it searched is reachable from there, so each gets the
  floor ``m``. A later search treats a floor as part of the lower bound: it skips a state whose
  floor is at least its best score so far (nothing there can improve it) and searches the others.
  Floors are admissible bounds, so the later search's own proofs stay sound.
- A search that won leaves a winning line; every state on it is winnable by the rest of that
  line. A later search that reaches one of them has won: its line is completed with that rest.
- Moves whose positions have the same layout key share one answer, when its line plays from
  both: equal keys promise equal futures, not equal move lists (Baroness keys cards by rank, so
  after `discard 6C+7D` and `discard 6H+7D` the line may name a six that is not there).

Limits apply to each move's search on its own (so a move's answer does not depend on how much
the moves before it used up), and a move whose search a limit cut says ``unknown``. The table of
floors is held to ``max_memory`` too (when full it stops growing), beside each search's own table.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from solver import engine
from solver.protocol import Game
from solver.replay import checked, replay, shortfall
from solver.result import NO_LIMITS, Limits, SearchResult, Verdict
from solver.search import RESTART_NODES, depth_first
from solver.table import TableMemory, TranspositionTable, ValueTable, digest

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)


class MoveAnalysis(NamedTuple, Generic[Move]):
    """One legal move and what it leaves: the ``verdict`` of the position after it, ``score`` the
    best score reachable from there (proven unless ``unknown``), ``line`` the moves after it that
    reach that score (a win when won), ``limit`` the limit that cut its search if one did, and
    ``nodes`` the states its search expanded (0 when it shared an earlier move's answer)."""

    move: Move
    verdict: Verdict
    score: int
    line: tuple[Move, ...]
    limit: str | None
    nodes: int

    def rank(self) -> tuple[bool, int, bool]:
        """Best first: a win, then a lower score, then (at equal score) a proven one."""
        return (self.verdict is not Verdict.WON, self.score, self.verdict is Verdict.UNKNOWN)


def analyse(
    game: Game[State, Move],
    start: State,
    limits: Limits = NO_LIMITS,
    restart_nodes: int | None = RESTART_NODES,
    legal: Game[State, Move] | None = None,
) -> list[MoveAnalysis[Move]]:
    """Every legal move in ``start`` with what it leaves, best first (ties in the game's order).
    The moves are ``legal``'s where given: the rules' every move, where ``game``'s leave out
    moves a sound reduction proves needless to search (a player asks about each of them). The
    searches run on the engine :func:`solver.engine.engine_for` names."""
    kernel = engine.kernel_of(game)
    proofs: _Proofs[State, Move] = (
        _PythonProofs(game, limits) if kernel is None else _NativeProofs(game, kernel, limits)
    )
    answers: dict[bytes, MoveAnalysis[Move]] = {}
    analyses = []
    for move in (game if legal is None else legal).moves(start):
        child = game.apply(start, move)
        layout = game.key(child)
        shared = answers.get(layout)
        if shared is not None and not shortfall(game, child, shared.line, shared.score, shared.verdict is Verdict.WON):
            analyses.append(shared._replace(move=move, nodes=0))
            continue
        found, searched = proofs.search(child, limits, restart_nodes)
        result = proofs.completed(child, found)
        proofs.learn(child, result, searched)
        answers[layout] = MoveAnalysis(
            move, result.verdict, result.best_score, result.best_line, result.limit, result.stats.nodes
        )
        analyses.append(answers[layout])
    return sorted(analyses, key=MoveAnalysis.rank)


class _Proofs(Generic[State, Move]):
    """What the searches of one hint proved, kept for the later ones: winnable states (by the
    engine's digest: a winning line through the state, and the state's place on it) and score
    floors. Each engine keeps the floors and the winnable states where its search reads them."""

    def __init__(self, game: Game[State, Move]) -> None:
        self.game = game
        self.wins: dict[int, tuple[tuple[Move, ...], int]] = {}
        self.win_score = 0

    def digest(self, state: State) -> int:
        raise NotImplementedError

    def search(
        self, start: State, limits: Limits, restart_nodes: int | None
    ) -> tuple[SearchResult[Move], Iterable[int] | Any]:
        """``start`` searched with what is known; the result, and the digests it searched."""
        raise NotImplementedError

    def _winnable(self, digest: int) -> None:
        """Let the searches know the state of this digest is winnable."""

    def _raise_floors(self, searched: Any, least: int) -> None:
        """Every searched state scores at least ``least``."""
        raise NotImplementedError

    def completed(self, start: State, result: SearchResult[Move]) -> SearchResult[Move]:
        """``result`` with a win that stopped at a known winnable state played to the end, checked
        move by move through the game's own rules."""
        final = replay(self.game, start, result.best_line).final
        if result.verdict is Verdict.WON and not self.game.is_won(final):
            line, place = self.wins[self.digest(final)]
            rest = line[place:]
            played = replay(self.game, final, rest)
            if played.illegal_at is not None or not self.game.is_won(played.final):
                # Equal keys promise equal futures, not equal move lists: a game may offer an
                # equivalent state's moves otherwise (Thirteens' forced pair depends on where the
                # cards lie). The state is winnable, so its own winning line is found directly.
                found = engine.depth_first(self.game, final)
                if found.verdict is not Verdict.WON:
                    raise AssertionError("a state proven winnable was not won")
                rest = found.best_line
            result = result._replace(best_line=result.best_line + rest)
        return checked(self.game, start, result)

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


class _PythonProofs(_Proofs[State, Move]):
    """The Python engine's: the searches run on the game as :class:`_Proven` shows it."""

    def __init__(self, game: Game[State, Move], limits: Limits) -> None:
        super().__init__(game)
        self.proven = _Proven(game, self, TableMemory(limits.max_memory))

    def digest(self, state: State) -> int:
        return digest(self.game.key(state))

    def search(self, start: State, limits: Limits, restart_nodes: int | None) -> tuple[SearchResult[Move], set[int]]:
        table = TranspositionTable(TableMemory(limits.max_memory))
        return depth_first(self.proven, start, limits, restart_nodes, table), table.entries

    def _raise_floors(self, searched: set[int], least: int) -> None:
        floors = self.proven.floors
        entries = floors.entries
        for entry in searched:
            if entry in entries:
                entries[entry] = max(entries[entry], least)
            elif not floors.full():
                entries[entry] = least


class _NativeProofs(_Proofs[State, Move]):
    """The compiled engine's: floors and winnable states in its own tables, which its search
    reads as the Python engine reads :class:`_Proven`."""

    def __init__(self, game: Game[State, Move], kernel: Any, limits: Limits) -> None:
        super().__init__(game)
        from solver import _table

        self.core: Any = engine.compiled_core()
        self.kernel = kernel
        self._table = _table
        memory = _table.TableMemory(limits.max_memory)
        self.floors = _table.DigestMap(memory)
        self.winnable = _table.DigestSet(memory)

    def digest(self, state: State) -> int:
        return int(self._table.digest(self.game.key(state)))

    def search(self, start: State, limits: Limits, restart_nodes: int | None) -> tuple[SearchResult[Move], Any]:
        compiled: Any = self.game
        table = self._table.DigestSet(self._table.TableMemory(limits.max_memory))
        result: SearchResult[Any] = self.core.depth_first(
            self.kernel,
            compiled.encode(start),
            max_nodes=limits.max_nodes,
            max_seconds=limits.max_seconds,
            restart_nodes=restart_nodes,
            table=table,
            floors=self.floors,
            wins=self.winnable,
            win_score=self.win_score,
        )
        return result._replace(best_line=engine.decoded(self.game, result.best_line)), table

    def _winnable(self, digest: int) -> None:
        self.winnable.insert(digest)

    def _raise_floors(self, searched: Any, least: int) -> None:
        self.floors.raise_all(searched, least)


class _Proven(Generic[State, Move]):
    """The game as the Python engine's searches see it, with what earlier searches proved:
    floors raise the lower bound, and a state known to be winnable counts as won (with the
    win's score)."""

    def __init__(self, game: Game[State, Move], proofs: _Proofs[State, Move], memory: TableMemory) -> None:
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
