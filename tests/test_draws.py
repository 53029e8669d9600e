"""The draws (solver/draws.py): SplitMix64 gives its published words, a draw below a bound is
unbiased, the compiled twin draws the orders the Python one does, and the streams of one
``--rng-seed`` are independent: a position's face-down order played from many seeds is drawn
uniformly, and the random player's choice does not follow the order dealt."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from solver.chance import Concealed, arranged, conceal, information_key, orders, turned_up, unseen
from solver.compiled_engine import compiled_chance, kernel_of
from solver.draws import CLAIRVOYANT, FACE_DOWN_ORDER, RANDOM_PLAYER, SAMPLING_PLAYER, Draw, stream
from solver.service.playing import make_player, placed, play
from solver.service.setup import Setup


@pytest.mark.one_engine
def test_the_generator_gives_splitmix64s_published_words() -> None:
    """The first words of SplitMix64 from two starts, as its published reference gives them."""
    draw = Draw(1234567)
    assert [draw.word() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]
    draw = Draw(0x0123456789ABCDEF)
    assert [draw.word() for _ in range(2)] == [0x157A3807A48FAA9D, 0xD573529B34A1D093]


@pytest.mark.one_engine
def test_a_draw_below_a_bound_is_unbiased() -> None:
    """Below 3 * 2**62 a word reduced by ``%`` alone lands below 2**62 half the time, not a third
    (the words from 3 * 2**62 up wrap onto it); the draw rejects them."""
    bound, draw = 3 * 2**62, Draw(stream(CLAIRVOYANT, 5))
    low = sum(draw.below(bound) < 2**62 for _ in range(3000))
    assert abs(low - 1000) < 4 * (3000 * 1 / 3 * 2 / 3) ** 0.5, low  # four standard deviations
    assert {Draw(seed).below(1) for seed in range(20)} == {0}


@pytest.mark.one_engine
def test_every_purpose_seed_and_turn_has_a_stream_of_its_own() -> None:
    purposes = (FACE_DOWN_ORDER, RANDOM_PLAYER, SAMPLING_PLAYER, CLAIRVOYANT)
    starts = [stream(purpose, seed) for purpose in purposes for seed in (0, 1, 2, 2**64 - 1)]
    starts += [stream(SAMPLING_PLAYER, seed, turn) for seed in (0, 1, 2) for turn in range(50)]
    assert len(set(starts)) == len(starts)


@pytest.mark.one_engine
def test_the_compiled_core_draws_the_orders_the_python_engine_draws() -> None:
    """Amazons' deal 1 with its whole stock face down wins under every order, so the compiled
    core hands each order drawn to its referee: they are solver.draws' orders, one by one."""
    setup = Setup.of("amazons")
    core, kernel, searched = compiled_chance(), kernel_of(setup.legal), kernel_of(setup.game)
    if core is None or kernel is None or searched is None:
        pytest.skip("the compiled core is not built or not used here")
    start = setup.legal.start(setup.deal(seed=1))
    position = conceal(setup.legal, start, len(setup.legal.stock(start)))
    seen: list[tuple[int, ...]] = []
    seed = stream(CLAIRVOYANT, 7)
    state = setup.legal.encode(position.state)
    core.hindsight(
        kernel, searched, state, position.hidden, 60, seed, False, [0], lambda _, order, __: seen.append(tuple(order))
    )
    assert seen == list(orders(unseen(setup.legal, position), 60, seed).each())


#: Four cards face up and three face down: half the orders of the three can be won, whatever
#: the player does (the brute force below counts it).
SMALL = "row: 7S KC 8C JH | stock: {5H 7C 8H}"
#: A position whose first move is a choice of two (docs/face-down.md's first example).
CHOICE = "row: KC 9D 8S QD 7C KH 3S KD 9S 2C 3H 4C AH 2H | stock: {5C 8C JC 5H 4S 5S}"


def random_players_chance(setup: Setup, position: Concealed) -> Fraction:
    """The exact chance that the random player wins, every order of the face-down cards alike:
    each move offered equally likely, the moves offered as solver.players.play_out offers them
    (none bringing back a position already reached)."""
    rules: Any = setup.legal

    def chance(state: Any, hidden: int, reached: frozenset[bytes]) -> Fraction:
        if rules.is_won(state):
            return Fraction(1)
        seen = conceal(rules, state, hidden)
        offered = []
        for move in rules.moves(seen.state):
            turns = turned_up(rules, seen, move)
            after = conceal(rules, rules.apply(state, move), hidden - turns)
            key = information_key(rules, after) if after.hidden else rules.key(after.state)
            if turns or key not in reached:
                offered.append((rules.apply(state, move), after.hidden, reached | {key}))
        return sum((chance(*then) for then in offered), Fraction(0)) / len(offered) if offered else Fraction(0)

    reached = frozenset({information_key(rules, position)})
    every = itertools.permutations(unseen(rules, position))
    each = [chance(arranged(rules, position, order), position.hidden, reached) for order in every]
    return sum(each, Fraction(0)) / len(each)


@pytest.mark.one_engine
def test_the_random_player_from_many_seeds_wins_its_exact_chance() -> None:
    """Played from seeds 1 to 200, the order dealt and the player's moves both drawn from the
    seed, the random player wins the small position as often as the brute force says (50%):
    within four standard deviations. When the order came from the complement of the seed, an
    LCG's first steps from neighbouring seeds, it won 152 of the 200."""
    setup = Setup.of("parlett")
    position = setup.concealed(SMALL)
    truth = random_players_chance(setup, position)
    assert truth == Fraction(1, 2)
    count = 200
    won = sum(
        play(setup, placed(setup, position, seed), make_player("random", None, seed, order_drawn=True)).won
        for seed in range(1, count + 1)
    )
    assert abs(won - count * truth) <= 4 * float(count * truth * (1 - truth)) ** 0.5, won


#: Pearson's chi-square with 5 degrees of freedom exceeds this with probability 0.001.
CHI_SQUARE_5_AT_0_001 = 20.515


@pytest.mark.one_engine
def test_the_random_players_first_choice_does_not_follow_the_order_dealt() -> None:
    """From seeds 1 to 600, the random player's first move (a choice of two) against the last
    of the six face-down cards dealt: Pearson's chi-square of the table is below its 0.1% point.
    When the order came from the complement of the seed, the first move all but fixed it."""
    setup = Setup.of("parlett")
    position = setup.concealed(CHOICE)
    table: Counter[tuple[str, int]] = Counter()
    for seed in range(1, 601):
        opening = placed(setup, position, seed)
        game = play(setup, opening, make_player("random", None, seed, order_drawn=True))
        table[game.moves[0], setup.legal.stock(opening.start)[-1]] += 1
    firsts = sorted({first for first, _ in table})
    lasts = sorted({last for _, last in table})
    assert len(firsts) == 2 and len(lasts) == 6
    total = sum(table.values())
    statistic = 0.0
    for first, last in itertools.product(firsts, lasts):
        expected = sum(table[first, other] for other in lasts) * sum(table[other, last] for other in firsts) / total
        statistic += (table[first, last] - expected) ** 2 / expected
    assert statistic < CHI_SQUARE_5_AT_0_001, (statistic, table)
