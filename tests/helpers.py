"""Helpers shared by the test files."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

# --- engine: toy games given as explicit graphs (h-engine) ----------------------------------------


@dataclass(frozen=True)
class GraphGame:
    """States are node numbers; a move is (target, cost); node scores; won nodes score 0."""

    edges: dict = field(hash=False)
    scores: dict = field(hash=False)

    def moves(self, state):
        return self.edges.get(state, [])

    def apply(self, state, move):
        return move[0]

    def is_won(self, state):
        return self.scores[state] == 0

    def key(self, state):
        return state.to_bytes(4, "little")

    def score(self, state):
        return self.scores[state]

    def lower_bound(self, state):
        return 0

    def move_cost(self, state, move):
        return move[1]

    def cost_to_win_bound(self, state):
        return 0


def chain(n, cyclic=False, won_at=None):
    """0 -> 1 -> ... -> n-1 (and back to 0 if cyclic); scores count down to 1 (or 0 at won_at)."""
    edges = {i: [(i + 1, 1)] for i in range(n - 1)}
    if cyclic:
        edges[n - 1] = [(0, 1)]
    scores = {i: n - i for i in range(n)}
    if won_at is not None:
        scores[won_at] = 0
    return GraphGame(edges, scores)


@st.composite
def graphs(draw, acyclic=False):
    """Graph games of 2 to 12 nodes started at node 0 (which is not won); two moves may lead to one
    node (at different costs); with ``acyclic``, every move leads to a higher node."""
    n = draw(st.integers(2, 12))
    edges = {}
    for node in range(n):
        targets = st.integers(node + 1, n - 1) if acyclic else st.integers(0, n - 1)
        edges[node] = [] if acyclic and node == n - 1 else draw(st.lists(st.tuples(targets, st.integers(0, 3)), max_size=4, unique=True))
    scores = {node: draw(st.integers(0, 5)) if node else draw(st.integers(1, 5)) for node in range(n)}
    return GraphGame(edges, scores)


def reachable(game, start=0):
    """Every node reachable from ``start`` (``start`` included)."""
    seen, todo = {start}, [start]
    while todo:
        for target, _ in game.moves(todo.pop()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen
