"""The contract every variant of every registered game keeps, checked on small decks.

It knows the games only through the Ruleset protocol, so a new game is checked as soon as it is
registered: moves are legal and replay, apply leaves its input unchanged, equal layout keys mean
equal futures, the lower bound is admissible, every move's text and every position read back
to the same value, and every score lies in the range its family declares (what a survey file's
rows are held to). The futures are computed by a plain fixpoint over the whole reachable graph,
with no bound, no key and no pruning.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rulesets import families
from rulesets.amazons import Amazons
from rulesets.family import Family
from solver.protocol import NO_SCORE
from solver.replay import replay

VARIANTS = [(family, variant.name) for family in families().values() for variant in family.variants]
MAX_STATES = 4000


def small_start(family: Family, variant: str, seed: int, size: int) -> tuple[Any, Any]:
    """The game and the start of a small deal: PySolFC deal ``seed`` as the game lays it out,
    cut to ``size`` cards with its first and last cards kept (some games fix their end cards).

    Amazons' bounds count on every suit in play holding every rank of its foundation order (as
    in the game), so its small deck is whole suits of fewer ranks, dealt onto fewer depots."""
    settings = family.settings(variant)
    if family.name == "amazons":
        ranks = (1, 7, 8) if size < 7 else (1, 7, 8, 9)
        game = Amazons(**settings, ranks=ranks, piles=2)
        deck = [card for card in family.seeded_deal(seed) if card.rank in ranks and card.suit in "CH"]
        return game, game.start(deck)
    game = family.build(settings)
    deal = family.seeded_deal(seed)
    cards = deal[:1] + deal[1:-1][: size - 2] + deal[-1:]
    return game, game.start(cards)


def state_graph(game: Any, start: Any) -> dict[Any, list[tuple[Any, Any]]] | None:
    """Every state reachable from ``start`` with its (move, next state) pairs, by state value
    (None if there are more than MAX_STATES: that deal is left to smaller ones)."""
    graph: dict[Any, list[tuple[Any, Any]]] = {}
    todo = [start]
    while todo:
        state = todo.pop()
        if state in graph:
            continue
        graph[state] = [(move, game.apply(state, move)) for move in game.moves(state)]
        todo.extend(child for _, child in graph[state])
        if len(graph) > MAX_STATES:
            return None
    return graph


def futures(game: Any, graph: dict[Any, list[tuple[Any, Any]]]) -> dict[Any, tuple[bool, int]]:
    """For each state: whether a win is reachable, and the lowest score reachable (a fixpoint,
    so cycles are fine)."""
    value = {state: (game.is_won(state), game.score(state)) for state in graph}
    changed = True
    while changed:
        changed = False
        for state, edges in graph.items():
            won, best = value[state]
            for _, child in edges:
                child_won, child_best = value[child]
                if (child_won and not won) or child_best < best:
                    won, best = won or child_won, min(best, child_best)
            if (won, best) != value[state]:
                value[state] = (won, best)
                changed = True
    return value


def assert_scored_as_declared(family: Family, game: Any, state: Any) -> None:
    """The state's score lies in the range its family declares, what a survey file is held to:
    from the win's score (``win_score``, which a state scores exactly when it is won) to the
    deck's size."""
    score = game.score(state)
    assert (score == family.win_score) == game.is_won(state), (score, game.write_position(state))
    assert score == NO_SCORE or family.win_score <= score <= len(family.deck()), score


@pytest.mark.one_engine  # the rulesets' own answers, state by state: no search
@pytest.mark.parametrize("family, variant", VARIANTS, ids=[v for _, v in VARIANTS])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6), size=st.integers(4, 8))
def test_every_variant_keeps_the_contract(family: Family, variant: str, seed: int, size: int) -> None:
    game, start = small_start(family, variant, seed, size)
    graph = state_graph(game, start)
    assume(graph is not None)
    assert graph is not None
    future = futures(game, graph)
    by_key: dict[bytes, tuple[bool, int]] = {}
    for state, edges in graph.items():
        before = copy.deepcopy(state)
        assert game.lower_bound(state) <= future[state][1], "lower bound above the best reachable score"
        if game.is_won(state):
            assert game.score(state) <= min(score for _, score in future.values() if score != NO_SCORE)
        assert_scored_as_declared(family, game, state)
        for move, child in edges:
            assert game.apply(state, move) == child and state == before, "apply changed its input"
            text = game.describe_move(state, move)
            assert game.parse_move(state, text) == move, f"{text!r} does not read back"
            assert replay(game, state, [move]).illegal_at is None
            assert game.touched(state, move) <= {p.label for row in game.picture(child).rows for p in row}
        assert by_key.setdefault(game.key(state), future[state]) == future[state], "equal keys, different futures"


@pytest.mark.parametrize("family, variant", VARIANTS, ids=[v for _, v in VARIANTS])
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(1, 10**6), choices=st.lists(st.integers(0, 10**6), max_size=120))
def test_every_position_reached_by_play_reads_back(family: Family, variant: str, seed: int, choices: list[int]) -> None:
    """On whole deals (a position must hold the whole deck), along a random line of play."""
    game = family.build(family.settings(variant))
    state = game.start(family.seeded_deal(seed))
    for choice in choices:
        text = game.write_position(state)
        assert game.read_position(text) == state, text
        assert_scored_as_declared(family, game, state)
        moves = game.moves(state)
        if not moves:
            break
        state = game.apply(state, moves[choice % len(moves)])
