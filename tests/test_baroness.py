"""Baroness and Thirteens: seeded deals, rule properties, reductions, whole deals solved and
replayed, and agreement with the independent brute force (tests/brute/baroness.py) on small decks
for every option combination. (Notation, positions and pictures: test_baroness_notation.py.)"""

from __future__ import annotations

import itertools

import pytest
from brute.baroness import BruteBaroness, BruteThirteens, follow
from helpers import PYSOL_DEAL_1, reachable_states, solve, states_along
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import families, find_game
from rulesets.baroness import Baroness, ToSpace
from rulesets.cards import CARDS, NAME, Card, parse_card, parse_cards
from rulesets.family import OptionError
from rulesets.moves import DEAL
from rulesets.pairs import Discard
from rulesets.thirteens import Thirteens
from solver.protocol import NO_SCORE
from solver.replay import replay
from solver.result import Verdict

RANK_GROUPS = [(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7), (13,)]
OPTION_COMBOS = list(itertools.product([False, True], repeat=4))  # compulsory, kings_first, spaces, beneath
FLAGS = st.tuples(*[st.booleans()] * 4)  # the same four options, drawn
NONE: frozenset[str] = frozenset()
ALL = frozenset({"kings", "balanced", "idle", "sealed", "suits"})


@st.composite
def small_deals(draw, max_size=10):
    """A few cards of a few complementary ranks (and Kings), so that pairs actually occur."""
    groups = draw(st.lists(st.sampled_from(RANK_GROUPS), min_size=1, max_size=3, unique=True))
    pool = [Card(rank, suit) for group in groups for rank in group for suit in "CDHS"]
    size = draw(st.integers(1, min(max_size, len(pool))))
    return draw(st.permutations(pool))[:size]


def names(codes):
    return [NAME[code] for code in codes]


def layout_strings(state):
    return tuple(tuple(names(pile)) for pile in state.piles), tuple(sorted(names(state.grace)))


def engine_texts(game, state):
    return {game.describe_move(state, move): move for move in game.moves(state)}


def baroness_family():
    return families()["baroness"]


def line_texts(game, start, line):
    return [game.describe_move(state, move) for state, move in zip(states_along(game, start, line), line)]


# ---------------------------------------------------------------------------------------------
# Seeded deals (PySolFC's numbering) and the layout they give

VECTOR_32000 = (
    "7S 4D JS 8D 6D 3H 3D TH JC 3C 2C 5S 9D AC 9C 2S 4H 6S 8S 9S TS 9H KD QD 6H 7D 5H QS AD QH TC "
    "4C AH JD 4S JH TD 3S 7H 8C 6C 2H 2D 5D KS QC KH 5C 7C 8H KC AS"
)
VECTOR_123456789 = (
    "8H 2H JD 3D KH 6S 5D 6H 5S 3S 4S TS 9C JS AC 2D QH 9S KS JC 9H 8D 7S 3C AD 5H 2C TH 4D KC QS "
    "7H QD 8C AS 9D 5C 4C TC 3H 2S AH QC 7C 6C KD 7D 6D JH 8S 4H TD"
)


@pytest.mark.parametrize("seed, vector", [(1, PYSOL_DEAL_1), (32000, VECTOR_32000), (123456789, VECTOR_123456789)])
@pytest.mark.parametrize("name", ["baroness", "thirteens"])
def test_seeded_deals_follow_pysolfc(name, seed, vector):
    assert families()[name].seeded_deal(seed) == parse_cards(vector)


def test_first_layout_and_deals_go_left_to_right():
    game = Baroness()
    state = game.start(parse_cards(PYSOL_DEAL_1))
    assert layout_strings(state) == ((("JD",), ("2D",), ("9H",), ("JC",), ("5D",)), ())
    assert len(state.stock) == 47
    state = game.apply(state, DEAL)
    assert layout_strings(state)[0] == (("JD", "7H"), ("2D", "7C"), ("9H", "5H"), ("JC", "KD"), ("5D", "KC"))


@pytest.mark.parametrize(
    "piles, kings_first, grace", [(5, False, 2), (6, False, 4), (7, False, 3), (5, True, 3), (6, True, 0), (7, True, 6)]
)
def test_grace_cards_come_with_the_last_full_deal(piles, kings_first, grace):
    deal = parse_cards(PYSOL_DEAL_1)
    cards = [str(c) for c in deal if not (kings_first and c.rank == 13)]
    game = Baroness(piles=piles, compulsory=False, kings_first=kings_first)
    state = game.start(deal)
    deals = 0
    while state.stock:
        assert not state.grace
        state = game.apply(state, DEAL)
        deals += 1
    assert deals == (len(cards) - piles) // piles
    assert sorted(names(state.grace)) == sorted(cards[len(cards) - grace :])
    assert DEAL not in game.moves(state)
    assert names(pile[-1] for pile in state.piles) == cards[len(cards) - grace - piles : len(cards) - grace]


def test_kings_first_removes_the_kings_and_keeps_the_order():
    deal = parse_cards(PYSOL_DEAL_1)
    state = Baroness(kings_first=True).start(deal)
    rest = [str(c) for c in deal if c.rank != 13]
    assert names(pile[0] for pile in state.piles) == rest[:5]
    assert state.left.bit_count() == 48
    assert names(state.stock) == rest[5:]


def test_thirteens_lays_ten_places_and_refills_first_named_first():
    deal = parse_cards(PYSOL_DEAL_1)
    game = Thirteens()
    state = game.start(deal)
    assert names(state.places) == [str(c) for c in deal[:10]]
    # JD 2D 9H JC 5D 7H 7C 5H KD KC: 2D+JD is a pair; the next cards are 9S then 5S.
    after = game.apply(state, game.parse_move(state, "discard 2D+JD"))
    assert names(after.places[:2]) == ["5S", "9S"]
    after = game.apply(state, game.parse_move(state, "discard JD+2D"))
    assert names(after.places[:2]) == ["9S", "5S"]


# ---------------------------------------------------------------------------------------------
# Rule properties along random lines of play, checked against the brute force's rules


@pytest.mark.one_engine  # the rules against the brute force: no search
@settings(max_examples=40)
@given(st.permutations(CARDS), st.integers(5, 7), FLAGS, st.randoms(use_true_random=False))
def test_full_deck_moves_match_the_rules_and_conserve_cards(deal, piles, options, rng):
    compulsory, kings_first, spaces, beneath = options
    settings = {
        "piles": piles,
        "compulsory": compulsory,
        "kings_first": kings_first,
        "spaces": spaces,
        "beneath": beneath,
    }
    game = families()["baroness"].build_legal(settings)  # the ruleset hints and verify hold players to
    brute = BruteBaroness(deal, piles, compulsory, kings_first, spaces, beneath)
    state, model = game.start(deal), brute.start()
    everything = sorted(str(c) for c in deal)
    discarded = [str(c) for c in deal if kings_first and c.rank == 13]
    for _ in range(200):
        assert layout_strings(state) == (model[0], model[1])
        assert names(state.stock) == brute.cards[model[2] :]
        kept = [c for pile in model[0] for c in pile] + list(model[1]) + brute.cards[model[2] :]
        assert sorted(kept + discarded) == everything
        assert state.left.bit_count() == len(kept)
        moves = engine_texts(game, state)
        expected = brute.successors(model)
        assert set(moves) == set(expected)
        if compulsory and brute.discards(model):
            assert "deal" not in moves
        assert (game.score(state) == NO_SCORE) == (not brute.over(model))
        if not moves:
            break
        text = rng.choice(sorted(moves))
        if text.startswith("discard"):
            discarded += text.split()[1].split("+")
        state, model = game.apply(state, moves[text]), expected[text]


@settings(max_examples=40)
@given(st.permutations(CARDS), st.randoms(use_true_random=False))
def test_thirteens_moves_match_the_rules_and_conserve_cards(deal, rng):
    game = families()["thirteens"].build_legal({})  # the ruleset hints and verify hold players to
    brute = BruteThirteens(deal)
    state, model = game.start(deal), brute.start()
    while True:
        assert [None if c is None else NAME[c] for c in state.places] == list(model[0])
        assert state.left.bit_count() == brute.left(model)
        moves = engine_texts(game, state)
        expected = brute.successors(model)
        assert set(moves) == set(expected)
        assert (game.score(state) == NO_SCORE) == bool(expected)
        if not moves:
            break
        text = rng.choice(sorted(moves))
        state, model = game.apply(state, moves[text]), expected[text]


def test_an_available_king_forbids_dealing_under_compulsory():
    deal = parse_cards("KH 2C 3D 4S 5H 6C 7D 8S 9H TC")
    game = Baroness(compulsory=True, reductions=NONE)
    assert game.moves(game.start(deal)) == [Discard(parse_card("KH").code)]
    loose = Baroness(compulsory=False, reductions=NONE)
    assert DEAL in loose.moves(loose.start(deal))


def test_beneath_pairs_only_within_one_pile():
    # Piles after one deal: [6C, 7D] [2S, 9H]; 7D on 6C totals 13, 9H and 7D do not pair.
    deal = parse_cards("6C 2S 7D 9H")
    plain = Baroness(piles=2, compulsory=False, reductions=NONE)
    with_beneath = Baroness(piles=2, compulsory=False, beneath=True, reductions=NONE)
    state = plain.apply(plain.start(deal), DEAL)
    assert engine_texts(plain, state).keys() == set()
    state = with_beneath.apply(with_beneath.start(deal), DEAL)
    assert set(engine_texts(with_beneath, state)) == {"discard 6C+7D"}
    after = with_beneath.apply(state, with_beneath.parse_move(state, "discard 7D+6C"))
    assert layout_strings(after)[0] == ((), ("2S", "9H"))


def test_a_space_move_is_never_taken_for_a_discard():
    # 6C and 7C have codes 5 and 6: 'move 6C to pile 7' holds the same numbers as 'discard
    # 6C+7C', and must still be refused where only the discard is legal.
    game = Baroness(piles=7, compulsory=False, spaces=True, reductions=NONE)
    state = game.start(parse_cards("6C 7C AH 2H 3H 4H 5H 8D 9D"))
    space = game.parse_move(state, "move 6C to pile 7")
    assert space == ToSpace(5, 6) and space != Discard(5, 6)
    assert Discard(5, 6) in game.moves(state)
    assert replay(game, state, [space]).illegal_at == 1


# ---------------------------------------------------------------------------------------------
# Agreement with the brute force on small decks, for every option combination


@settings(max_examples=400)  # 25 deals for each of the 16 option combinations
@given(small_deals(max_size=12), st.integers(1, 3), FLAGS)
def test_engine_agrees_with_brute_force(deal, piles, options):
    game = Baroness(piles, *options)
    start = game.start(deal)
    result = solve(game, start)
    brute = BruteBaroness(deal, piles, *options)
    expected = brute.minimum()
    assert result.best_score == expected
    assert result.verdict is (Verdict.WON if expected == 0 else Verdict.LOST)
    # the reported line is legal under the brute force's reading of the rules too
    end = follow(brute, line_texts(game, start, result.best_line))
    assert brute.over(end) and brute.left(end) == expected


@settings(max_examples=60)
@given(small_deals(max_size=12), st.integers(1, 4))
def test_thirteens_agrees_with_brute_force(deal, places):
    game = Thirteens(places)
    result = solve(game, game.start(deal))
    expected = BruteThirteens(deal, places).minimum()
    assert result.best_score == expected
    assert result.verdict is (Verdict.WON if expected == 0 else Verdict.LOST)


TRICKY_DEALS = {
    # After KS goes: 6C alone on pile 1, 6D on AC on pile 2, grace 7H and QH. Both sixes are
    # available but only one seven: pairing 6C with it would bury AC (and QH) for good.
    "an unequal pair of ranks is not forced": ("6C AC 5S KS 6D 8S 7H QH", 3),
    # P=1: [JC] 2D | 2C. After the beneath pair goes, an empty pile with 2C in the stock must
    # not look like the final layout with 2C dealt.
    "layouts with and without stock never share a key": ("JC 2D 2C", 1),
    # KH goes, then the deal gives [6C] [2S 6D] [7S JS], grace 7H. Two sixes, two sevens, but
    # 7S is buried: 6C+7H would leave 6D on the 2S that JS (covering 7S) needs. 6D+7H wins.
    "the balanced rule needs every card of both ranks free": ("KH 2S 7S 6C 6D JS 7H", 3),
}


@pytest.mark.parametrize("case", TRICKY_DEALS)
@pytest.mark.parametrize("options", OPTION_COMBOS)
def test_tricky_deals_agree_with_brute_force(case, options):
    cards, piles = TRICKY_DEALS[case]
    deal = parse_cards(cards)
    game = Baroness(piles, *options)
    result = solve(game, game.start(deal))
    assert result.best_score == BruteBaroness(deal, piles, *options).minimum()


# ---------------------------------------------------------------------------------------------
# Each reduction: the verdict and the minimal score agree with and without it


@settings(max_examples=240)  # 60 deals for each of the four reductions
@given(st.sampled_from(sorted(ALL)), small_deals(max_size=11), st.integers(1, 3), FLAGS)
def test_baroness_reduction_keeps_the_answer(reduction, deal, piles, options):
    with_it = Baroness(piles, *options, reductions={reduction})
    without = Baroness(piles, *options, reductions=NONE)
    a = solve(with_it, with_it.start(deal))
    b = solve(without, without.start(deal))
    assert (a.verdict, a.best_score) == (b.verdict, b.best_score)


@settings(max_examples=120)  # 60 deals for each of the two reductions
@given(st.sampled_from(["kings", "balanced"]), small_deals(max_size=12), st.integers(1, 4))
def test_thirteens_reduction_keeps_the_answer(reduction, deal, places):
    with_it = Thirteens(places, reductions={reduction})
    without = Thirteens(places, reductions=NONE)
    a = solve(with_it, with_it.start(deal))
    b = solve(without, without.start(deal))
    assert (a.verdict, a.best_score) == (b.verdict, b.best_score)


def reachable(brute, start):
    """Every layout the brute force reaches from ``start``."""
    seen, todo = {start}, [start]
    while todo:
        for child in brute.successors(todo.pop()).values():
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def lockstep(game, brute, deal, rng, steps=30):
    """A random line of play from ``deal``, as (layout, the brute force's layout) pairs: each move
    made in the ruleset and in the brute force alike."""
    state, model = game.start(deal), brute.start()
    for _ in range(steps):
        yield state, model
        moves = engine_texts(game, state)
        if not moves:
            return
        text = rng.choice(sorted(moves))
        state, model = game.apply(state, moves[text]), brute.successors(model)[text]


@pytest.mark.one_engine  # the ruleset's reduction against the brute force: no search
@settings(max_examples=150)
@given(small_deals(max_size=12), st.integers(1, 3), st.booleans(), st.randoms(use_true_random=False))
def test_sealed_floors_are_never_reached(deal, piles, compulsory, rng):
    """Along a random line of play, wherever the engine finds a layout sealed, no layout the
    brute force reaches from it has an empty pile, and every pile keeps its cards up to its floor
    (the floor is never discarded nor moved, nor anything beneath it)."""
    game = Baroness(piles, compulsory, spaces=True, reductions=NONE)
    brute = BruteBaroness(deal, piles, compulsory, False, True, False)
    for state, model in lockstep(game, brute, deal, rng):
        depths = game.floors(state)
        if depths is not None:
            kept = [names(pile[: depth + 1]) for pile, depth in zip(state.piles, depths)]
            for layout in reachable(brute, model):
                assert all(list(pile[: len(base)]) == base for pile, base in zip(layout[0], kept))


@pytest.mark.one_engine  # the ruleset's bound against the brute force: no search
@settings(max_examples=200)
@given(small_deals(max_size=12), st.integers(1, 3), FLAGS, st.randoms(use_true_random=False))
def test_the_bound_never_exceeds_the_fewest_cards_left(deal, piles, options, rng):
    """Along a random line of play, each layout's lower bound is at most the fewest cards left at
    any end the brute force reaches from it (grace cards, now or to come, included)."""
    game = Baroness(piles, *options)
    brute = BruteBaroness(deal, piles, *options)
    for state, model in lockstep(game, brute, deal, rng):
        fewest = min(brute.left(layout) for layout in reachable(brute, model) if brute.over(layout))
        assert game.lower_bound(state) <= fewest


@settings(max_examples=120)
@given(st.sampled_from([frozenset({"suits"}), ALL]), small_deals(max_size=9), st.integers(1, 3), FLAGS)
def test_layouts_sharing_a_key_have_the_same_minimum(reductions, deal, piles, options):
    """Every layout reachable from a deal, grouped by its key under ``suits`` (alone, and with
    the other reductions): within each group the fewest cards left (searched from each layout
    without reductions) is the same."""
    keyed = Baroness(piles, *options, reductions=reductions)
    plain = Baroness(piles, *options, reductions=NONE)
    groups: dict[bytes, list[object]] = {}
    for state in reachable_states(plain, plain.start(deal)):
        groups.setdefault(keyed.key(state), []).append(state)
    for members in groups.values():
        if len(members) > 1:
            assert len({solve(plain, state).best_score for state in members}) == 1


def test_sealed_layouts_share_a_key():
    # piles 6C 7C / 2S JS and 6D 7D / 2H JH (no stock): each top's only partner lies beneath it,
    # so nothing ever moves and four cards stay; the cards differ, the game does not
    game = Baroness(piles=2, compulsory=False, spaces=True, reductions={"sealed"})
    plain = Baroness(piles=2, compulsory=False, spaces=True, reductions=NONE)
    one, other = (game.apply(game.start(parse_cards(cards)), DEAL) for cards in ("6C 2S 7C JS", "6D 2H 7D JH"))
    assert game.floors(one) == [1, 1]
    assert game.key(one) == game.key(other) and plain.key(one) != plain.key(other)
    assert BruteBaroness(parse_cards("6C 2S 7C JS"), 2, False, False, True, False).minimum() == 4
    # 6C / 2S / 6H, grace 7C JS: 6C or 6H may pair with 7C, so a pile may empty: the plain key
    open_layout = game.start(parse_cards("6C 2S 6H 7C JS"))
    assert game.floors(open_layout) is None and game.key(open_layout) == plain.key(open_layout)


def test_reductions_do_fire():
    # kings: KH on pile 1 is the only move offered; balanced: 6C and 7D are the only 6 and 7.
    game = Baroness(piles=3, compulsory=False)
    state = game.start(parse_cards("KH 6C 7D 2S JS 5H"))
    assert game.moves(state) == [game.parse_move(state, "discard KH")]
    state = game.apply(state, game.moves(state)[0])
    assert game.moves(state) == [game.parse_move(state, "discard 6C+7D")]
    full = Baroness(piles=3, compulsory=False, reductions=NONE)
    assert len(full.moves(full.start(parse_cards("KH 6C 7D 2S JS 5H")))) > 1
    # idle: with the stock empty, neither a grace card nor a lone card moves onto an empty pile
    deal = parse_cards("6C 2D 3S 7H 4C")  # piles 6C 2D 3S, grace cards 4C 7H
    for reductions, offered in (
        (frozenset({"idle"}), set()),
        (NONE, {"move 4C to pile 1", "move 2D to pile 1", "move 3S to pile 1"}),
    ):
        spaces = Baroness(piles=3, compulsory=False, spaces=True, reductions=reductions)
        state = spaces.start(deal)
        state = spaces.apply(state, spaces.parse_move(state, "discard 6C+7H"))
        texts = set(engine_texts(spaces, state))
        assert offered <= texts and all(not t.startswith("move") for t in texts - offered)


# ---------------------------------------------------------------------------------------------
# Whole deals: every solution replays, and the rules' reading of it agrees


@pytest.mark.parametrize("variant", ["baroness", "baroness-classic"])
def test_seeded_deals_solve_and_replay(variant):
    family = baroness_family()
    settings_ = family.settings(variant)
    game = family.build(settings_)
    outcomes = set()
    for seed in range(1, 31):
        deal = family.seeded_deal(seed)
        start = game.start(deal)
        result = solve(game, start, limit=1_000_000)
        assert result.verdict is not Verdict.UNKNOWN
        outcomes.add(result.verdict)
        final = replay(game, start, result.best_line)
        assert final.illegal_at is None
        assert game.score(final.final) == result.best_score
        brute = BruteBaroness(deal, 5, settings_["compulsory"], settings_["kings_first"], False, False)
        end = follow(brute, line_texts(game, start, result.best_line))
        assert brute.over(end) and brute.left(end) == result.best_score
    assert outcomes == {Verdict.WON, Verdict.LOST}


def test_thirteens_seeded_deals_solve_and_replay():
    family = families()["thirteens"]
    game = family.build(family.settings())
    for seed in range(1, 21):
        deal = family.seeded_deal(seed)
        start = game.start(deal)
        result = solve(game, start, limit=1_000_000)
        assert result.verdict is not Verdict.UNKNOWN
        brute = BruteThirteens(deal)
        end = follow(brute, line_texts(game, start, result.best_line))
        assert not brute.successors(end) and brute.left(end) == result.best_score


def test_pysol_preset_lines_replay():
    family = baroness_family()
    game = family.build(family.settings("baroness-pysol"))
    for seed in range(1, 9):
        start = game.start(family.seeded_deal(seed))
        result = solve(game, start, limit=20_000)
        assert replay(game, start, result.best_line).illegal_at is None


# ---------------------------------------------------------------------------------------------
# The families


def test_presets_and_options():
    family = baroness_family()
    assert family.settings() == {
        "piles": 5,
        "compulsory": True,
        "kings_first": False,
        "spaces": False,
        "beneath": False,
    }
    assert family.settings("baroness-classic")["kings_first"] is True
    pysol = family.settings("baroness-pysol")
    assert pysol["compulsory"] is False and pysol["spaces"] is True
    assert family.settings(None, ["piles=7", "beneath=yes"])["piles"] == 7
    with pytest.raises(OptionError):
        family.settings(None, ["piles=8"])
    assert find_game("baroness-pysol") == (family, "baroness-pysol")
    assert find_game("thirteens")[0].name == "thirteens"
    text = family.describe()
    for word in ("piles", "compulsory", "kings_first", "spaces", "beneath", "grace", "baroness-classic"):
        assert word in text
    game = family.build(family.settings(None, ["piles=6", "compulsory=no", "spaces=yes", "beneath=yes"]))
    assert (game.piles, game.compulsory, game.spaces, game.beneath) == (6, False, True, True)


@pytest.mark.parametrize("name", ["baroness", "thirteens"])
def test_rules_text_is_plain_and_short(name):
    rules = families()[name].rules
    assert all(len(line) <= 100 for line in rules.splitlines())
    assert "RULES" not in rules and "position" in rules
