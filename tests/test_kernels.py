"""Differential tests: every compiled kernel against its Python ruleset, for every combination
of its family's options.

From states reached by random play from PySolFC's deals, a kernel must offer the same moves in
the same order (its codes turned back by the ruleset's ``decode``), reach the same successor
layouts (the ruleset's ``encode`` of its successor), and give the same key bytes, score, bound,
win, and (for IDA*) move costs and cost bounds. Then the two engines searched without restarts,
which then visit states in the same order, must expand the same states to the same answer.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from helpers import assert_same_search_without_restarts
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import families
from solver import engine as engines
from solver import search
from solver.result import Limits

#: Every family's every combination of option values, named as --option would write them.
COMBINATIONS = [
    (family.name, dict(zip([option.name for option in family.options], values)))
    for family in families().values()
    for values in itertools.product(*[option.choices for option in family.options])
]

#: The combinations whose rulesets have move costs (for IDA*).
COSTED = [
    (family.name, settings_)
    for family, settings_ in ((families()[name], settings_) for name, settings_ in COMBINATIONS)
    if hasattr(family.build({**{option.name: option.default for option in family.options}, **settings_}), "move_cost")
]


def combination_id(case: tuple[str, dict[str, Any]]) -> str:
    name, settings_ = case
    return name + "".join(f",{key}={value}" for key, value in settings_.items())


def built(name: str, settings_: dict[str, Any]) -> tuple[Any, Any, Any]:
    """The family, its ruleset for these settings and that ruleset's kernel (the test is skipped
    where the kernel is not compiled)."""
    family = families()[name]
    game = family.build({**{option.name: option.default for option in family.options}, **settings_})
    kernel = engines.kernel_of(game)
    if kernel is None:
        pytest.skip(f"no compiled kernel for {name} here")
    return family, game, kernel


def same_answers(game: Any, kernel: Any, state: Any) -> list[tuple[Any, int]]:
    """Assert the kernel answers as the ruleset does at ``state``; its moves with their codes."""
    from solver._table import digest

    encoded = game.encode(state)
    codes = kernel.probe_moves(encoded)
    moves = list(game.moves(state))
    assert [game.decode(code) for code in codes] == moves, game.write_position(state)
    assert kernel.probe_key(encoded) == game.key(state), game.write_position(state)
    assert kernel.probe_digest(encoded) == digest(game.key(state)), game.write_position(state)
    assert kernel.probe_score(encoded) == game.score(state), game.write_position(state)
    assert kernel.probe_lower_bound(encoded) == game.lower_bound(state), game.write_position(state)
    assert kernel.probe_is_won(encoded) == game.is_won(state), game.write_position(state)
    offset, length = kernel.probe_stock_span(encoded)
    stock = bytes(game.stock(state)) if hasattr(game, "with_stock") else b""
    assert encoded[offset : offset + length] == stock, game.write_position(state)
    if hasattr(game, "move_cost"):
        assert kernel.probe_cost_to_win_bound(encoded) == game.cost_to_win_bound(state), game.write_position(state)
    for code, move in zip(codes, moves):
        after = game.apply(state, move)
        assert kernel.probe_apply(encoded, code) == game.encode(after), (game.write_position(state), move)
        if hasattr(game, "move_cost"):
            assert kernel.probe_move_cost(encoded, code) == game.move_cost(state, move)
    return list(zip(moves, codes))


@pytest.mark.one_engine
@pytest.mark.parametrize("case", COMBINATIONS, ids=combination_id)
@settings(max_examples=8)
@given(seed=st.integers(1, 10**6), walk=st.randoms(use_true_random=False))
def test_a_kernel_answers_as_its_ruleset_along_random_play(case, seed, walk):
    family, game, kernel = built(*case)
    if hasattr(game, "move_cost"):
        assert kernel.probe_cost_to_win_cap() == game.cost_to_win_cap()
    state = game.start(family.seeded_deal(seed))
    for _ in range(400):
        moves = same_answers(game, kernel, state)
        if not moves:
            break
        state = game.apply(state, walk.choice(moves)[0])


@pytest.mark.one_engine
@pytest.mark.parametrize("case", COMBINATIONS, ids=combination_id)
def test_without_restarts_both_engines_expand_the_same_states(case):
    family, game, _ = built(*case)
    for seed in random.Random(combination_id(case)).sample(range(1, 100_000), 4):
        start = game.start(family.seeded_deal(seed))
        assert_same_search_without_restarts(game, start, Limits(max_nodes=3000), seed)


@pytest.mark.one_engine
@pytest.mark.parametrize("case", COSTED, ids=combination_id)
def test_without_restarts_both_engines_search_for_the_least_cost_alike(case, monkeypatch):
    """IDA* (iterative_deepening) with the deciding search's restarts off: both engines expand
    the same states to the same answer, through the same passes, whether the node limit cuts
    the deciding search, a pass (the same ``least_cost_floor``), or nothing."""
    family, game, _ = built(*case)
    monkeypatch.setattr(search, "RESTART_NODES", None)  # read by both engines at each search
    for seed in random.Random(combination_id(case)).sample(range(1, 100_000), 2):
        start = game.start(family.seeded_deal(seed))
        for limits in (Limits(max_nodes=3000), Limits(max_nodes=600)):
            compiled = engines.engine_of(game).iterative_deepening(start, limits=limits)
            python = search.iterative_deepening(game, start, limits)
            assert compiled.engine == "native"
            assert (
                compiled.verdict,
                compiled.best_score,
                compiled.best_line,
                compiled.limit,
                compiled.least_cost_floor,
                compiled.stats.nodes,
                compiled.stats.iterations,
            ) == (
                python.verdict,
                python.best_score,
                python.best_line,
                python.limit,
                python.least_cost_floor,
                python.stats.nodes,
                python.stats.iterations,
            ), (seed, limits)


# Baroness and Thirteens take their reductions as a set (the tests build rulesets without some):
# their kernels are held to every subset, any number of piles or places, and decks of any size
# (few cards make grace cards, short stocks and sealed layouts of every kind).


def _subsets(names: frozenset[str]) -> list[frozenset[str]]:
    return [frozenset(c) for n in range(len(names) + 1) for c in itertools.combinations(sorted(names), n)]


@pytest.mark.one_engine
@settings(max_examples=300)
@given(
    reductions=st.sampled_from(_subsets(frozenset({"kings", "balanced", "idle", "sealed", "suits"}))),
    piles=st.integers(1, 8),
    options=st.tuples(*[st.booleans()] * 4),
    deal=st.permutations(range(52)),
    size=st.integers(1, 52),
    walk=st.randoms(use_true_random=False),
)
def test_the_baroness_kernel_answers_as_its_ruleset_under_any_reductions(reductions, piles, options, deal, size, walk):
    from rulesets.baroness import Baroness
    from rulesets.cards import CARDS

    game = Baroness(piles, *options, reductions=reductions)
    kernel = engines.kernel_of(game)
    if kernel is None:
        pytest.skip("no compiled Baroness kernel here")
    state = game.start([CARDS[code] for code in deal[:size]])
    for _ in range(200):
        if options[2]:  # spaces: the sealed fixpoint's floors, sealed or not
            assert kernel.probe_floors(game.encode(state)) == game.floors(state), game.write_position(state)
        moves = same_answers(game, kernel, state)
        if not moves:
            break
        state = game.apply(state, walk.choice(moves)[0])


@pytest.mark.one_engine
@settings(max_examples=100)
@given(
    reductions=st.sampled_from(_subsets(frozenset({"kings", "balanced", "suits"}))),
    places=st.integers(1, 16),
    deal=st.permutations(range(52)),
    size=st.integers(1, 52),
    walk=st.randoms(use_true_random=False),
)
def test_the_thirteens_kernel_answers_as_its_ruleset_under_any_reductions(reductions, places, deal, size, walk):
    from rulesets.cards import CARDS
    from rulesets.thirteens import Thirteens

    game = Thirteens(places, reductions=reductions)
    kernel = engines.kernel_of(game)
    if kernel is None:
        pytest.skip("no compiled Thirteens kernel here")
    state = game.start([CARDS[code] for code in deal[:size]])
    for _ in range(60):
        moves = same_answers(game, kernel, state)
        if not moves:
            break
        state = game.apply(state, walk.choice(moves)[0])
