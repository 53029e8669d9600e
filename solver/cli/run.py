"""Solving one deal of a named game, and the record the command line and surveys report for it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

from rulesets import find_game
from rulesets.cards import Card, format_cards
from rulesets.deals import read_deal
from rulesets.family import Family, OptionError, Ruleset
from solver.protocol import NO_SCORE
from solver.replay import checked
from solver.result import Limits, SearchResult, Verdict
from solver.search import depth_first, iterative_deepening, line_cost


@dataclass(frozen=True)
class Setup:
    """A game family with its variant and option values fixed, and the ruleset they build."""

    family: Family
    variant: str
    settings: dict[str, Any]
    game: Ruleset[Any, Any]

    @classmethod
    def of(cls, name: str, variant: str | None = None, options: Sequence[str] = ()) -> "Setup":
        family, implied = find_game(name)
        if variant is not None and implied is not None and variant != implied:
            raise OptionError(f"game {name!r} is itself a variant; drop --variant {variant}")
        chosen = family.variant(variant or implied).name
        settings = family.settings(chosen, options)
        return cls(family, chosen, settings, family.build(settings))

    def deal(self, seed: int | None = None, text: str | None = None) -> list[Card]:
        """The deal for ``--seed`` or ``--deal`` text, checked against the game's deck."""
        if seed is not None:
            return self.family.seeded_deal(seed)
        assert text is not None
        return read_deal(text, self.family.deck())


@dataclass(frozen=True)
class Outcome:
    """One solved deal: the search result (already replayed) and what it started from."""

    setup: Setup
    seed: int | None
    deal: list[Card]
    start: Any
    result: SearchResult[Any]
    least_cost: bool = False

    def cost(self) -> int | None:
        """With ``least_cost``, the winning line's total move cost (its redeals); else None."""
        if not self.least_cost or self.result.solution is None:
            return None
        return line_cost(self.setup.game, self.start, self.result.solution)  # type: ignore[arg-type]

    def score(self) -> int | None:
        """The best score reached, or None where no line reached an end of the game."""
        return None if self.result.best_score == NO_SCORE else self.result.best_score

    def line_text(self) -> list[str]:
        """The best line (the solution when won) in the game's move notation."""
        game, state, texts = self.setup.game, self.start, []
        for move in self.result.best_line:
            texts.append(game.describe_move(state, move))
            state = game.apply(state, move)
        return texts

    def record(self) -> dict[str, Any]:
        """The JSON record of this deal (one line per deal in ``--json`` output and surveys)."""
        family = self.setup.family
        won = self.result.solution is not None
        record: dict[str, Any] = {
            "game": family.name,
            "variant": self.setup.variant,
            "options": dict(self.setup.settings),
            "seed": self.seed,
            "deal": format_cards(self.deal),
            "result": self.result.verdict.value,
            family.score_field: self.score(),
            "score_proven": self.result.verdict is not Verdict.UNKNOWN,
            "solution": self.line_text() if won else None,
            "best_line": None if won else self.line_text(),
            "nodes": self.result.stats.nodes,
            "seconds": round(self.result.stats.seconds, 6),
            "peak_table_bytes": self.result.stats.peak_table_bytes,
            "limit": self.result.limit,
        }
        cost = self.cost()
        if cost is not None:
            record["redeals"] = cost
            record["fewest_redeals_proven"] = self.result.limit is None
            record["redeals_at_least"] = self.result.least_cost_floor if self.result.limit else cost
        if family.threshold is not None and self.score() is not None:
            name, most = family.threshold
            record[name] = self.score() <= most
        return record


def solve(setup: Setup, deal: list[Card], limits: Limits, seed: int | None = None, least_cost: bool = False) -> Outcome:
    """Search the deal; every reported line has been replayed through the rules first."""
    game = setup.game
    start = game.start(deal)
    if least_cost:
        if not hasattr(game, "move_cost"):
            raise OptionError(f"{setup.family.name} has no stock to pass through; --fewest-redeals does not apply")
        result = iterative_deepening(game, start, limits)  # type: ignore[arg-type]
    else:
        result = depth_first(game, start, limits)
    return Outcome(setup, seed, deal, start, checked(game, start, result), least_cost)


MIN_MEMORY = 64 * 1024
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)


def parse_size(text: str) -> int:
    """A memory size such as ``512M``, ``2G`` or ``1000000`` (bytes)."""
    found = _SIZE.match(text)
    if not found:
        raise OptionError(f"cannot read memory size {text!r}: write e.g. 500M or 2G")
    scale = 1024 ** " kmgt".index((found.group(2) or " ").lower())
    size = int(float(found.group(1)) * scale)
    if size < MIN_MEMORY:
        raise OptionError(f"memory size {text!r} is too small: the table needs at least 64K")
    return size
