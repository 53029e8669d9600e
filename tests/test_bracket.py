"""The bracket of a face-down position: a player who cannot see the stock below, the clairvoyant
share above. Held on small decks to the exact chance: the player's rate over every order (a
fixed policy that never sees a card before it is dealt) never passes it, every order the player
wins is one the clairvoyant wins, and the budget's figures are the same for the same seed, on
both engines."""

import itertools
import json
import math
import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.concealed import presets_with_stock
from solver.chance import Concealed, arranged, orders, unseen
from solver.draws import CLAIRVOYANT, Draw, stream
from solver.engine import NO_EXTENSIONS, engine_of
from solver.players import CarefulPlayer, SamplingPlayer, play_out
from solver.playouts import LADDER, play_orders
from solver.result import Limits
from solver.service.chances import judge
from solver.service.setup import Setup
from solver.service.stats import wilson
from tests.helpers import run_cli
from tests.test_chance import baroness_endgame, dealt_accordion, exact

#: Small positions whose exact chance is known at once: (kind, variant or preset, seed, hidden).
SMALL = [
    ("accordion", "parlett", 3, 4),
    ("accordion", "parlett", 11, 5),
    ("accordion", "idle-year", 7, 5),
    ("accordion", "self-working", 5, 4),
    ("baroness", "baroness", 1, 7),
    ("baroness", "baroness", 3, 7),
]
#: And a baroness-classic last deal: eight cards (40,320 orders) dealt at once.
CLASSIC = ("baroness", "baroness-classic", 1, 8)


def small(kind: str, name: str, seed: int, hidden: int) -> tuple[Setup, Concealed]:
    if kind == "accordion":
        return dealt_accordion(name, seed, hidden)
    setup, position = baroness_endgame(seed, name)
    assert position.hidden == hidden
    return setup, position


@pytest.mark.one_engine  # the players' searches are held to each other elsewhere (test_players)
@pytest.mark.parametrize(("kind", "name", "seed", "hidden"), SMALL)
@pytest.mark.parametrize("player", ["careful", "sampling"])
def test_a_player_over_every_order_wins_no_more_than_the_chance(
    kind: str, name: str, seed: int, hidden: int, player: str
) -> None:
    """A player is a fixed way of choosing from what it has seen, so its rate over every order
    of the face-down cards is at most the best chance (exactly, not in a sample); every order it
    wins can be won with every card known."""
    setup, position = small(kind, name, seed, hidden)
    rules: Any = setup.legal
    chance = exact(setup, position)
    decide = engine_of(setup.game).decider()
    won = total = 0
    for order in itertools.permutations(unseen(rules, position)):
        state = arranged(rules, position, order)
        made = SamplingPlayer(10, 1) if player == "sampling" else CarefulPlayer()
        game = play_out(engine_of(rules, setup.game), state, position.hidden, player=made)
        if game.won:
            assert decide(state, Limits())[0] is True, order
        won += game.won
        total += 1
    assert total == math.factorial(hidden)
    assert won / total <= chance + 1e-12


@pytest.mark.parametrize(("kind", "name", "seed", "hidden"), [*SMALL, CLASSIC])
def test_the_played_interval_and_the_clairvoyant_bracket_the_chance(
    kind: str, name: str, seed: int, hidden: int
) -> None:
    """played_low <= chance <= clairvoyant_high, and played <= clairvoyant on the same orders
    (the games are played on the clairvoyant's first orders: a won game is a won order)."""
    setup, position = small(kind, name, seed, hidden)
    rules: Any = setup.legal
    chance = exact(setup, position)
    seed_of = stream(CLAIRVOYANT, 4)
    drawn = orders(unseen(rules, position), 200, seed_of, every=False)
    played = play_orders(
        engine_of(rules, setup.game), position, targets=(None,), drawn=drawn, most=200, rng_seed=4, budget=2_000_000
    )
    (tally,) = played.tallies
    assert tally.games == 200 and played.limit is None
    low, high = wilson(tally.won, tally.games)
    assert low <= chance + 1e-12
    (clairvoyant,) = (
        engine_of(rules, setup.game)
        .clairvoyant(position, drawn=orders(unseen(rules, position), 200, seed_of, every=False), targets=(None,))
        .tallies
    )
    assert tally.won <= clairvoyant.won  # the same 200 drawn orders
    judged = judge(setup, position, Limits(), rng_seed=4)
    assert chance <= judged.worth.clairvoyant()[2] + 1e-12


def test_each_order_a_player_wins_is_one_the_clairvoyant_wins() -> None:
    """Order by order, on the orders the clairvoyant share draws: no game is won on an order
    that cannot be won with every card known."""
    setup, position = dealt_accordion("parlett", 8, 6)
    rules: Any = setup.legal
    draw, decide = Draw(stream(CLAIRVOYANT, 9)), engine_of(setup.game).decider()
    for _ in range(60):
        state = arranged(rules, position, draw.shuffled(unseen(rules, position)))
        if play_out(engine_of(rules, setup.game), state, position.hidden, player=SamplingPlayer(5, 9)).won:
            assert decide(state, Limits())[0] is True


#: Baroness deal 3 played at random to two deals from its end: 12 cards face down, beyond the
#: exact search's reach within the default budget, and cheap for both engines' players.
TWO_DEALS = (
    "piles: AS 3C / 2D TH JS TC 9H / QC 4D QS QH 8D 6C KD / 7D 8S TS AC 7S / JH 9C 6D 3S | grace: - | "
    "stock: {2C 4C 5C 8C JC AH 2H 3H 5H 4S 5S 9S}"
)


def bracket_record(*extra: str, samples: int = 300) -> dict[str, Any]:
    run = run_cli("solve", "baroness", "--position", TWO_DEALS, "--json", "--samples", str(samples), *extra)
    assert run.exit_code == 0, run.stderr
    record: dict[str, Any] = json.loads(run.stdout)
    return record


@pytest.mark.one_engine
def test_a_position_beyond_the_exact_reach_is_bracketed_within_the_default_budget() -> None:
    record = bracket_record()
    assert record["chance"] is None and record["chance_limit"] == "budget" and record["nodes"] == 0
    assert record["player"] in {name for name, _ in LADDER}
    assert 1 <= record["played_orders"] <= 300
    assert record["played_low"] <= record["played"] <= record["played_high"]
    assert record["played"] <= record["clairvoyant"] + 1e-12
    assert record["played_low"] <= record["clairvoyant_high"]


@pytest.mark.one_engine  # it runs the command on each engine itself
def test_the_same_seed_gives_the_same_figures_on_both_engines() -> None:
    """The budget is counted in states, not seconds: the same command plays and draws the same
    orders on any machine, and on either engine (60 orders: the Python engine's games are slow)."""
    records = []
    before = os.environ.get(NO_EXTENSIONS)
    try:
        for forced in ("", "1", ""):
            os.environ[NO_EXTENSIONS] = forced
            records.append({**bracket_record("--rng-seed", "5", samples=60), "seconds": 0, "engine": ""})
    finally:
        if before is None:
            os.environ.pop(NO_EXTENSIONS, None)
        else:
            os.environ[NO_EXTENSIONS] = before
    assert records[0] == records[1] == records[2]
    assert records[0]["played_orders"] == 60 and records[0]["player"] == "sampling"
    assert records[0] != {**bracket_record("--rng-seed", "6", samples=60), "seconds": 0, "engine": ""}


@pytest.mark.one_engine
def test_a_hints_moves_are_played_on_the_same_orders() -> None:
    run = run_cli("hint", "baroness", "--position", TWO_DEALS, "--json", "--samples", "200")
    record = json.loads(run.stdout)
    assert len(record["moves"]) >= 1
    assert {move["played_orders"] for move in record["moves"]} == {record["played_orders"]}
    assert {move["player"] for move in record["moves"]} == {record["player"]}


@pytest.mark.one_engine
def test_the_bracket_in_words() -> None:
    run = run_cli("solve", "baroness", "--position", TWO_DEALS, "--samples", "300")
    lines = run.stdout.splitlines()
    assert lines[3].startswith("chance to win with best play: between ") and lines[3].endswith(" (95%)")
    assert lines[4].startswith("a player who cannot see the stock won ")
    assert lines[6].startswith("with the stock turned face up, ")
    assert "the exact chance was not tried: 12 cards face down, more than the 7 it" in run.stdout


def test_where_the_exact_chance_is_found_it_stands_alone() -> None:
    setup, position = baroness_endgame(1)
    fields = judge(setup, position, Limits()).worth.fields()
    assert fields["chance"] is not None
    assert {fields[name] for name in ("played", "played_low", "played_high", "played_orders", "player")} == {None}


def test_every_preset_with_a_stock_has_a_measured_reach_and_rate() -> None:
    assert all(Setup.of(preset).costs() for preset in presets_with_stock())


def _bracket_holds(judged: Any, chance: float) -> None:
    """Below never above, for the position and each of its moves: never more games than orders
    searched, and never more won than those orders can be won; where every order was counted
    (the games then played on them, in order) the played low end at most the clairvoyant's high
    end and the position's at most its exact chance; and the bracket printed never upside down.
    A known chance lies inside both sides."""
    for worth in (judged.worth, *(move.worth for move in judged.moves)):
        if worth.played is not None:
            assert worth.played.games <= worth.orders and worth.played.won <= worth.tally.won + worth.tally.unknown
            low, high = worth.bracket()
            assert low <= high
            rate = worth.won_played()
            if worth.every:
                assert rate[1] <= worth.clairvoyant()[2] + 1e-12, worth
                if worth is judged.worth:
                    assert rate[1] <= chance + 1e-12, worth
        if worth.chance is not None and worth is judged.worth:
            assert worth.chance == pytest.approx(chance, abs=1e-12)


@settings(max_examples=15)
@given(
    variant=st.sampled_from(["parlett", "idle-year", "self-working"]),
    seed=st.integers(0, 10**6),
    hidden=st.integers(2, 5),
    nodes=st.integers(1, 3000),
    samples=st.integers(1, 300),
    rng_seed=st.integers(0, 2**64 - 1),
    with_moves=st.booleans(),
)
def test_the_bracket_is_never_upside_down_whatever_the_limits(
    engine: str, variant: str, seed: int, hidden: int, nodes: int, samples: int, rng_seed: int, with_moves: bool
) -> None:
    """Whatever stops the exact search, and however many orders are asked for, the played low end
    never passes the clairvoyant's high end, nor the exact chance where every order is counted
    (the games on the clairvoyant's own orders, no more of them than it searched)."""
    setup, position = dealt_accordion(variant, seed, hidden)
    chance = exact(setup, position)
    limits = Limits(max_nodes=nodes, max_seconds=0.5)
    judged = judge(setup, position, limits, samples=samples, rng_seed=rng_seed, with_moves=with_moves)
    _bracket_holds(judged, chance)
    _ranked_by_what_is_known(judged.moves)


def _known(worth: Any) -> float | None:
    """What is known of a move's chance for certain (or at 95%): its exact figure, else its low end."""
    if worth.chance is not None:
        return float(worth.chance)
    return None if worth.played is None else float(worth.bracket()[0])


def _ranked_by_what_is_known(moves: Any) -> None:
    """No move ranks above one whose known figure its own may lie below, nor does a move with
    no figure rank above one with a figure."""
    for higher, lower in itertools.combinations(moves, 2):
        above, below = _known(higher.worth), _known(lower.worth)
        assert below is None or (above is not None and above >= below), (higher, lower)


@pytest.mark.parametrize("nodes", [30_000, 2_000, 40_000, 200_000])
def test_a_hint_never_ranks_an_unknown_above_a_known_figure(engine: str, nodes: int) -> None:
    """With limits that stop some moves' exact search and not others, the moves are ranked by
    what is known (the exact chance, else the low end): 2H -> 3H, none of whose 720 orders can be
    won, is 0% exactly and last, never first as a chance not found once was."""
    setup = Setup.of("parlett")
    with open(os.path.join(os.path.dirname(__file__), "..", "examples", "position-face-down.txt")) as file:
        position = setup.concealed(file.read())
    judged = judge(setup, position, Limits(max_nodes=nodes, max_seconds=2.0), with_moves=True)
    _ranked_by_what_is_known(judged.moves)
    assert [move.move for move in judged.moves] == ["2H -> AH (slide)", "2H -> 3H (leap)"]
    assert judged.moves[1].worth.chance == 0.0


#: The issue's reproduction: Baroness deal 26's last deal (exact chance 3/7 of its 5,040 orders).
LAST_DEAL_26 = (
    "piles: 5S 5H JS AH / QS TD / 2C 6H QD 4S / 7H 6D 8H / JD 7D 4H 9S | grace: - | stock: {3D 3C 2S 9C 8D TH AD}"
)


@pytest.mark.parametrize("rng_seed", [91, 7])
def test_a_stopped_exact_search_plays_the_games_on_every_order_counted(engine: str, rng_seed: int) -> None:
    """Where every order is counted and the exact search was stopped, game i is played on the
    clairvoyant's order i: the player's share is of those same 5,040 orders, never above theirs
    (it drew 1,000 random orders instead, and won 46.6% of them where 42.9% can be won)."""
    setup = Setup.of("baroness")
    position = setup.concealed(LAST_DEAL_26)
    limits = Limits(max_nodes=200) if engine == "native" else Limits(max_nodes=200, max_seconds=1.0)
    judged = judge(setup, position, limits, rng_seed=rng_seed)
    worth = judged.worth
    assert worth.every and worth.orders == 5040
    assert worth.clairvoyant()[0] in (None, pytest.approx(3 / 7))  # None: the Python engine's second ran out
    assert worth.played is not None and worth.played.games <= 5040
    _bracket_holds(judged, 3 / 7)
    if worth.played.games == 5040 and worth.played.won == worth.tally.won:  # both sides meet: the chance
        assert worth.chance == pytest.approx(3 / 7) and judged.worth.limit is not None
