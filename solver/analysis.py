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
the moves before it used up), and a move whose search a limit cut says ``unknown``. The memory
bound holds for the hint as a whole: the floors and winnable states are held to a quarter of it
(when full they stop growing), each move's search to the rest (:class:`solver.proofs.Proofs`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, NamedTuple, TypeVar

from solver.proofs import Proofs
from solver.protocol import GameRules
from solver.python_engine import Engine
from solver.replay import checked, replay, shortfall
from solver.result import NO_LIMITS, Limits, SearchResult, Verdict
from solver.search import RESTART_NODES

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
    engine: Engine,
    start: State,
    *,
    limits: Limits = NO_LIMITS,
    restart_nodes: int | None = RESTART_NODES,
    legal: GameRules[State, Move] | None = None,
) -> list[MoveAnalysis[Move]]:
    """Every legal move in ``start`` with what it leaves, best first (ties in the game's order).
    The moves are ``legal``'s where given: the rules' every move, where ``game``'s leave out
    moves a sound reduction proves needless to search (a player asks about each of them). The
    searches run on ``engine``, on the game it searches."""
    game: GameRules[State, Move] = engine.searched
    proofs = engine.proofs(limits)
    answers: dict[bytes, MoveAnalysis[Move]] = {}
    analyses = []
    for move in (game if legal is None else legal).moves(start):
        child = game.apply(start, move)
        layout = game.key(child)
        shared = answers.get(layout)
        if shared is not None and not shortfall(
            game, child, shared.line, score=shared.score, won=shared.verdict is Verdict.WON
        ):
            analyses.append(shared._replace(move=move, nodes=0))
            continue
        found, searched = proofs.search(child, limits, restart_nodes)
        if found.verdict is Verdict.WON:
            searched = ()  # a win proves no floors: its table goes before a line is completed by another search
        result = _completed(engine, proofs, child, result=found)
        proofs.learn(child, result, searched)
        del searched  # freed before the next move's search makes its own: one at a time within the bound
        answers[layout] = MoveAnalysis(
            move, result.verdict, result.best_score, result.best_line, result.limit, result.stats.nodes
        )
        analyses.append(answers[layout])
    return sorted(analyses, key=MoveAnalysis.rank)


def _completed(
    engine: Engine, proofs: Proofs[State, Move], start: State, *, result: SearchResult[Move]
) -> SearchResult[Move]:
    """``result`` with a win that stopped at a known winnable state played to the end, checked
    move by move through the game's own rules."""
    game: GameRules[State, Move] = engine.searched
    final = replay(game, start, result.best_line).final
    if result.verdict is Verdict.WON and not game.is_won(final):
        line, place = proofs.wins[proofs.digest(final)]
        rest = line[place:]
        played = replay(game, final, rest)
        if played.illegal_at is not None or not game.is_won(played.final):
            # Equal keys promise equal futures, not equal move lists: a game may offer an
            # equivalent state's moves otherwise (Thirteens' forced pair depends on where the
            # cards lie). The state is winnable, so its own winning line is found directly.
            found = engine.depth_first(final, limits=Limits(max_memory=proofs.search_bytes))
            if found.verdict is not Verdict.WON:
                raise AssertionError("a state proven winnable was not won")
            rest = found.best_line
        result = result._replace(best_line=result.best_line + rest)
    return checked(game, start, result)
