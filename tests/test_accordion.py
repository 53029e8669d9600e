"""Accordion's default variant: rule properties, brute-force agreement, and the reference deals."""

import csv
from pathlib import Path

import pytest
from brute.accordion import matches, merge, min_piles, open_layout, open_row_layouts, successors
from helpers import load_benchmark, reachable_states
from hypothesis import given
from hypothesis import strategies as st

from rulesets import accordion
from rulesets.accordion import DealtAccordion, OpenAccordion
from rulesets.cards import CARDS, NAME, CardError, parse_cards
from rulesets.deals import seeded_deal
from rulesets.moves import DEAL
from solver.engine import engine_of
from solver.replay import replay
from solver.result import Limits, Verdict

REFERENCE = list(csv.DictReader((Path(__file__).parent / "data" / "accordion-reference.tsv").open(), delimiter="\t"))
ROW = OpenAccordion()


def small_decks(max_size=10):
    return st.lists(st.sampled_from(CARDS), min_size=1, max_size=max_size, unique=True)


def names(cards):
    return [str(card) for card in cards]


def play_on_piles(piles, move):
    """Apply an engine move to whole piles, checking it against the rules as written."""
    i, distance = move
    assert distance in (1, 3) and i - distance >= 0, move
    assert matches(piles[i][-1], piles[i - distance][-1]), (piles, move)
    return merge(piles, i, distance)


def piles_after(cards, line):
    """The whole piles after playing ``line`` on the open row of ``cards``, each move checked."""
    piles = open_layout(names(cards))
    for move in line:
        piles = play_on_piles(piles, move)
    return piles


@given(st.permutations(CARDS), st.randoms(use_true_random=False))
def test_moves_conserve_cards_and_remove_one_pile(deck, rng):
    piles, state = open_layout(names(deck)), ROW.start(deck)
    while True:
        moves = ROW.moves(state)
        assert set(moves) == {(i, d) for _, i, d in successors(piles)}
        if not moves:
            break
        move = rng.choice(moves)
        piles, state = play_on_piles(piles, move), ROW.apply(state, move)
        tops = [pile[-1] for pile in piles]
        assert [NAME[code] for code in state[0]] == tops
        assert state == ROW.start(parse_cards(" ".join(tops)))  # the card set follows the row
        assert sorted(card for pile in piles for card in pile) == sorted(names(deck))


@given(small_decks())
def test_engine_agrees_with_brute_force_on_small_decks(cards):
    result = engine_of(ROW).depth_first(ROW.start(cards))
    assert result.best_score == min_piles(open_layout(names(cards)))
    assert result.verdict is (Verdict.WON if result.best_score == 1 else Verdict.LOST)
    assert len(piles_after(cards, result.best_line)) == result.best_score


@given(st.integers(1, 31999))
def test_every_solution_found_replays(seed):
    deal = seeded_deal(seed)
    result = engine_of(ROW).depth_first(ROW.start(deal), limits=Limits(max_nodes=20000))
    assert replay(ROW, ROW.start(deal), result.best_line).illegal_at is None
    piles = piles_after(deal, result.best_line)
    assert len(piles) == result.best_score
    if result.verdict is Verdict.WON:
        assert len(piles) == 1 and len(result.solution) == 51


@given(small_decks(9))
def test_dealing_one_card_at_a_time_reaches_exactly_the_open_rows_outcomes(cards):
    """Dealing at will (every option off, dealt one card at a time) ends in exactly the rows the
    open row reaches, so the default variant may be solved on the open row."""
    dealt = DealtAccordion()
    dealt_ends = {state.row for state in reachable_states(dealt, dealt.start(cards)) if not state.stock}
    assert dealt_ends == {state[0] for state in reachable_states(ROW, ROW.start(cards))}


@given(small_decks(12))
def test_connected_groups_bound_is_admissible(cards):
    assert ROW.lower_bound(ROW.start(cards)) <= min_piles(open_layout(names(cards)))


def test_connected_groups_counts_suit_and_rank_links():
    assert ROW.lower_bound(ROW.start(parse_cards("AS 2S 3H 4H"))) == 2
    assert ROW.lower_bound(ROW.start(parse_cards("AS 2S 2H 4H"))) == 1
    assert ROW.lower_bound(ROW.start(parse_cards("AS KD 7C 9H"))) == 4


def groups_by_union_find(cards):
    """Components of the cards' suit-rank graph, computed the plain way."""
    parent = {}

    def find(node):
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    for card in cards:
        parent[find(("suit", card.suit))] = find(("rank", card.rank))
    return len({find(("suit", card.suit)) for card in cards})


@given(small_decks(20))
def test_connected_groups_equals_a_plain_union_find(cards):
    assert ROW.lower_bound(ROW.start(cards)) == groups_by_union_find(cards)


def test_every_group_count_of_the_bound_table_is_a_plain_union_finds():
    """Each of the 1,024 entries: suits present (4 bits) joined by the suit pairs that share a
    rank (6 bits), a pair counting only when both its suits are present."""
    pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    for index in range(1024):
        present = [suit for suit in range(4) if index >> suit & 1]
        group = {suit: suit for suit in present}  # each suit's group, relabelled as groups join
        for pair, (a, b) in enumerate(pairs):
            if index >> (4 + pair) & 1 and a in group and b in group:
                old, new = group[b], group[a]
                group = {suit: new if label == old else label for suit, label in group.items()}
        assert accordion._GROUPS[index] == len(set(group.values())), index


STATES = load_benchmark("accordion_states")
#: Three suits of five ranks: small decks from it match often, so piles merge in many ways.
DENSE = [card for card in CARDS if card.rank <= 5 and card.suit in "CDH"]


@given(st.one_of(small_decks(10), st.lists(st.sampled_from(DENSE), min_size=2, max_size=10, unique=True)))
def test_pile_fixpoint_never_denies_a_reachable_cover_of_the_first_pile(cards):
    """The candidate bound measured in benchmarks/accordion_states.py (docs/searching.md): when it
    says the first pile is never covered, no layout the brute force reaches has covered it."""
    if not STATES.first_pile_may_be_covered(bytes(card.code for card in cards)):
        assert all(len(layout[0]) == 1 for layout in open_row_layouts(names(cards)))


def test_open_row_refuses_a_card_dealt_twice():
    """apply relies on the row's cards being distinct (it finds them by value)."""
    with pytest.raises(CardError):
        ROW.start(parse_cards("AS 2S AS"))


def test_dealt_game_offers_dealing_at_any_time():
    dealt = DealtAccordion()
    state = dealt.start(parse_cards("AS 2S 3S"))
    assert dealt.moves(state) == [DEAL]
    state = dealt.apply(state, DEAL)
    assert DEAL in dealt.moves(state) and len(dealt.moves(state)) == 2


def reference_sample():
    losing = [row for row in REFERENCE if row["solvable"] == "no"]
    winnable = [row for row in REFERENCE if row["solvable"] == "yes"][::12]
    return losing + winnable


@pytest.mark.parametrize("row", reference_sample(), ids=lambda row: row["deal_id"])
def test_reference_deals_verdict_and_min_piles(row):
    deal = parse_cards(row["cards"])
    result = engine_of(ROW).depth_first(ROW.start(deal))
    assert result.verdict is (Verdict.WON if row["solvable"] == "yes" else Verdict.LOST)
    assert result.best_score == int(row["min_piles"])
    outcome = replay(ROW, ROW.start(deal), result.best_line)
    assert outcome.illegal_at is None and len(outcome.final[0]) == result.best_score
