"""Helpers shared by the test modules."""

from __future__ import annotations

from typing import Any, Sequence

# --- from the Amazons family's tests (h-amazons); general, for any game ----------------------------


def walk(game: Any, start: Any, choices: Sequence[int]) -> list[tuple[Any, Any]]:
    """A line of play steered by ``choices`` (move ``choice % len(moves)`` at each step, as
    hypothesis draws them): each state met with the move then played, the last state with None
    (no move left, or the choices used up)."""
    steps = []
    state = start
    for choice in choices:
        moves = game.moves(state)
        if not moves:
            break
        move = moves[choice % len(moves)]
        steps.append((state, move))
        state = game.apply(state, move)
    steps.append((state, None))
    return steps


def states_along(game: Any, start: Any, line: Sequence[Any]) -> list[Any]:
    """The states a line of moves passes through, ``start`` first and the last one's end last."""
    states = [start]
    for move in line:
        states.append(game.apply(states[-1], move))
    return states
