"""Helpers shared by the test files: walking a ruleset's state graph, and random play."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any


# --- Accordion's additions (game-agnostic: any ruleset, any state) ---------------------------


def reachable_states(game: Any, start: Any) -> set[Any]:
    """Every state the ruleset ``game`` reaches from ``start`` by legal moves (``start`` included)."""
    seen, todo = {start}, [start]
    while todo:
        state = todo.pop()
        for move in game.moves(state):
            after = game.apply(state, move)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return seen


def random_steps(game: Any, start: Any, rng: random.Random, most: int = 200) -> Iterator[tuple[Any, Any, Any]]:
    """(before, move, after) for each step of a random line of play from ``start``: it stops where
    no move is left, or after ``most`` moves (games with redeals may never run out of moves)."""
    state = start
    for _ in range(most):
        moves = game.moves(state)
        if not moves:
            return
        move = rng.choice(moves)
        after = game.apply(state, move)
        yield state, move, after
        state = after
