"""Baroness and Thirteens: seeded deals, rule properties, notation, reductions, and agreement with
an independent brute force on small decks for every option combination.

The brute force below is written from RULES.md alone and shares no code with
rulesets.baroness: cards are strings ("6C"), piles are tuples of strings, a discard is the set of
cards it removes, and every reachable layout is enumerated.
"""

from __future__ import annotations

import itertools
from collections import deque

import pytest
from hypothesis import given, settings, strategies as st

from rulesets import families, find_game
from rulesets.baroness import DEAL, Baroness, Move, Thirteens
from rulesets.cards import CARDS, Card, parse_cards
from rulesets.family import OptionError
from rulesets.notation import MoveError
from solver.protocol import NO_SCORE
from solver.replay import checked, replay
from solver.result import Limits, Verdict
from solver.search import depth_first

# ---------------------------------------------------------------------------------------------
# The independent brute force

VALUE = {letter: value for value, letter in enumerate("A23456789TJQK", 1)}


def value(card: str) -> int:
    return VALUE[card[0]]


def pair_text(a: str, b: str) -> str:
    low, high = (a, b) if value(a) < value(b) else (b, a)
    return f"discard {low}+{high}"


class BruteBaroness:
    """Baroness as RULES.md words it. A state is (piles, grace cards, cards dealt so far)."""

    def __init__(self, deal, piles, compulsory, kings_first, spaces, beneath):
        self.cards = [str(c) for c in deal if not (kings_first and str(c)[0] == "K")]
        self.n, self.compulsory, self.spaces, self.beneath = piles, compulsory, spaces, beneath

    def lay(self, piles, grace, dealt):
        """One card onto each pile, left to right; when fewer than P remain, they are grace cards."""
        rest = self.cards[dealt:]
        if len(rest) < self.n:
            return piles, tuple(sorted(grace + tuple(rest))), len(self.cards)
        piles = tuple(pile + (card,) for pile, card in zip(piles, rest))
        dealt += self.n
        if 0 < len(self.cards) - dealt < self.n:
            grace, dealt = tuple(sorted(grace + tuple(self.cards[dealt:]))), len(self.cards)
        return piles, grace, dealt

    def start(self):
        return self.lay(((),) * self.n, (), 0)

    def discards(self, state):
        piles, grace, _ = state
        places = [pile[-1] for pile in piles if pile] + list(grace)
        found = {}
        for card in places:
            if value(card) == 13:
                found[f"discard {card}"] = {card}
        for a, b in itertools.combinations(places, 2):
            if value(a) + value(b) == 13:
                found[pair_text(a, b)] = {a, b}
        if self.beneath:
            for pile in piles:
                if len(pile) >= 2 and value(pile[-1]) + value(pile[-2]) == 13:
                    found[pair_text(pile[-1], pile[-2])] = {pile[-1], pile[-2]}
        return found

    def successors(self, state):
        piles, grace, dealt = state
        found = {}
        discards = self.discards(state)
        for text, gone in discards.items():
            found[text] = (
                tuple(tuple(c for c in pile if c not in gone) for pile in piles),
                tuple(c for c in grace if c not in gone),
                dealt,
            )
        if dealt < len(self.cards) and not (self.compulsory and discards):
            found["deal"] = self.lay(piles, grace, dealt)
        if self.spaces:
            for target, empty in enumerate(piles):
                if empty:
                    continue
                for source, pile in enumerate(piles):
                    if pile and source != target:
                        moved = list(piles)
                        moved[source], moved[target] = pile[:-1], (pile[-1],)
                        found[f"move {pile[-1]} to pile {target + 1}"] = (tuple(moved), grace, dealt)
                for card in grace:
                    moved = list(piles)
                    moved[target] = (card,)
                    found[f"move {card} to pile {target + 1}"] = (tuple(moved), tuple(c for c in grace if c != card), dealt)
        return found

    def over(self, state):
        return state[2] == len(self.cards) and not self.discards(state)

    def left(self, state):
        piles, grace, dealt = state
        return sum(map(len, piles)) + len(grace) + len(self.cards) - dealt

    def minimum(self):
        """The fewest cards left at the end of any line of play (every reachable layout)."""
        return fewest_left_at_an_end(self, lambda state, children: self.over(state))


class BruteThirteens:
    """Thirteens as RULES.md words it. A state is (places, cards dealt so far)."""

    def __init__(self, deal, places=10):
        self.cards = [str(c) for c in deal]
        self.n = places

    def start(self):
        layout = tuple(self.cards[: self.n]) + (None,) * max(0, self.n - len(self.cards))
        return layout, min(self.n, len(self.cards))

    def successors(self, state):
        layout, dealt = state
        found = {}
        for i, a in enumerate(layout):
            if a is None:
                continue
            groups = [(i,)] if value(a) == 13 else []
            groups += [(i, j) for j, b in enumerate(layout) if b is not None and j != i and value(a) + value(b) == 13]
            for group in groups:
                new, pos = list(layout), dealt
                for place in group:  # the card named first is refilled first
                    if pos < len(self.cards):
                        new[place], pos = self.cards[pos], pos + 1
                    else:
                        new[place] = None
                text = "discard " + "+".join(layout[p] for p in group)
                found[text] = (tuple(new), pos)
        return found

    def left(self, state):
        layout, dealt = state
        return sum(card is not None for card in layout) + len(self.cards) - dealt

    def minimum(self):
        """The fewest cards left when no discard is left (every reachable layout)."""
        return fewest_left_at_an_end(self, lambda state, children: not children)


def fewest_left_at_an_end(brute, ended):
    """Breadth-first over every layout ``brute`` reaches: the fewest cards left at a layout
    where ``ended(layout, successors)`` says play is over, or None if play never ends."""
    seen = {brute.start()}
    todo = deque(seen)
    best = None
    while todo:
        state = todo.popleft()
        children = brute.successors(state)
        if ended(state, children):
            best = brute.left(state) if best is None else min(best, brute.left(state))
        for child in children.values():
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return best


# ---------------------------------------------------------------------------------------------
# Helpers

RANK_GROUPS = [(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7), (13,)]
OPTION_COMBOS = list(itertools.product([False, True], repeat=4))  # compulsory, kings_first, spaces, beneath
NONE = frozenset()
ALL = frozenset({"kings", "balanced", "idle"})


@st.composite
def small_deals(draw, max_size=10):
    """A few cards of a few complementary ranks (and Kings), so that pairs actually occur."""
    groups = draw(st.lists(st.sampled_from(RANK_GROUPS), min_size=1, max_size=3, unique=True))
    pool = [Card(rank, suit) for group in groups for rank in group for suit in "CDHS"]
    size = draw(st.integers(1, min(max_size, len(pool))))
    return draw(st.permutations(pool))[:size]


def layout_strings(state):
    return (
        tuple(tuple(str(CARDS[c]) for c in pile) for pile in state.piles),
        tuple(sorted(str(CARDS[c]) for c in state.grace)),
    )


def engine_texts(game, state):
    return {game.describe_move(state, move): move for move in game.moves(state)}


def baroness_family():
    return families()["baroness"]


def solve(game, start, limit=None):
    return checked(game, start, depth_first(game, start, Limits(max_nodes=limit)))


# ---------------------------------------------------------------------------------------------
# Seeded deals (RULES.md vectors) and the layout they give

VECTOR_1 = (
    "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C 4C 5C TS QH 4H AC 4D "
    "7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"
)
VECTOR_32000 = (
    "7S 4D JS 8D 6D 3H 3D TH JC 3C 2C 5S 9D AC 9C 2S 4H 6S 8S 9S TS 9H KD QD 6H 7D 5H QS AD QH TC "
    "4C AH JD 4S JH TD 3S 7H 8C 6C 2H 2D 5D KS QC KH 5C 7C 8H KC AS"
)
VECTOR_123456789 = (
    "8H 2H JD 3D KH 6S 5D 6H 5S 3S 4S TS 9C JS AC 2D QH 9S KS JC 9H 8D 7S 3C AD 5H 2C TH 4D KC QS "
    "7H QD 8C AS 9D 5C 4C TC 3H 2S AH QC 7C 6C KD 7D 6D JH 8S 4H TD"
)


@pytest.mark.parametrize("seed, vector", [(1, VECTOR_1), (32000, VECTOR_32000), (123456789, VECTOR_123456789)])
@pytest.mark.parametrize("name", ["baroness", "thirteens"])
def test_seeded_deals_follow_pysolfc(name, seed, vector):
    assert families()[name].seeded_deal(seed) == parse_cards(vector)


def test_first_layout_and_deals_go_left_to_right():
    deal = parse_cards(VECTOR_1)
    game = Baroness()
    state = game.start(deal)
    assert layout_strings(state) == ((("JD",), ("2D",), ("9H",), ("JC",), ("5D",)), ())
    assert len(state.stock) == 47
    state = game.apply(state, DEAL)
    assert layout_strings(state)[0] == (("JD", "7H"), ("2D", "7C"), ("9H", "5H"), ("JC", "KD"), ("5D", "KC"))


@pytest.mark.parametrize(
    "piles, kings_first, grace", [(5, False, 2), (6, False, 4), (7, False, 3), (5, True, 3), (6, True, 0), (7, True, 6)]
)
def test_grace_cards_come_with_the_last_full_deal(piles, kings_first, grace):
    deal = parse_cards(VECTOR_1)
    cards = [c for c in deal if not (kings_first and c.rank == 13)]
    game = Baroness(piles=piles, compulsory=False, kings_first=kings_first)
    state = game.start(deal)
    deals = 0
    while state.stock:
        assert not state.grace
        state = game.apply(state, DEAL)
        deals += 1
    assert deals == (len(cards) - piles) // piles
    assert sorted(str(CARDS[c]) for c in state.grace) == sorted(str(c) for c in cards[len(cards) - grace :])
    assert DEAL not in game.moves(state)
    last = [pile[-1] for pile in state.piles]
    assert [str(CARDS[c]) for c in last] == [str(c) for c in cards[len(cards) - grace - piles : len(cards) - grace]]


def test_kings_first_removes_the_kings_and_keeps_the_order():
    deal = parse_cards(VECTOR_1)
    state = Baroness(kings_first=True).start(deal)
    rest = [c for c in deal if c.rank != 13]
    assert [str(CARDS[p[0]]) for p in state.piles] == [str(c) for c in rest[:5]]
    assert state.left.bit_count() == 48
    assert [str(CARDS[c]) for c in state.stock] == [str(c) for c in rest[5:]]


def test_thirteens_lays_ten_places_and_refills_first_named_first():
    deal = parse_cards(VECTOR_1)
    game = Thirteens()
    state = game.start(deal)
    assert [str(CARDS[c]) for c in state.places] == [str(c) for c in deal[:10]]
    # JD 2D 9H JC 5D 7H 7C 5H KD KC: 2D+JD is a pair; the next cards are 9S then 5S.
    after = game.apply(state, game.parse_move(state, "discard 2D+JD"))
    assert str(CARDS[after.places[1]]) == "9S" and str(CARDS[after.places[0]]) == "5S"
    after = game.apply(state, game.parse_move(state, "discard JD+2D"))
    assert str(CARDS[after.places[0]]) == "9S" and str(CARDS[after.places[1]]) == "5S"


# ---------------------------------------------------------------------------------------------
# Rule properties along random lines of play, checked against the brute force's rules


@settings(max_examples=40)
@given(st.permutations(CARDS), st.integers(5, 7), st.tuples(*[st.booleans()] * 4), st.randoms(use_true_random=False))
def test_full_deck_moves_match_the_rules_and_conserve_cards(deal, piles, options, rng):
    compulsory, kings_first, spaces, beneath = options
    game = Baroness(piles, compulsory, kings_first, spaces, beneath, reductions=NONE)
    brute = BruteBaroness(deal, piles, compulsory, kings_first, spaces, beneath)
    state, model = game.start(deal), brute.start()
    everything = sorted(str(c) for c in deal)
    discarded = [str(c) for c in deal if kings_first and c.rank == 13]
    for _ in range(200):
        assert layout_strings(state) == (model[0], model[1])
        assert [str(CARDS[c]) for c in state.stock] == brute.cards[model[2] :]
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
    game = Thirteens(reductions=NONE)
    brute = BruteThirteens(deal)
    state, model = game.start(deal), brute.start()
    while True:
        assert [None if c < 0 else str(CARDS[c]) for c in state.places] == list(model[0])
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
    state = game.start(deal)
    assert set(game.moves(state)) == {Move(CARDS.index(parse_cards("KH")[0]))}
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


# ---------------------------------------------------------------------------------------------
# Agreement with the brute force on small decks, for every option combination


@pytest.mark.parametrize("compulsory, kings_first, spaces, beneath", OPTION_COMBOS)
@settings(max_examples=25)
@given(small_deals(max_size=12), st.integers(1, 3))
def test_engine_agrees_with_brute_force(compulsory, kings_first, spaces, beneath, deal, piles):
    game = Baroness(piles, compulsory, kings_first, spaces, beneath)
    start = game.start(deal)
    result = solve(game, start)
    expected = BruteBaroness(deal, piles, compulsory, kings_first, spaces, beneath).minimum()
    assert result.best_score == expected
    assert result.verdict is (Verdict.WON if expected == 0 else Verdict.LOST)
    # the reported line is legal under the brute force's reading of the rules too
    brute = BruteBaroness(deal, piles, compulsory, kings_first, spaces, beneath)
    model, state = brute.start(), start
    for move in result.best_line:
        text = game.describe_move(state, move)
        model, state = brute.successors(model)[text], game.apply(state, move)
    assert brute.over(model) and brute.left(model) == expected


@settings(max_examples=60)
@given(small_deals(max_size=12), st.integers(1, 4))
def test_thirteens_agrees_with_brute_force(deal, places):
    game = Thirteens(places)
    result = solve(game, game.start(deal))
    expected = BruteThirteens(deal, places).minimum()
    assert result.best_score == expected
    assert result.verdict is (Verdict.WON if expected == 0 else Verdict.LOST)


# ---------------------------------------------------------------------------------------------
# Each reduction: the verdict and the minimal score agree with and without it


@pytest.mark.parametrize("reduction", sorted(ALL))
@settings(max_examples=60)
@given(small_deals(max_size=11), st.integers(1, 3), st.tuples(*[st.booleans()] * 4))
def test_baroness_reduction_keeps_the_answer(reduction, deal, piles, options):
    with_it = Baroness(piles, *options, reductions={reduction})
    without = Baroness(piles, *options, reductions=NONE)
    a = solve(with_it, with_it.start(deal))
    b = solve(without, without.start(deal))
    assert (a.verdict, a.best_score) == (b.verdict, b.best_score)


@pytest.mark.parametrize("reduction", ["kings", "balanced"])
@settings(max_examples=60)
@given(small_deals(max_size=12), st.integers(1, 4))
def test_thirteens_reduction_keeps_the_answer(reduction, deal, places):
    with_it = Thirteens(places, reductions={reduction})
    without = Thirteens(places, reductions=NONE)
    a = solve(with_it, with_it.start(deal))
    b = solve(without, without.start(deal))
    assert (a.verdict, a.best_score) == (b.verdict, b.best_score)


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
    for reductions, offered in ((frozenset({"idle"}), set()), (NONE, {"move 4C to pile 1", "move 2D to pile 1", "move 3S to pile 1"})):
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
        model, state = brute.start(), start
        for move in result.best_line:
            model = brute.successors(model)[game.describe_move(state, move)]
            state = game.apply(state, move)
        assert brute.over(model) and brute.left(model) == result.best_score
    assert outcomes == {Verdict.WON, Verdict.LOST}


def test_thirteens_seeded_deals_solve_and_replay():
    family = families()["thirteens"]
    game = family.build(family.settings())
    for seed in range(1, 21):
        deal = family.seeded_deal(seed)
        start = game.start(deal)
        result = solve(game, start, limit=1_000_000)
        assert result.verdict is not Verdict.UNKNOWN
        brute, model, state = BruteThirteens(deal), None, start
        model = brute.start()
        for move in result.best_line:
            model = brute.successors(model)[game.describe_move(state, move)]
            state = game.apply(state, move)
        assert not brute.successors(model) and brute.left(model) == result.best_score


def test_pysol_preset_lines_replay():
    family = baroness_family()
    game = family.build(family.settings("baroness-pysol"))
    for seed in range(1, 9):
        start = game.start(family.seeded_deal(seed))
        result = solve(game, start, limit=20_000)
        assert replay(game, start, result.best_line).illegal_at is None


# ---------------------------------------------------------------------------------------------
# Notation


@settings(max_examples=30)
@given(small_deals(max_size=12), st.integers(1, 4), st.tuples(*[st.booleans()] * 4), st.randoms(use_true_random=False))
def test_every_move_reads_back(deal, piles, options, rng):
    game = Baroness(piles, *options, reductions=NONE)
    state = game.start(deal)
    for _ in range(40):
        moves = game.moves(state)
        for move in moves:
            text = game.describe_move(state, move)
            assert game.parse_move(state, text) == move
            assert game.parse_move(state, text.lower()) == move
        if not moves:
            break
        state = game.apply(state, rng.choice(moves))


def test_notation_examples():
    game = Baroness(spaces=True)
    state = game.start(parse_cards(VECTOR_1))
    king = game.parse_move(state, "discard KH")
    assert game.describe_move(state, king) == "discard KH"
    pair = game.parse_move(state, "discard 7D + 6C")
    assert pair == game.parse_move(state, "discard 6C+7D") == game.parse_move(state, "Discard 6♣+7♦")
    assert game.describe_move(state, pair) == "discard 6C+7D"
    assert game.describe_move(state, game.parse_move(state, "discard 10h+3s")) == "discard 3S+TH"
    move = game.parse_move(state, "move 9S to pile 3")
    assert move.pile == 2 and game.describe_move(state, move) == "move 9S to pile 3"
    assert game.parse_move(state, "deal") == DEAL and game.describe_move(state, DEAL) == "deal"
    thirteens = Thirteens()
    t_state = thirteens.start(parse_cards(VECTOR_1))
    assert thirteens.describe_move(t_state, thirteens.parse_move(t_state, "discard JD+2D")) == "discard JD+2D"


@pytest.mark.parametrize(
    "text", ["discard", "discard 6C", "discard 6C+8D", "discard XX+7D", "move 9S to pile 6", "move 9S to pile 0", "shuffle"]
)
def test_unreadable_moves_are_move_errors(text):
    game = Baroness()
    state = game.start(parse_cards(VECTOR_1))
    with pytest.raises(MoveError) as error:
        game.parse_move(state, text)
    assert "\n" not in str(error.value)


def test_illegal_but_readable_moves_fail_replay():
    game = Baroness()
    state = game.start(parse_cards(VECTOR_1))  # JD 2D 9H JC 5D: no discard
    line = [game.parse_move(state, "discard 6C+7D")]
    assert replay(game, state, line).illegal_at == 1


# ---------------------------------------------------------------------------------------------
# The families


def test_presets_and_options():
    family = baroness_family()
    assert family.settings() == {"piles": 5, "compulsory": True, "kings_first": False, "spaces": False, "beneath": False}
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
@pytest.mark.parametrize("compulsory, kings_first, spaces, beneath", OPTION_COMBOS)
def test_tricky_deals_agree_with_brute_force(case, compulsory, kings_first, spaces, beneath):
    cards, piles = TRICKY_DEALS[case]
    deal = parse_cards(cards)
    game = Baroness(piles, compulsory, kings_first, spaces, beneath)
    result = solve(game, game.start(deal))
    assert result.best_score == BruteBaroness(deal, piles, compulsory, kings_first, spaces, beneath).minimum()
