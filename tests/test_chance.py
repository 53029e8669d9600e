"""The face-down stock: the exact chance against an independent brute force over every order on
small decks, chance <= clairvoyant, the games without choices, one face-down card, and a
sampled opening against the surveyed rate. Every test runs on both engines (the searches that
decide full-information positions)."""

import json
import random
from functools import cache
from typing import Any

import pytest
from helpers import measured
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.cards import parse_card
from rulesets.concealed import read_concealed, write_concealed
from solver import engine as engines
from solver.chance import Concealed, best_chance, conceal, hindsight, orders, unseen
from solver.engine import engine_of
from solver.result import Limits, Verdict
from solver.service.chances import judge
from solver.service.setup import Setup
from solver.service.stats import rate_range
from tests.brute.chance import chance as brute_chance
from tests.brute.chance import states as brute_states

UNLIMITED = Limits(max_memory=2**30)
#: Two suits of six ranks: the small deck of the Accordion tests.
SMALL_DECK = [parse_card(f"{rank}{suit}") for suit in "CH" for rank in "A23456"]


def decide(setup: Setup) -> Any:
    def decided(state: Any, limits: Limits) -> tuple[bool | None, int]:
        result = engine_of(setup.game).depth_first(state, limits=limits)
        return (None if result.verdict is Verdict.UNKNOWN else result.verdict is Verdict.WON), result.stats.nodes

    return decided


def exact(setup: Setup, position: Concealed) -> float:
    """The exact chance on the engine the run uses (the compiled expectimax, or the Python one)."""
    found = engine_of(setup.legal, setup.game).best_chance(position, limits=UNLIMITED)
    assert found.limit is None and found.chance is not None
    return found.chance


def clairvoyant(setup: Setup, position: Concealed) -> float:
    drawn = orders(unseen(setup.legal, position), 10**6, 1)
    assert drawn.exact
    (tally,) = hindsight(setup.legal, position, drawn, decide=decide(setup), limits=UNLIMITED).tallies
    return tally.won / drawn.total()


def dealt_accordion(variant: str, seed: int, hidden: int) -> tuple[Setup, Concealed]:
    """A game of ``variant`` from the small deck, played at random until ``hidden`` cards are
    left in the stock, which are then turned face down."""
    setup = Setup.of(variant)
    cards = list(SMALL_DECK)
    chooser = random.Random(seed)
    chooser.shuffle(cards)
    game = setup.legal
    state = game.start(cards)
    while len(state.stock) > hidden:
        state = game.apply(state, chooser.choice(list(game.moves(state))))
    return setup, conceal(game, state, hidden)


@settings(max_examples=12)
@given(
    variant=st.sampled_from(["parlett", "idle-year", "self-working"]),
    seed=st.integers(0, 10**6),
    hidden=st.integers(2, 6),
)
def test_the_exact_chance_of_a_small_accordion_equals_the_brute_force(variant: str, seed: int, hidden: int) -> None:
    setup, position = dealt_accordion(variant, seed, hidden)
    together = brute_states(setup.legal, position.state, hidden)
    expected = float(brute_chance(setup.legal, together))
    assert exact(setup, position) == pytest.approx(expected, abs=1e-12)
    assert exact(setup, position) <= clairvoyant(setup, position) + 1e-12


def played_until(setup: Setup, seed: int, left: int) -> Concealed:
    """Deal ``seed`` played at random until at most ``left`` cards are left in the stock, which
    then lie face down."""
    game, chooser = setup.legal, random.Random(seed)
    state = game.start(setup.deal(seed=seed))
    while len(state.stock) > left and game.moves(state):
        state = game.apply(state, chooser.choice(list(game.moves(state))))
    return conceal(game, state, len(state.stock))


#: The cards of each Baroness preset's last deal: five dealt and two grace, or (classic) eight
#: dealt at once.
LAST_DEAL = {"baroness": 7, "baroness-classic": 8}


def baroness_endgame(seed: int, variant: str = "baroness") -> tuple[Setup, Concealed]:
    """Deal ``seed`` of ``variant`` played at random to its last deal, the stock then turned face
    down (played to 7 cards, a baroness-classic deal went on to an empty stock)."""
    setup = Setup.of(variant)
    return setup, played_until(setup, seed, LAST_DEAL[variant])


@cache
def brute_baroness_endgame(seed: int) -> float:
    """The brute force's chance of :func:`baroness_endgame` ``seed`` (the same on either engine:
    worked out once a run)."""
    setup, position = baroness_endgame(seed)
    return float(brute_chance(setup.legal, brute_states(setup.legal, position.state, position.hidden)))


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_a_baroness_endgame_with_one_deal_left_equals_the_brute_force(seed: int) -> None:
    setup, position = baroness_endgame(seed)
    assert position.hidden == 7
    assert exact(setup, position) == pytest.approx(brute_baroness_endgame(seed), abs=1e-12)
    assert exact(setup, position) <= clairvoyant(setup, position) + 1e-12


@pytest.mark.one_engine  # what the deals are; each engine's chances are the brute force's (above)
def test_some_baroness_endgame_is_a_real_chance() -> None:
    """Not every endgame is 0 or 1: the tests above meet a chance strictly between (the first
    such deal found ends the look)."""
    assert any(0 < brute_baroness_endgame(seed) < 1 for seed in range(1, 13))


@settings(max_examples=8)
@given(seed=st.integers(0, 10**6), hidden=st.integers(2, 6))
def test_self_working_accordion_has_no_choice_so_chance_equals_clairvoyant(seed: int, hidden: int) -> None:
    setup, position = dealt_accordion("self-working", seed, hidden)
    assert exact(setup, position) == pytest.approx(clairvoyant(setup, position), abs=1e-12)


@pytest.mark.parametrize("variant", ["parlett", "idle-year"])
@pytest.mark.parametrize("seed", range(4))
def test_one_face_down_card_is_todays_verdict(variant: str, seed: int) -> None:
    setup, position = dealt_accordion(variant, seed, 1)
    verdict = engine_of(setup.game).depth_first(position.state, limits=UNLIMITED).verdict
    assert exact(setup, position) == (1.0 if verdict is Verdict.WON else 0.0)


def test_a_hand_position_with_cards_known_before_the_braces() -> None:
    """Known next cards are dealt as known: the chance equals the brute force's."""
    setup = Setup.of("parlett")
    text = "row: AC 2H 3C | stock: 4H 5C {6H AH 2C 4C 5H}"
    position = read_concealed(setup.family, setup.legal, setup.title(), text)
    assert position.hidden == 5
    assert write_concealed(setup.legal, position) == "row: AC 2H 3C | stock: 4H 5C {2C 4C AH 5H 6H}"
    together = brute_states(setup.legal, position.state, 5)
    assert exact(setup, position) == pytest.approx(float(brute_chance(setup.legal, together)), abs=1e-12)


def test_every_move_of_a_hint_is_judged_on_the_same_orders_and_within_its_bounds() -> None:
    """Six cards: their 720 orders fit the budget, so every one is counted for every move,
    though --samples asked for 100."""
    setup, position = dealt_accordion("parlett", 11, 6)
    judged = judge(setup, position, UNLIMITED, samples=100, rng_seed=3, with_moves=True)
    assert judged.worth.chance is not None
    assert {(move.worth.orders, move.worth.every) for move in judged.moves} == {(720, True)}
    best = max(move.worth.chance for move in judged.moves if move.worth.chance is not None)
    assert best == pytest.approx(judged.worth.chance)
    for move in judged.moves:
        assert move.worth.chance is not None
        share, low, high = move.worth.clairvoyant()
        assert move.worth.chance <= high + 1e-12


@pytest.mark.parametrize("samples", [1, 10, 1000])
def test_every_order_is_counted_where_all_fit_the_budget_whatever_samples(samples: int) -> None:
    """Seven cards (5,040 orders, a few milliseconds each at most): every order is counted and
    the share is exact, so it can never fall below the exact chance printed beside it (a sample
    of 1,000 could); the same for any --samples."""
    setup, position = dealt_accordion("parlett", 11, 7)
    judged = judge(setup, position, Limits(), samples=samples, rng_seed=2)
    fields = judged.worth.fields()
    assert (fields["orders"], fields["exact"]) == (5040, True)
    assert fields["clairvoyant"] == fields["clairvoyant_low"] == fields["clairvoyant_high"]
    assert judged.worth.chance is not None and judged.worth.chance <= fields["clairvoyant"] + 1e-12


def test_the_sampled_clairvoyant_of_a_parlett_opening_agrees_with_the_survey(engine: str) -> None:
    """The orders of a whole face-down stock are random deals: their winnable share is the
    surveyed solvability of Parlett (12.01% of 450,000 deals, docs/results.md). (The orders alone,
    not judge: its played games, the other side of the bracket, cost the Python engine minutes.)"""
    setup = Setup.of("parlett")
    position = read_concealed(setup.family, setup.legal, setup.title(), "row: 3D | stock: {51}")
    samples = 600

    def tally() -> Any:
        sampled = engine_of(setup.legal, setup.game).clairvoyant(
            position,
            drawn=orders(unseen(setup.legal, position), samples, 5),
            targets=(None,),
            limits=Limits(max_nodes=1000),
        )
        return sampled.tallies[0]

    counted = tally()
    low, high = rate_range(counted.won, counted.unknown, samples)
    assert sum(counted) == samples
    assert low <= 0.1201 <= high, (counted, low, high)
    assert tally() == counted  # the same seed, the same orders


def test_a_sample_as_large_as_asked_stops_at_max_seconds_in_little_memory(engine: str) -> None:
    """--samples 100,000,000 with --max-seconds 0.5: the orders are drawn as they are searched,
    so the command answers in about three times the limit (the orders', the exact search's, the
    played games'), in
    the memory of a small run, from the orders it searched (its address space capped at 1 GiB:
    holding every order first ended in MemoryError)."""
    run = measured(
        [
            "solve",
            "parlett",
            "--position",
            "row: 3D | stock: {51}",
            "--json",
            "--samples",
            "100000000",
            "--max-seconds",
            "0.5",
        ],
        address_cap=2**30,
        timeout=30,  # a run that holds every order is stopped here
    )
    assert run.code == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["orders_limit"] == "max_seconds" and 0 < record["orders"] < 100_000_000 and not record["exact"]
    # the games stop at their own limit, or at the orders searched (never more games than those)
    assert record["played_limit"] in ("max_seconds", None) and 1 <= record["played_orders"] <= record["orders"]
    assert run.seconds < 3 * 0.5 + 2.0, run  # the three limits, and the start
    assert run.peak < 200 * 2**20, run  # a run of 1,000 orders peaks at about 50 MiB


def test_a_limit_gives_no_chance_never_a_guess() -> None:
    setup = Setup.of("parlett")
    position = read_concealed(setup.family, setup.legal, setup.title(), "row: 3D | stock: {51}")
    found = best_chance(setup.legal, position, decide(setup), limits=Limits(max_nodes=500))
    assert found.chance is None and found.limit == "max_nodes"


FACE_DOWN = [
    ("parlett", "row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C 9H KD 7S 3S 9S 2C {3H 4C AH 2H JC 5H 8C 4S 5S 5C}"),
    ("idle-year", "row: KC 9D 8S QD 7C KH AS TD 2S | stock: {3C 9H KD 7S 3S 9S 2C 3H 4C AH 2H JC 5H 8C 4S 5S 5C}"),
    ("nizhni-novgorod", "row: 4D 2D 6H TC | stock: {47} 4S"),
    ("thirteens", "places: 7H / 2C / QD / 5S / 9D / AC / 3H / 8S / 6D / JD | stock: {42}"),
    ("amazons", "foundations: - / - / - / - | depots: - / - / - / - | stock: {28}"),
]


@pytest.mark.one_engine
@pytest.mark.parametrize(("variant", "text"), FACE_DOWN)
def test_both_engines_count_the_same_orders_alike(variant: str, text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled sampling against the Python engine, its referee: the same orders drawn (the
    shared generator), the same tallies for the position and after each move."""
    from solver import engine as engines

    setup = Setup.of(variant)
    if engine_of(setup.legal, setup.game).chance_name != engines.NATIVE:
        pytest.skip("the compiled core is not built or not used here")
    position = read_concealed(setup.family, setup.legal, setup.title(), text)
    native = every_move_tallies(setup, position, 40, 9)
    monkeypatch.setenv("PATIENCE_NO_EXTENSIONS", "1")
    python = every_move_tallies(setup, position, 40, 9)
    assert native == python
    assert len(native) == 1 + len(setup.legal.moves(position.state))
    assert sum(native[0]) == 40


@pytest.mark.one_engine
def test_every_order_of_few_cards_is_counted_on_both_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = Setup.of("parlett")
    position = read_concealed(setup.family, setup.legal, setup.title(), PARLETT_FIVE)
    native = every_move_tallies(setup, position, 1000, 1)
    monkeypatch.setenv("PATIENCE_NO_EXTENSIONS", "1")
    python = every_move_tallies(setup, position, 1000, 1)
    assert native == python and sum(native[0]) == 120


def every_move_tallies(setup: Setup, position: Concealed, samples: int, seed: int) -> Any:
    """The clairvoyant tallies on the engine chosen now, for the position and after each move."""
    drawn = orders(unseen(setup.legal, position), samples, seed)
    targets = (None, *setup.legal.moves(position.state))
    return (
        engine_of(setup.legal, setup.game).clairvoyant(position, drawn=drawn, targets=targets, limits=UNLIMITED).tallies
    )


PARLETT_FIVE = "row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C 9H KD 7S 3S 9S 2C 3H 4C AH 2H JC {5H 8C 4S 5S 5C}"


@pytest.mark.one_engine
@pytest.mark.parametrize(
    ("variant", "text"),
    [
        ("parlett", PARLETT_FIVE),
        ("idle-year", "row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C 9H KD 7S 3S 9S 2C 3H 4C {AH 2H JC 5H 8C 4S 5S 5C}"),
        ("thirteens", 6),
        ("baroness", 7),
        ("baroness-classic", 7),
    ],
)
def test_both_engines_find_the_same_chances(variant: str, text: str | int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled expectimax against the Python one, its referee: the position's chance and
    every move's (sums taken in another order may differ in the last bits). A number stands for
    deal 3 played at random until that many cards are left in the stock, all face down."""
    setup = Setup.of(variant)
    if engine_of(setup.legal, setup.game).chance_name != engines.NATIVE:
        pytest.skip("the compiled core is not built or not used here")
    if isinstance(text, int):
        position = played_until(setup, 3, text)
    else:
        position = read_concealed(setup.family, setup.legal, setup.title(), text)
    native = engine_of(setup.legal, setup.game).best_chance(position, limits=UNLIMITED, with_moves=True)
    monkeypatch.setenv("PATIENCE_NO_EXTENSIONS", "1")
    python = engine_of(setup.legal, setup.game).best_chance(position, limits=UNLIMITED, with_moves=True)
    assert native.limit is python.limit is None
    assert native.chance == pytest.approx(python.chance, abs=1e-12)
    assert [move for move, _ in native.moves] == [move for move, _ in python.moves]
    for (_, one), (_, other) in zip(native.moves, python.moves):
        assert one == pytest.approx(other, abs=1e-12)


def test_the_compiled_expectimax_stops_at_each_limit_with_no_chance() -> None:
    setup = Setup.of("parlett")
    position = read_concealed(setup.family, setup.legal, setup.title(), "row: 3D | stock: {51}")
    for limits, name in (
        (Limits(max_nodes=2000), "max_nodes"),
        (Limits(max_seconds=0.05), "max_seconds"),
        (Limits(max_memory=64 * 1024), "max_memory"),
    ):
        found = engine_of(setup.legal, setup.game).best_chance(position, limits=limits)
        assert found.chance is None and found.limit == name, (limits, found)


def test_a_deal_of_five_from_many_face_down_cards_stops_at_its_limit() -> None:
    """A Baroness deal turns up five cards at once: from 47 face down, 184 million ordered draws,
    which the walk takes one at a time, looking at its limits between them."""
    setup = Setup.of("baroness")
    start = setup.legal.start(setup.deal(seed=26))
    position = conceal(setup.legal, start, len(start.stock))
    for limits, name in ((Limits(max_seconds=0.5), "max_seconds"), (Limits(max_nodes=5000), "max_nodes")):
        found = engine_of(setup.legal, setup.game).best_chance(position, limits=limits, with_moves=True)
        assert found.chance is None and found.limit == name


PARLETT_TWO = "row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C 9H KD 7S 3S 9S 2C 3H 4C AH 2H JC 5H 8C 4S {5S 5C}"


@pytest.mark.parametrize(
    ("variant", "text"),
    [
        ("parlett", "row: KC | stock: {51}"),
        ("parlett", PARLETT_TWO),  # one card dealt, one left: a full-information search from there
        ("baroness", "piles: 5S / 5H / JS / AH / QS | grace: - | stock: {47}"),
        ("thirteens", "places: 7H / 2C / QD / 5S / 9D / AC / 3H / 8S / 6D / JD | stock: {42}"),
    ],
)
def test_the_exact_search_expands_exactly_the_node_limit(variant: str, text: str) -> None:
    """``--max-nodes N`` expands N states at most, the full-information searches' included, and
    exactly N where the limit stops the walk (docs/cli.md), whether the next state counted is one
    of the walk's or a search's first."""
    setup = Setup.of(variant)
    position = read_concealed(setup.family, setup.legal, setup.title(), text)
    for most in (1, 2, 3, 10, 100):
        for with_moves in (False, True):
            found = engine_of(setup.legal, setup.game).best_chance(
                position, limits=Limits(max_nodes=most), with_moves=with_moves
            )
            assert (found.chance, found.limit, found.stats.nodes) == (None, "max_nodes", most), (most, with_moves)


def test_a_node_limit_the_exact_search_just_fits_gives_its_chance() -> None:
    """PARLETT_TWO's exact chance takes 331 states: a limit of 331 finds it, 330 stops short."""
    setup = Setup.of("parlett")
    position = read_concealed(setup.family, setup.legal, setup.title(), PARLETT_TWO)
    found = engine_of(setup.legal, setup.game).best_chance(position, limits=Limits(max_nodes=331))
    assert (found.chance, found.limit, found.stats.nodes) == (1.0, None, 331)
    cut = engine_of(setup.legal, setup.game).best_chance(position, limits=Limits(max_nodes=330))
    assert (cut.chance, cut.limit, cut.stats.nodes) == (None, "max_nodes", 330)
