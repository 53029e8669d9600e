"""An independent brute force for the chance to win with a face-down stock.

It shares no code with solver.chance: a position is the set of every full-information state the
player cannot tell apart (one per order of the face-down cards, all equally likely), the rules
come from the ruleset alone, and a move's outcomes are told apart by what the player sees after
it (the position written without its stock, and the stock's length). No table of layouts (only
of the sets of states met), no canonical order, no count of cards turned up: every order is carried along, every line walked.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from typing import Any


def visible(game: Any, state: Any) -> tuple[str, int]:
    """What the player sees: every section of the position but the stock, and the stock's size."""
    sections = [part for part in game.write_position(state).split(" | ") if not part.startswith("stock:")]
    return " | ".join(sections), len(state.stock)


def states(game: Any, state: Any, hidden: int) -> list[Any]:
    """One full-information state for each order of the last ``hidden`` stock cards."""
    stock = tuple(state.stock)
    known, face_down = stock[: len(stock) - hidden], stock[len(stock) - hidden :]
    return [state._replace(stock=type(state.stock)(known + order)) for order in itertools.permutations(face_down)]


def chance(game: Any, together: list[Any], seen: dict[frozenset[Any], Fraction] | None = None) -> Fraction:
    """The best chance to win from the states the player cannot tell apart (equally likely);
    ``seen`` remembers the answer for each set of states met before."""
    seen = {} if seen is None else seen
    key = frozenset(together)
    if key not in seen:
        seen[key] = _chance(game, together, seen)
    return seen[key]


def _chance(game: Any, together: list[Any], seen: dict[frozenset[Any], Fraction]) -> Fraction:
    first = together[0]
    if game.is_won(first):
        assert all(game.is_won(state) for state in together)
        return Fraction(1)
    best = Fraction(0)
    for move in game.moves(first):
        groups: dict[tuple[str, int], list[Any]] = defaultdict(list)
        for state in together:
            after = game.apply(state, move)
            groups[visible(game, after)].append(after)
        shares = (Fraction(len(group), len(together)) * chance(game, group, seen) for group in groups.values())
        best = max(best, sum(shares, Fraction(0)))
    return best
