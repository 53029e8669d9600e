"""Solving one deal: search it, replay what was found through the rules, and say what it shows
(the verdict, the score, the redeals of the fewest-redeals search) and its JSON record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from rulesets.cards import Card, format_cards
from rulesets.family import OptionError
from solver.protocol import NO_SCORE
from solver.replay import checked
from solver.result import Limits, SearchResult, Verdict
from solver.search import line_cost
from solver.service.setup import Setup


def line_texts(game: Any, start: Any, line: Sequence[Any]) -> list[str]:
    """A line of moves played from ``start``, each in the game's move notation."""
    state, texts = start, []
    for move in line:
        texts.append(game.describe_move(state, move))
        state = game.apply(state, move)
    return texts


class Outcome(NamedTuple):
    """One solved deal or position: the search result (already replayed) and what it started from
    (``deal`` is None when the search started from a position)."""

    setup: Setup
    seed: int | None
    deal: list[Card] | None
    start: Any
    result: SearchResult[Any]
    least_cost: bool = False

    def cost(self) -> int | None:
        """With ``least_cost``, the winning line's total move cost (its redeals); else None."""
        if not self.least_cost or self.result.solution is None:
            return None
        return line_cost(self.setup.game, self.start, self.result.solution)  # type: ignore[arg-type]

    def cost_at_least(self) -> int | None:
        """A proven lower bound on the fewest redeals of a win (the cost itself when proven)."""
        cost = self.cost()
        if cost is None or self.result.limit is None:
            return cost
        return self.result.least_cost_floor

    def score(self) -> int | None:
        """The best score reached, or None where no line reached an end of the game."""
        return None if self.result.best_score == NO_SCORE else self.result.best_score

    def score_proven(self) -> bool:
        """Whether the score is the proven minimum (no limit stopped the search before it decided)."""
        return self.result.verdict is not Verdict.UNKNOWN

    def line_text(self) -> list[str]:
        """The best line (the solution when won) in the game's move notation."""
        return line_texts(self.setup.game, self.start, self.result.best_line)

    def record(self) -> dict[str, Any]:
        """The JSON record of this deal (one line per deal in ``--json`` output)."""
        family, result = self.setup.family, self.result
        won = result.solution is not None
        record: dict[str, Any] = {
            "game": family.name,
            "variant": self.setup.variant,
            "options": dict(self.setup.settings),
            "seed": self.seed,
            "deal": None if self.deal is None else format_cards(self.deal),
            "position": self.setup.game.write_position(self.start),
            "result": result.verdict.value,
            family.score_field: self.score(),
            "score_proven": self.score_proven(),
            "solution": self.line_text() if won else None,
            "best_line": None if won else self.line_text(),
            "nodes": result.stats.nodes,
            "seconds": round(result.stats.seconds, 6),
            "peak_table_bytes": result.stats.peak_table_bytes,
            "limit": result.limit,
            "engine": result.engine,
        }
        cost = self.cost()
        if cost is not None:
            record["redeals"] = cost
            record["fewest_redeals_proven"] = result.limit is None
            record["redeals_at_least"] = self.cost_at_least()
        score = self.score()
        if family.threshold is not None and score is not None:
            name, most = family.threshold
            record[name] = score <= most
        return record


def solve(
    setup: Setup, deal: list[Card], limits: Limits, *, seed: int | None = None, least_cost: bool = False
) -> Outcome:
    """Search the deal; every reported line has been replayed through the rules first."""
    return solve_from(setup, setup.game.start(deal), limits, seed=seed, deal=deal, least_cost=least_cost)


def solve_from(
    setup: Setup,
    start: Any,
    limits: Limits,
    *,
    seed: int | None = None,
    deal: list[Card] | None = None,
    least_cost: bool = False,
) -> Outcome:
    """Search from a state (a deal's opening or a position read with ``Setup.position``)."""
    game = setup.game
    result: SearchResult[Any]
    if least_cost:
        if not hasattr(game, "move_cost"):
            raise OptionError(f"--fewest-redeals counts redeals, and {setup.family.name} has none: leave it out")
        result = setup.engine.iterative_deepening(start, limits=limits)
    else:
        result = setup.engine.depth_first(start, limits=limits)
    return Outcome(setup, seed, deal, start, checked(game, start, result), least_cost)
