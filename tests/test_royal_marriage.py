"""Royal Marriage, Queen and her Lad, Nizhni Novgorod: the rules against the brute force
(tests/brute/royal_marriage.py), positions and pictures, and the compiled kernels. (Seeded and
explicit rows, notation: test_royal_marriage_notation.py.)"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import pytest
from brute.royal_marriage import (
    MayGo,
    discards,
    fewest_left,
    match,
    may_go_lad,
    may_go_nizhni,
    may_go_royal,
)
from helpers import assert_same_search_without_restarts, random_play, states_along
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from rulesets import families
from rulesets.cards import CARDS, Card, format_cards, parse_card, parse_cards
from rulesets.compulsory_nizhni import NizhniLayout
from rulesets.family import Family
from rulesets.moves import DEAL
from rulesets.notation import PositionError
from rulesets.picture import Picture
from rulesets.royal_marriage import (
    DiscardBetween,
    InnerTwo,
    LadPairs,
    OneOrTwo,
    OpenMarriageRow,
    Removal,
    analyse,
    best_move,
)
from solver import engine as engines
from solver.engine import engine_of
from solver.protocol import NO_SCORE
from solver.replay import replay
from solver.result import Limits, Verdict

FAMILY = families()
ROYAL, LAD, NIZHNI = FAMILY["royal-marriage"], FAMILY["queen-and-her-lad"], FAMILY["nizhni-novgorod"]
#: More moves than any play of these games makes (each discards a card; Nizhni also deals).
ROW_MOVES = 2 * 52
ROYAL_1 = (
    "QH JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC 3H 2S KS 9D QD JS AS AH 3C 4C 5C TS 4H AC 4D 7S "
    "3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H KH"
)


# --- small rows -------------------------------------------------------------------------------------

QH, KH, JH = parse_card("QH"), parse_card("KH"), parse_card("JH")
#: A crowded pool (two suits, six ranks) makes matches, same-suit runs and wins common.
SMALL_POOL = [card for card in CARDS if card.suit in "HS" and card.rank in (1, 2, 3, 11, 12, 13)]


def royal_rows(last: Card = KH, max_size: int = 10) -> SearchStrategy[list[Card]]:
    """Rows QH ... ``last`` with up to ``max_size`` cards between, from the deck or the small pool."""
    pools = [[c for c in pool if c not in (QH, last)] for pool in (CARDS, SMALL_POOL)]
    middles = st.sampled_from(pools).flatmap(
        lambda pool: st.lists(st.sampled_from(pool), max_size=max_size, unique=True)
    )
    return middles.map(lambda cards: [QH, *cards, last])


@st.composite
def nizhni_rows(draw: st.DrawFn, max_size: int = 10) -> list[Card]:
    """Rows whose last card shares the first card's rank."""
    pool = draw(st.sampled_from([list(CARDS), SMALL_POOL]))
    first = draw(st.sampled_from(pool))
    last = draw(st.sampled_from([c for c in CARDS if c.rank == first.rank and c != first]))
    others = [c for c in pool if c not in (first, last)]
    cards = draw(st.lists(st.sampled_from(others), max_size=max_size, unique=True))
    return [first, *cards, last]


def text(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


# --- every variant and option setting -----------------------------------------------------------------


class Combo(NamedTuple):
    """A game under one option setting, its small rows, and how the brute force plays it."""

    name: str
    family: Family
    options: dict[str, bool]
    rows: SearchStrategy[list[Card]]
    may_go: MayGo
    first_row: int
    compulsory: bool


COMBOS = [
    Combo("royal", ROYAL, {"all_same_suit": False}, royal_rows(), lambda b: may_go_royal(b, False), 1, False),
    Combo("royal-same-suit", ROYAL, {"all_same_suit": True}, royal_rows(), lambda b: may_go_royal(b, True), 1, False),
    Combo("lad", LAD, {}, royal_rows(JH), may_go_lad, 1, False),
    Combo("nizhni", NIZHNI, {"compulsory": True}, nizhni_rows(), may_go_nizhni, 4, True),
    Combo("nizhni-free", NIZHNI, {"compulsory": False}, nizhni_rows(), may_go_nizhni, 4, False),
]
OPEN_COMBOS = [combo for combo in COMBOS if not combo.compulsory]
every_combo = pytest.mark.parametrize("combo", COMBOS, ids=[c.name for c in COMBOS])
open_combos = pytest.mark.parametrize("combo", OPEN_COMBOS, ids=[c.name for c in OPEN_COMBOS])


def build(combo: Combo, guided: bool = True) -> Any:
    game = combo.family.build({**combo.family.settings(), **combo.options})
    if isinstance(game, OpenMarriageRow):
        game.guided = guided
    return game


def cards_of(state: Any) -> tuple[list[str], list[str]]:
    """The cards in play, as text: the row, then the stock."""
    if isinstance(state, NizhniLayout):
        return text([CARDS[c] for c in state.row]), text([CARDS[c] for c in state.stock])
    return text([CARDS[c] for c in state.cards]), []


def random_row(combo: Combo, rng: random.Random, size: int, pool: Sequence[Card]) -> list[Card]:
    """A row of ``size`` cards with the game's end cards, the others drawn from ``pool``."""
    if combo.family is NIZHNI:
        first = rng.choice(pool)
        last = rng.choice([c for c in CARDS if c.rank == first.rank and c != first])
    else:
        first, last = QH, (JH if combo.family is LAD else KH)
    return [first, *rng.sample([c for c in pool if c not in (first, last)], size - 2), last]


# --- the rules against the brute force -------------------------------------------------------------------


@pytest.mark.parametrize("guided", [True, False], ids=["guided", "plain"])
@every_combo
@settings(max_examples=40)
@given(data=st.data())
def test_engine_agrees_with_brute_force(combo: Combo, guided: bool, data: st.DataObject) -> None:
    """Verdict and minimal score equal the brute force's, with and without the guided reduction."""
    game = build(combo, guided)
    row = data.draw(combo.rows)
    result = engine_of(game).depth_first(game.start(row))
    expected = fewest_left(text(row), combo.may_go, combo.first_row, combo.compulsory)
    assert result.best_score == expected, format_cards(row)
    assert result.verdict is (Verdict.WON if expected == 2 else Verdict.LOST)
    assert replay(game, game.start(row), result.best_line).illegal_at is None


@pytest.mark.one_engine  # the rules against the brute force: no search
@every_combo
@settings(max_examples=30)
@given(data=st.data())
def test_moves_are_the_rules_and_conserve_cards(combo: Combo, data: st.DataObject) -> None:
    """At every step of a random play: the legal moves are exactly the rules' discards (and the
    deal), every move only discards the cards between its matching pair, cards are conserved and
    the end cards are never removed."""
    game = build(combo)
    row = data.draw(st.one_of(combo.rows, st.integers(1, 10**6).map(combo.family.seeded_deal)))
    deck = sorted(text(row))
    discarded: list[str] = []
    for state, move in random_play(game, game.start(row), data.draw(st.randoms(use_true_random=False)), ROW_MOVES):
        shown, stock = cards_of(state)
        assert sorted(shown + stock + discarded) == deck
        assert shown[0] == str(row[0]) and (stock or shown)[-1] == str(row[-1])
        moves = game.moves(state)
        afters = discards(tuple(shown), combo.may_go)
        got = sorted(tuple(cards_of(game.apply(state, m))[0]) for m in moves if m is not DEAL)
        assert got == sorted(afters)
        assert (DEAL in moves) == (bool(stock) and not (combo.compulsory and afters))
        if isinstance(move, DiscardBetween):
            gone = shown[move.left + 1 : move.right]
            assert match(shown[move.left], shown[move.right]) and combo.may_go(tuple(gone))
            discarded += gone
    assert game.score(state) == len(shown) + len(stock) != NO_SCORE


@pytest.mark.one_engine  # the ruleset's analysis (its kernel's: test_the_kernel_analysis_is_the_python_analysis)
@open_combos
@settings(max_examples=60)
@given(data=st.data())
def test_analysis_is_exact_on_small_rows(combo: Combo, data: st.DataObject) -> None:
    """The interval analysis's fewest-cards-left equals the brute force's on rows up to 12 cards."""
    row = data.draw(combo.rows)
    fewest = analyse([c.code for c in row], build(combo).removal).fewest[0]
    assert fewest == fewest_left(text(row), combo.may_go, combo.first_row)


@every_combo
def test_full_size_small_rows_agree_with_brute_force(combo: Combo) -> None:
    """Rows of exactly 12 cards (the largest the brute force is run on), drawn at random."""
    game = build(combo)
    rng = random.Random(12)
    for _ in range(25):
        pool = rng.choice([list(CARDS), SMALL_POOL + [c for c in CARDS if c.suit == "D" and c.rank <= 6]])
        row = random_row(combo, rng, 12, pool)
        result = engine_of(game).depth_first(game.start(row))
        expected = fewest_left(text(row), combo.may_go, combo.first_row, combo.compulsory)
        assert result.best_score == expected, format_cards(row)


@open_combos
def test_guided_agrees_with_plain_search_on_longer_rows(combo: Combo) -> None:
    """Beyond the brute force's reach: rows of 14 to 26 cards, guided search against the plain
    exhaustive search (no bound, row order), verdict and fewest cards left."""
    guided, plain = build(combo), build(combo, guided=False)
    rng = random.Random(26)
    for _ in range(30):
        size = rng.randint(14, 26)
        pool = list(CARDS) if rng.random() >= 0.5 else [c for c in CARDS if c.suit in "HS" or c.rank < 5]
        row = random_row(combo, rng, size, pool)
        a = engine_of(guided).depth_first(guided.start(row))
        b = engine_of(plain).depth_first(plain.start(row), limits=Limits(max_nodes=2_000_000))
        assert b.verdict is not Verdict.UNKNOWN
        assert (a.verdict, a.best_score) == (b.verdict, b.best_score), format_cards(row)


@every_combo
@settings(max_examples=15)
@given(seed=st.integers(1, 10**7))
def test_seeded_solutions_replay_and_round_trip(combo: Combo, seed: int) -> None:
    """Every line found replays to its score; each move's text reads back as the same move."""
    game = build(combo)
    start = game.start(combo.family.seeded_deal(seed))
    result = engine_of(game).depth_first(start, limits=Limits(max_nodes=200_000))
    assert result.verdict is not Verdict.UNKNOWN
    outcome = replay(game, start, result.best_line)
    assert outcome.illegal_at is None
    assert game.score(outcome.final) == result.best_score
    assert game.is_won(outcome.final) == (result.verdict is Verdict.WON) == (result.best_score == 2)
    for state, move in zip(states_along(game, start, result.best_line), result.best_line):
        assert game.parse_move(state, game.describe_move(state, move)) == move


def test_guided_search_walks_straight_to_the_answer() -> None:
    """The guided reduction expands about one state per move of the line, won or lost."""
    for combo in OPEN_COMBOS:
        game = build(combo)
        for seed in range(1, 30):
            result = engine_of(game).depth_first(game.start(combo.family.seeded_deal(seed)))
            assert result.verdict is not Verdict.UNKNOWN
            assert result.stats.nodes <= len(result.best_line) + 1


# --- removal rules ----------------------------------------------------------------------------------------


class AnyEnds:
    """End cards that accept any row, to try a removal rule on its own."""

    game = "test"

    def problem(self, row: Sequence[int]) -> None:
        return None

    def arrange(self, deal: list[Card]) -> list[Card]:
        return deal


def test_removal_rules_by_example() -> None:
    """A few hand-checked positions for each removal rule."""

    def after(removal: Removal, row: str) -> list[str]:
        game = OpenMarriageRow(removal, AnyEnds())
        state = game.start(parse_cards(row))
        return sorted(game.describe_move(state, m) for m in game.moves(state))

    # Four clubs between two hearts: only with all_same_suit.
    moves = after(OneOrTwo(True), "QH 2C 3C 4C 5C KH")
    assert "discard 2C 3C 4C 5C between QH and KH" in moves
    assert "discard 2C 3C 4C 5C between QH and KH" not in after(OneOrTwo(False), "QH 2C 3C 4C 5C KH")
    assert "discard 2C 3D 4C 5C between QH and KH" not in after(OneOrTwo(True), "QH 2C 3D 4C 5C KH")
    # Lad: pairs 2C-3C and 4D-4S go together; 2C 3D does not pair.
    assert "discard 2C 3C 4D 4S between QH and JH" in after(LadPairs(), "QH 2C 3C 4D 4S JH")
    assert after(LadPairs(), "QH 2C 3D JH") == []
    assert after(OneOrTwo(), "QH 2C 3D JH") == ["discard 2C 3D between QH and JH"]
    # Nizhni: only the inner two of four.
    assert after(InnerTwo(), "7H 2C 7C 5D 7S") == []
    assert after(InnerTwo(), "7H 2C 3C 5H 7S") == ["discard 2C 3C between 7H and 5H"]
    assert after(InnerTwo(), "7H 2C 5H 7S") == ["discard 2C 5H between 7H and 7S"]


# --- positions and pictures -------------------------------------------------------------------------------


@pytest.mark.one_engine  # notation and pictures: no search
@every_combo
@settings(max_examples=30)
@given(data=st.data())
def test_positions_and_pictures_along_random_play(combo: Combo, data: st.DataObject) -> None:
    """Every state of a random play, the opening one included, reads back from its position
    (the open games' floor, search bookkeeping, recomputed from the row as a start's is); its
    picture shows exactly its cards, and a move touches only places the next picture has."""
    game = build(combo)
    row = data.draw(st.one_of(combo.rows, st.integers(1, 10**6).map(combo.family.seeded_deal)))
    start = game.start(row)
    opening = game.read_position(game.write_position(start))
    assert opening == start and getattr(opening, "floor", None) == getattr(start, "floor", None)
    for state, move in random_play(game, start, data.draw(st.randoms(use_true_random=False)), ROW_MOVES):
        read = game.read_position(game.write_position(state))
        assert read == state and game.key(read) == game.key(state)
        shown, stock = cards_of(state)
        places = [place for line in game.picture(state).rows for place in line]
        assert text([CARDS[code] for place in places for code in place.cards]) == shown
        assert sum(place.face_down for place in places) == len(stock)
        if move is not None:
            labels = {place.label for line in game.picture(game.apply(state, move)).rows for place in line}
            assert game.touched(state, move) and game.touched(state, move) <= labels


def won_lines(combo: Combo, wanted: int = 2) -> list[tuple[Any, Sequence[Any]]]:
    """The first ``wanted`` won seeded deals of a game: their opening states and winning lines."""
    game = build(combo)
    found: list[tuple[Any, Sequence[Any]]] = []
    for seed in range(1, 2000):
        start = game.start(combo.family.seeded_deal(seed))
        result = engine_of(game).depth_first(start, limits=Limits(max_nodes=200_000))
        if result.verdict is Verdict.WON:
            found.append((start, result.best_line))
            if len(found) == wanted:
                return found
    raise AssertionError(f"{combo.name}: fewer than {wanted} won deals among seeds 1-1999")


@every_combo
def test_positions_along_a_won_line_are_won(combo: Combo) -> None:
    """Solving the position read back after any number of moves of a winning line answers won."""
    game = build(combo)
    for start, line in won_lines(combo):
        for state in states_along(game, start, line):
            result = engine_of(game).depth_first(
                game.read_position(game.write_position(state)), limits=Limits(max_nodes=200_000)
            )
            assert result.verdict is Verdict.WON, game.write_position(state)


@pytest.mark.parametrize(
    "combo, position, says",
    [
        (COMBOS[0], "row: QH 2C 2C KH", "2C more than once"),
        (COMBOS[0], "row: KH 2C QH", "QH must be the first card"),
        (COMBOS[0], "row: QH 2C", "must hold KH, its last card"),
        (COMBOS[0], "row: -", "must hold QH"),
        (COMBOS[0], "row: QH ZZ KH", "unknown card 'ZZ'"),
        (COMBOS[0], "cards: QH KH", "unknown section 'cards'"),
        (COMBOS[0], "row: QH KH | stock: -", "unknown section 'stock'"),
        (COMBOS[0], "row: QH KH | row: QH KH", "appears twice"),
        (COMBOS[0], "QH KH", "cannot read royal-marriage position section"),
        (COMBOS[2], "row: QH 2C KH", "must hold JH"),
        (COMBOS[4], "row: 7H 2C 8H", "share the rank of the first card 7H, but it is 8H"),
        (COMBOS[4], "row: 7H", "at least its two end cards"),
        (COMBOS[3], "row: 7H 2C 3C 4C | stock: 5D 8S", "share the rank of the first card 7H, but it is 8S"),
        (COMBOS[3], "row: 7H 2C 3C 4C | stock: 4C 7S", "4C more than once"),
        (COMBOS[3], "row: 7H | stock: 2C 7S", "the row holds 1 card"),
        (COMBOS[3], "row: - | stock: 7H 2C 7S", "the row holds 0 card"),
        (COMBOS[3], "row: 7H 2C 3C 7S", "needs a 'stock' section"),
    ],
    ids=lambda value: value.name if isinstance(value, Combo) else None,
)
def test_impossible_positions_are_refused(combo: Combo, position: str, says: str) -> None:
    with pytest.raises(PositionError, match=says) as error:
        build(combo).read_position(position)
    assert "\n" not in str(error.value)


def test_unreachable_but_accepted_positions() -> None:
    """What is accepted although no play from a full deck reaches it (see the docs)."""
    royal = build(COMBOS[0])
    lone = royal.read_position("row: QH 2C KH")  # no neighbours match, so no discard left this row
    assert [royal.describe_move(lone, move) for move in royal.moves(lone)] == ["discard 2C between QH and KH"]
    nizhni = build(COMBOS[3])
    odd = nizhni.read_position("row: 7H 2C 7S | stock: -")  # discards take two: rows stay even
    assert nizhni.score(odd) == 3


def shown(picture: Picture) -> list[list[str]]:
    """A picture's rows as ``label: cards`` per place (face-down cards as their count)."""
    return [
        [f"{place.label}: {' '.join(text([CARDS[c] for c in place.cards]))}{'?' * place.face_down}" for place in row]
        for row in picture.rows
    ]


def test_picture_and_touched_by_example() -> None:
    royal = build(COMBOS[0])
    state = royal.start(parse_cards("QH 7H 7C 9C 2H KH"))
    assert shown(royal.picture(state)) == [["1: QH", "2: 7H", "3: 7C", "4: 9C", "5: 2H", "6: KH"]]
    move = royal.parse_move(state, "discard 7C 9C between 7H and 2H")
    assert royal.touched(state, move) == {"3"}
    assert shown(royal.picture(royal.apply(state, move))) == [["1: QH", "2: 7H", "3: 2H", "4: KH"]]
    assert "*3: 2H" in royal.picture(royal.apply(state, move)).text({"3"})
    nizhni = build(COMBOS[3])
    dealt = nizhni.start(parse_cards("7H 2C 3C 4C 5D 7S"))
    assert shown(nizhni.picture(dealt)) == [["1: 7H", "2: 2C", "3: 3C", "4: 4C"], ["stock: ??"]]
    assert nizhni.touched(dealt, DEAL) == {"5", "stock"}
    wide = royal.start(ROYAL.seeded_deal(1))
    assert [len(line) for line in royal.picture(wide).rows] == [13, 13, 13, 13]


# --- the compiled kernels (rulesets/_royal_marriage.pyx) ---------------------------------------------------


def kernel_for(game: Any) -> Any:
    """The game's compiled kernel (the test is skipped where none is built)."""
    kernel = engines.kernel_of(game)
    if kernel is None:
        pytest.skip("the royal marriage kernels are not built here")
    return kernel


def crowded_rows(combo: Combo, rng: random.Random) -> Iterator[list[Card]]:
    """Rows of every length up to the full deck, from pools where matches, same-suit runs and
    matching pairs (so groups of many survivors) are common, and from the whole deck."""
    pools = [list(CARDS), SMALL_POOL, [c for c in CARDS if c.suit in "HS" or c.rank < 4]]
    for _ in range(60):
        pool = rng.choice(pools)
        yield random_row(combo, rng, rng.randint(2, len(pool)), pool)


@pytest.mark.one_engine
@open_combos
def test_the_kernel_analysis_is_the_python_analysis(combo: Combo) -> None:
    """The compiled interval analysis gives the same clearable sets, fewest cards left and best
    move as analyse and best_move, row after row: random rows, and the rows along a random play
    (which the kernel analyses reusing the end of the row before; the unrelated rows between and
    the longer rows after check that reuse)."""
    game = build(combo)
    kernel = kernel_for(game)
    rng = random.Random(combo.name)
    for row in crowded_rows(combo, rng):
        cards = [card.code for card in row]
        for state, _ in random_play(game, game.start(row), rng, ROW_MOVES) if rng.random() < 0.3 else [(None, None)]:
            codes = cards if state is None else list(state.cards)
            analysis = analyse(codes, game.removal)
            best = best_move(codes, game.removal, analysis)
            clear, fewest, code = kernel.probe_analysis(bytes(codes))
            assert (clear, fewest) == (analysis.clear, analysis.fewest), format_cards(row)
            assert (None if code < 0 else game.decode(code)) == best, format_cards(row)


@pytest.mark.one_engine
@open_combos
def test_the_plain_kernel_answers_as_the_plain_ruleset(combo: Combo) -> None:
    """Without the guided reduction (moves in row order, floor 2) the kernel still answers as
    the ruleset: moves, successors, keys, scores, bounds along random play from crowded rows."""
    game = build(combo, guided=False)
    kernel = kernel_for(game)
    rng = random.Random(combo.name)
    for row in crowded_rows(combo, rng):
        for state, _ in random_play(game, game.start(row), rng, ROW_MOVES):
            encoded = game.encode(state)
            codes = kernel.probe_moves(encoded)
            assert [game.decode(code) for code in codes] == game.moves(state), game.write_position(state)
            for code in codes:
                after = game.apply(state, game.decode(code))
                assert kernel.probe_apply(encoded, code) == game.encode(after), game.write_position(state)
            assert kernel.probe_key(encoded) == game.key(state)
            assert kernel.probe_score(encoded) == game.score(state)
            assert kernel.probe_lower_bound(encoded) == game.lower_bound(state) == 2
            assert kernel.probe_is_won(encoded) == game.is_won(state)


@pytest.mark.one_engine
@pytest.mark.parametrize("guided", [True, False], ids=["guided", "plain"])
@every_combo
def test_without_restarts_both_engines_expand_the_same_states_on_crowded_rows(combo: Combo, guided: bool) -> None:
    """The engines searched without restarts reach the same answer by the same states, guided
    or plain, on rows where the analysis has groups of survivors to find."""
    game = build(combo, guided)
    kernel_for(game)
    rng = random.Random(combo.name + str(guided))
    for row in itertools.islice(crowded_rows(combo, rng), 20):
        assert_same_search_without_restarts(game, game.start(row), Limits(max_nodes=3000), format_cards(row))


def test_a_removal_rule_the_kernel_does_not_know_is_searched_in_python() -> None:
    """A removal rule of its own (here a subclass) has no kernel: the Python engine searches it."""

    class Narrow(InnerTwo):
        pass

    game = OpenMarriageRow(Narrow(), AnyEnds())
    assert game.kernel() is None
    result = engine_of(game).depth_first(game.start(parse_cards("7H 2C 3C 5H 7S")))
    assert result.engine == "python" and result.best_score == 3
