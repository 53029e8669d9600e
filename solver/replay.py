"""The replay checker: plays a line of moves from the start, move by move, through the rules."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Generic, NamedTuple, TypeVar

from solver.protocol import GameRules
from solver.result import SearchResult, Verdict

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)


class IllegalLine(AssertionError):
    """The search's own line fails its replay: a bug in the engine or a ruleset, never bad input
    (so it is not a ValueError, which the command line would blame on the user)."""


class Replay(NamedTuple, Generic[State]):
    """The outcome of replaying a line: the final state, or the first illegal move (1-based)."""

    final: State
    illegal_at: int | None = None


def replay(game: GameRules[State, Move], start: State, line: Sequence[Move]) -> Replay[State]:
    """Play ``line`` from ``start``; stop at the first move not among the legal ones."""
    state = start
    for number, move in enumerate(line, 1):
        if move not in game.moves(state):
            return Replay(state, number)
        state = game.apply(state, move)
    return Replay(state)


def checked(game: GameRules[State, Move], start: State, result: SearchResult[Move]) -> SearchResult[Move]:
    """The result, once its best line replays legally to its score (and to a win if won)."""
    why = shortfall(game, start, result.best_line, score=result.best_score, won=result.verdict is Verdict.WON)
    if why is not None:
        raise IllegalLine(f"internal error: the search's line {why}")
    return result


def shortfall(game: GameRules[State, Move], start: State, line: Sequence[Move], *, score: int, won: bool) -> str | None:
    """How ``line`` fails to play from ``start`` to ``score`` (and to a win if ``won``), in words;
    None if it does."""
    outcome = replay(game, start, line)
    if outcome.illegal_at is not None:
        return f"is illegal at move {outcome.illegal_at}"
    if game.score(outcome.final) != score:
        return "does not reach the score it reports"
    if won and not game.is_won(outcome.final):
        return "does not win"
    return None
