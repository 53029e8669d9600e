"""Royal Marriage, Queen and her Lad, Nizhni Novgorod: rules, deals, notation, brute-force agreement.

The brute force below plays the rules as written in RULES.md, dealing one card at a time, on
cards as text; it shares no code with rulesets.royal_marriage (nor with rulesets.accordion).
"""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from rulesets import families
from rulesets.cards import CARDS, CardError, format_cards, parse_card, parse_cards
from rulesets.notation import MoveError
from rulesets.royal_marriage import (
    DEAL,
    CompulsoryDeal,
    DealError,
    InnerTwo,
    LadPairs,
    OneOrTwo,
    OpenRow,
    analyse,
)
from solver.protocol import NO_SCORE
from solver.replay import replay
from solver.result import Limits, Verdict
from solver.search import depth_first

FAMILY = families()
ROYAL, LAD, NIZHNI = FAMILY["royal-marriage"], FAMILY["queen-and-her-lad"], FAMILY["nizhni-novgorod"]

# From RULES.md, "Seeded deals".
DEAL_1 = "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C 4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"
DEAL_32000 = "7S 4D JS 8D 6D 3H 3D TH JC 3C 2C 5S 9D AC 9C 2S 4H 6S 8S 9S TS 9H KD QD 6H 7D 5H QS AD QH TC 4C AH JD 4S JH TD 3S 7H 8C 6C 2H 2D 5D KS QC KH 5C 7C 8H KC AS"
ROYAL_1 = "QH JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC 3H 2S KS 9D QD JS AS AH 3C 4C 5C TS 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H KH"


# --- the brute force: the rules as written, on cards as text ----------------------------------------


def match(a: str, b: str) -> bool:
    """Two cards (text such as 'TD') share suit or rank."""
    return a[0] == b[0] or a[1] == b[1]


def may_go_royal(between: tuple[str, ...], all_same_suit: bool) -> bool:
    if len(between) in (1, 2):
        return True
    return all_same_suit and len(between) > 2 and len({card[1] for card in between}) == 1


def may_go_lad(between: tuple[str, ...]) -> bool:
    if len(between) == 1:
        return True
    if len(between) % 2:
        return False
    return all(match(between[k], between[k + 1]) for k in range(0, len(between), 2))


def may_go_nizhni(between: tuple[str, ...]) -> bool:
    return len(between) == 2


def brute_discards(row: tuple[str, ...], may_go) -> list[tuple[str, ...]]:
    """Every row left by discarding the cards between two matching cards, as ``may_go`` allows."""
    after = []
    for a in range(len(row)):
        for b in range(a + 2, len(row)):
            if match(row[a], row[b]) and may_go(row[a + 1 : b]):
                after.append(row[: a + 1] + row[b:])
    return after


def brute_min(deal: list[str], may_go, first_row: int = 1, compulsory: bool = False) -> int:
    """The fewest cards left (row plus undealt) over every legal play, dealing one at a time.

    Optional moves: the player may deal, discard or stop at any time. Compulsory: a discard must
    be made when one is available; the game ends when the stock is out and none is.
    """

    @lru_cache(maxsize=None)
    def best(row: tuple[str, ...], stock: tuple[str, ...]) -> int:
        nexts = brute_discards(row, may_go)
        if compulsory:
            if nexts:
                return min(best(after, stock) for after in nexts)
            return best(row + stock[:1], stock[1:]) if stock else len(row)
        found = len(row) + len(stock)
        for after in nexts:
            found = min(found, best(after, stock))
        if stock:
            found = min(found, best(row + stock[:1], stock[1:]))
        return found

    return best(tuple(deal[:first_row]), tuple(deal[first_row:]))


# --- small decks ----------------------------------------------------------------------------------

QH, KH, JH = parse_card("QH"), parse_card("KH"), parse_card("JH")
#: A crowded pool (two suits, six ranks) makes matches, same-suit runs and wins common.
SMALL_POOL = [card for card in CARDS if card.suit in "HS" and card.rank in (1, 2, 3, 11, 12, 13)]


def middles(exclude, max_size=10):
    pools = [[c for c in CARDS if c not in exclude], [c for c in SMALL_POOL if c not in exclude]]
    return st.sampled_from(pools).flatmap(
        lambda pool: st.lists(st.sampled_from(pool), max_size=max_size, unique=True)
    )


def royal_rows(last=KH, max_size=10):
    return middles((QH, last), max_size).map(lambda cards: [QH, *cards, last])


@st.composite
def nizhni_rows(draw, max_size=10):
    pool = draw(st.sampled_from([list(CARDS), SMALL_POOL]))
    first = draw(st.sampled_from(pool))
    last = draw(st.sampled_from([c for c in CARDS if c.rank == first.rank and c != first]))
    cards = draw(st.lists(st.sampled_from([c for c in pool if c not in (first, last)]), max_size=max_size, unique=True))
    return [first, *cards, last]


def text(cards):
    return [str(card) for card in cards]


# --- games under every option combination -----------------------------------------------------------

#: (name, family, settings, row strategy, brute-force rule, first row size, compulsory)
COMBOS = [
    ("royal", ROYAL, {"all_same_suit": False}, royal_rows(), lambda b: may_go_royal(b, False), 1, False),
    ("royal-same-suit", ROYAL, {"all_same_suit": True}, royal_rows(), lambda b: may_go_royal(b, True), 1, False),
    ("lad", LAD, {}, royal_rows(JH), may_go_lad, 1, False),
    ("nizhni", NIZHNI, {"compulsory": True}, nizhni_rows(), may_go_nizhni, 4, True),
    ("nizhni-free", NIZHNI, {"compulsory": False}, nizhni_rows(), may_go_nizhni, 4, False),
]


def build(family, options, guided=True):
    game = family.build({**family.settings(), **options})
    if isinstance(game, OpenRow):
        game.guided = guided
    return game


def cards_of(game, state):
    """The cards in play, as text: the row, then the stock."""
    if isinstance(state, tuple) and hasattr(state, "stock"):
        return text(CARDS[c] for c in state.row), text(CARDS[c] for c in state.stock)
    return text(CARDS[c] for c in state.cards), []


@pytest.mark.parametrize("combo", COMBOS, ids=[c[0] for c in COMBOS])
@pytest.mark.parametrize("guided", [True, False], ids=["guided", "plain"])
def test_engine_agrees_with_brute_force(combo, guided):
    """Verdict and minimal score equal the brute force's, with and without the guided reduction."""
    name, family, options, rows, may_go, first_row, compulsory = combo
    game = build(family, options, guided)

    @settings(max_examples=40)
    @given(rows)
    def check(row):
        result = depth_first(game, game.start(row))
        expected = brute_min(text(row), may_go, first_row, compulsory)
        assert result.best_score == expected, format_cards(row)
        assert result.verdict is (Verdict.WON if expected == 2 else Verdict.LOST)
        assert replay(game, game.start(row), result.best_line).illegal_at is None

    check()


@pytest.mark.parametrize("combo", COMBOS, ids=[c[0] for c in COMBOS])
def test_moves_are_the_rules_and_conserve_cards(combo):
    """At every step of a random play: the legal moves are exactly the rules' discards (and the
    deal), every move only discards the cards between its matching pair, cards are conserved and
    the end cards are never removed."""
    name, family, options, rows, may_go, first_row, compulsory = combo
    game = build(family, options)

    @settings(max_examples=30)
    @given(st.one_of(rows, st.integers(1, 10**6).map(family.seeded_deal)), st.randoms(use_true_random=False))
    def check(row, rng):
        deck = sorted(text(row))
        state = game.start(row)
        discarded: list[str] = []
        while True:
            shown, stock = cards_of(game, state)
            assert sorted(shown + stock + discarded) == deck
            assert shown[0] == str(row[0])
            assert (stock or shown)[-1] == str(row[-1])
            moves = game.moves(state)
            afters = brute_discards(tuple(shown), may_go)
            expected = sorted(afters)
            if compulsory and not afters:
                expected = []
            got = sorted(tuple(cards_of(game, game.apply(state, m))[0]) for m in moves if m != DEAL)
            assert got == expected
            can_deal = bool(stock) and not (compulsory and afters)
            assert (DEAL in moves) == can_deal
            if not moves:
                break
            move = rng.choice(moves)
            after = game.apply(state, move)
            if move != DEAL:
                gone = shown[move.left + 1 : move.right]
                assert match(shown[move.left], shown[move.right]) and may_go(tuple(gone))
                discarded += gone
            state = after
        assert game.score(state) == len(shown) + len(stock) != NO_SCORE

    check()


@pytest.mark.parametrize("combo", COMBOS, ids=[c[0] for c in COMBOS])
def test_seeded_solutions_replay_and_round_trip(combo):
    """Every line found replays to its score; each move's text reads back as the same move."""
    name, family, options, rows, may_go, first_row, compulsory = combo
    game = build(family, options)

    @settings(max_examples=15)
    @given(st.integers(1, 10**7))
    def check(seed):
        start = game.start(family.seeded_deal(seed))
        result = depth_first(game, start, Limits(max_nodes=200_000))
        assert result.verdict is not Verdict.UNKNOWN
        outcome = replay(game, start, result.best_line)
        assert outcome.illegal_at is None
        assert game.score(outcome.final) == result.best_score
        assert game.is_won(outcome.final) == (result.verdict is Verdict.WON) == (result.best_score == 2)
        state = start
        for move in result.best_line:
            assert game.parse_move(state, game.describe_move(state, move)) == move
            state = game.apply(state, move)

    check()


@pytest.mark.parametrize("combo", COMBOS[:3] + COMBOS[4:], ids=[c[0] for c in COMBOS[:3] + COMBOS[4:]])
def test_analysis_is_exact_on_small_rows(combo):
    """The interval analysis's fewest-cards-left equals the brute force's on rows up to 12 cards."""
    name, family, options, rows, may_go, first_row, compulsory = combo
    removal = build(family, options).removal

    @settings(max_examples=60)
    @given(rows)
    def check(row):
        assert analyse([c.code for c in row], removal).fewest[0] == brute_min(text(row), may_go, first_row)

    check()


def test_guided_search_walks_straight_to_the_answer():
    """The guided reduction expands about one state per move of the line, won or lost."""
    for family, options in ((ROYAL, {}), (ROYAL, {"all_same_suit": True}), (LAD, {}), (NIZHNI, {"compulsory": False})):
        game = build(family, options)
        for seed in range(1, 30):
            result = depth_first(game, game.start(family.seeded_deal(seed)))
            assert result.verdict is not Verdict.UNKNOWN
            assert result.stats.nodes <= len(result.best_line) + 1


# --- seeded deals and explicit rows -------------------------------------------------------------------


def test_royal_marriage_vector():
    assert format_cards(ROYAL.seeded_deal(1)) == ROYAL_1


def test_queen_and_her_lad_moves_the_jack_of_hearts_to_the_end():
    for seed, deal in ((1, DEAL_1), (32000, DEAL_32000)):
        cards = deal.split()
        expected = ["QH"] + [c for c in cards if c not in ("QH", "JH")] + ["JH"]
        assert text(LAD.seeded_deal(seed)) == expected


def test_royal_marriage_seed_32000():
    cards = DEAL_32000.split()
    assert text(ROYAL.seeded_deal(32000)) == ["QH"] + [c for c in cards if c not in ("QH", "KH")] + ["KH"]


def test_nizhni_novgorod_moves_the_next_card_of_the_first_rank_to_the_end():
    # Deal 1 starts JD ... and the next jack dealt is JC (fourth card).
    assert format_cards(NIZHNI.seeded_deal(1)) == " ".join(
        ["JD", "2D", "9H"] + DEAL_1.split()[4:] + ["JC"]
    )
    # Deal 32000 starts 7S; the next seven dealt is 7D.
    cards = DEAL_32000.split()
    later = cards.index("7D")
    assert text(NIZHNI.seeded_deal(32000)) == cards[:later] + cards[later + 1 :] + ["7D"]


@given(st.integers(1, 10**12))
def test_seeded_rows_carry_their_end_cards(seed):
    for family, first, last in ((ROYAL, "QH", "KH"), (LAD, "QH", "JH")):
        row = text(family.seeded_deal(seed))
        assert row[0] == first and row[-1] == last and sorted(row) == sorted(text(CARDS))
    row = NIZHNI.seeded_deal(seed)
    assert row[0].rank == row[-1].rank and sorted(row) == sorted(CARDS)
    for family in (ROYAL, LAD, NIZHNI):
        family.build(family.settings()).start(family.seeded_deal(seed))


@pytest.mark.parametrize(
    "family, row, named",
    [
        (ROYAL, "KH 2C 3C QH", "QH"),
        (ROYAL, "QH 2C KH 3C", "KH"),
        (ROYAL, "QH 2C 3C JH", "KH"),
        (LAD, "QH 2C 3C KH", "JH"),
        (LAD, "JH 2C 3C QH", "QH"),
        (NIZHNI, "7H 2C 3C 8H", "8H"),
    ],
)
def test_explicit_rows_must_carry_the_end_cards(family, row, named):
    with pytest.raises(DealError, match=named) as error:
        family.build(family.settings()).start(parse_cards(row))
    assert isinstance(error.value, CardError) and isinstance(error.value, ValueError)
    assert not isinstance(error.value, MoveError)
    assert "\n" not in str(error.value)


def test_explicit_row_is_taken_as_laid_out():
    row = parse_cards("QH 2H 5C KH")
    game = ROYAL.build(ROYAL.settings())
    assert game.render(game.start(row)) == "QH 2H 5C KH"
    nizhni = NIZHNI.build(NIZHNI.settings())
    assert nizhni.render(nizhni.start(parse_cards("7H 2C 3C 4C 7S"))) == "7H 2C 3C 4C   [stock: 1]"


# --- notation -------------------------------------------------------------------------------------------


def test_move_notation():
    game = ROYAL.build(ROYAL.settings())
    state = game.start(parse_cards("QH 7H 7C 9C 2H KH"))
    move = game.parse_move(state, "discard 7C 9C between 7H and 2H")
    assert game.describe_move(state, move) == "discard 7C 9C between 7H and 2H"
    assert move in game.moves(state)
    assert game.parse_move(state, "  Discard 9c 7♣ between 7♥ and 2h ") == move
    for bad, says in (
        ("discard 7C between 7H and 2H", "between 7H and 2H are 7C 9C"),
        ("discard 7C 9C between 2H and 7H", "left of"),
        ("discard 7C 9C between 7H and 3H", "3H is not in the row"),
        ("discard 7C 9C between 7H and ZZ", "unknown card"),
        ("deal", "nothing to deal"),
        ("slide 7C", "cannot read"),
    ):
        with pytest.raises(MoveError, match=says):
            game.parse_move(state, bad)


def test_deal_notation():
    game = NIZHNI.build(NIZHNI.settings())
    state = game.start(parse_cards("7H 2C 3C 4C 5D 7S"))
    assert game.moves(state) == [DEAL]
    assert game.describe_move(state, DEAL) == "deal 5D"
    assert game.parse_move(state, "deal 5D") == game.parse_move(state, "deal") == DEAL
    with pytest.raises(MoveError, match="next card of the stock is 5D"):
        game.parse_move(state, "deal 7S")


def test_compulsory_discard_blocks_the_deal_and_the_end():
    game = NIZHNI.build(NIZHNI.settings())
    state = game.start(parse_cards("7H 2C 3C 7C 5D 7S"))
    assert DEAL not in game.moves(state) and game.score(state) == NO_SCORE
    free = NIZHNI.build(NIZHNI.settings(overrides=["compulsory=no"]))
    assert isinstance(free, OpenRow) and isinstance(game, CompulsoryDeal)


def test_describe_states_options_and_defaults():
    assert "all_same_suit (default no" in ROYAL.describe()
    assert "compulsory (default yes" in NIZHNI.describe()
    for family in (ROYAL, LAD, NIZHNI):
        assert family.score_field == "min_cards_left"


def test_removal_rules_by_example():
    """A few hand-checked positions for each removal rule."""
    def after(removal, row):
        game = OpenRow(removal, lambda cards: None)
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


@pytest.mark.parametrize("combo", COMBOS, ids=[c[0] for c in COMBOS])
def test_full_size_small_rows_agree_with_brute_force(combo):
    """Rows of exactly 12 cards (the largest the brute force is run on), drawn at random."""
    import random

    name, family, options, rows, may_go, first_row, compulsory = combo
    game = build(family, options)
    rng = random.Random(12)
    for _ in range(25):
        pool = rng.choice([list(CARDS), SMALL_POOL + [c for c in CARDS if c.suit == "D" and c.rank <= 6]])
        if family is NIZHNI:
            first = rng.choice(pool)
            last = rng.choice([c for c in CARDS if c.rank == first.rank and c != first])
        else:
            first, last = QH, (JH if family is LAD else KH)
        row = [first, *rng.sample([c for c in pool if c not in (first, last)], 10), last]
        result = depth_first(game, game.start(row))
        assert result.best_score == brute_min(text(row), may_go, first_row, compulsory), format_cards(row)


@pytest.mark.parametrize("combo", [c for c in COMBOS if c[0] != "nizhni"], ids=[c[0] for c in COMBOS if c[0] != "nizhni"])
def test_guided_agrees_with_plain_search_on_longer_rows(combo):
    """Beyond the brute force's reach: rows of 14 to 26 cards, guided search against the plain
    exhaustive search (no bound, row order), verdict and fewest cards left."""
    import random

    name, family, options, rows, may_go, first_row, compulsory = combo
    guided, plain = build(family, options), build(family, options, guided=False)
    rng = random.Random(26)
    for _ in range(30):
        size = rng.randint(14, 26)
        if family is NIZHNI:
            first = rng.choice(CARDS)
            last = rng.choice([c for c in CARDS if c.rank == first.rank and c != first])
        else:
            first, last = QH, (JH if family is LAD else KH)
        pool = [c for c in CARDS if c not in (first, last)]
        if rng.random() < 0.5:
            pool = [c for c in pool if c.suit in "HS" or c.rank < 5]
        row = [first, *rng.sample(pool, size - 2), last]
        a = depth_first(guided, guided.start(row))
        b = depth_first(plain, plain.start(row), Limits(max_nodes=2_000_000))
        assert b.verdict is not Verdict.UNKNOWN
        assert (a.verdict, a.best_score) == (b.verdict, b.best_score), format_cards(row)
