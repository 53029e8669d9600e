"""Hints: every legal move of a position with what it leaves (won, lost or unknown, and the best
score reachable after it), best first. Every line has been replayed through the rules by
:func:`solver.analysis.analyse`."""

from __future__ import annotations

from typing import Any, NamedTuple

from solver.analysis import analyse
from solver.protocol import NO_SCORE
from solver.result import Limits, Verdict
from solver.service.setup import Setup
from solver.service.solving import line_texts


class Hint(NamedTuple):
    """One legal move: its text, the verdict and best score after it (None where no line from
    there reaches an end of the game), whether that score is proven, the limit that cut its
    search if one did, the line after it that reaches the score (a win when won), and the
    engine that searched ("native" or "python"; the JSON record names it once, not per move)."""

    move: str
    result: str
    score: int | None
    score_proven: bool
    limit: str | None
    line: list[str]
    engine: str

    def record(self) -> dict[str, Any]:
        """The hint as ``hint --json`` prints it in its ``moves`` list."""
        return {
            "move": self.move,
            "result": self.result,
            "score": self.score,
            "score_proven": self.score_proven,
            "limit": self.limit,
            "line": self.line,
        }


def hints(setup: Setup, start: Any, limits: Limits) -> list[Hint]:
    """Every legal move in ``start``, best first (see :func:`solver.analysis.analyse`); the limits
    apply to each move's search on its own."""
    game = setup.game
    found = []
    for analysis in analyse(setup.engine, start, limits=limits, legal=setup.legal):
        after = game.apply(start, analysis.move)
        found.append(
            Hint(
                move=game.describe_move(start, analysis.move),
                result=analysis.verdict.value,
                score=None if analysis.score == NO_SCORE else analysis.score,
                score_proven=analysis.verdict is not Verdict.UNKNOWN,
                limit=analysis.limit,
                line=line_texts(game, after, analysis.line),
                engine=setup.engine.name,
            )
        )
    return found
