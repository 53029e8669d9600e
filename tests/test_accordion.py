"""Accordion's default variant: rule properties, brute-force agreement, and the reference deals."""

import csv
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from accordion_brute import matches, min_piles, open_layout, successors
from rulesets.accordion import DEAL, DealtRow, OpenRow
from rulesets.cards import CARDS, CardError, parse_card, parse_cards
from rulesets.deals import seeded_deal
from solver.replay import replay
from solver.result import Limits, Verdict
from solver.search import depth_first

REFERENCE = list(csv.DictReader((Path(__file__).parent / "data" / "accordion-reference.tsv").open(), delimiter="\t"))
ROW = OpenRow()


def small_decks(max_size=10):
    return st.lists(st.sampled_from(CARDS), min_size=1, max_size=max_size, unique=True)


def play_on_piles(piles, row, move):
    """Apply an engine move to whole piles, checking it against the rules as written."""
    i, distance = move
    j = i - distance
    assert distance in (1, 3) and j >= 0, move
    assert matches(piles[i][-1], piles[j][-1]), (piles, move)
    return piles[:j] + (piles[j] + piles[i],) + piles[j + 1 : i] + piles[i + 1 :]


def tops(piles):
    return [pile[-1] for pile in piles]


@given(st.permutations(CARDS), st.randoms(use_true_random=False))
def test_moves_conserve_cards_and_remove_one_pile(deck, rng):
    piles, row = open_layout([str(c) for c in deck]), ROW.start(deck)
    while True:
        moves = ROW.moves(row)
        expected = {(i, d) for _, i, d in successors(piles)}
        assert set(moves) == expected
        if not moves:
            break
        move = rng.choice(moves)
        piles, row = play_on_piles(piles, row, move), ROW.apply(row, move)
        assert len(row[0]) == len(piles)
        assert [str(CARDS[c]) for c in row[0]] == tops(piles)
        assert row[1] == ROW.start([parse_card(card) for card in tops(piles)])[1]
        assert sorted(card for pile in piles for card in pile) == sorted(str(c) for c in deck)


@given(small_decks())
def test_engine_agrees_with_brute_force_on_small_decks(cards):
    result = depth_first(ROW, ROW.start(cards))
    assert result.best_score == min_piles(open_layout([str(c) for c in cards]))
    assert result.verdict is (Verdict.WON if result.best_score == 1 else Verdict.LOST)
    piles = open_layout([str(c) for c in cards])
    for move in result.best_line:
        piles = play_on_piles(piles, None, move)
    assert len(piles) == result.best_score


@given(st.integers(1, 31999))
def test_every_solution_found_replays(seed):
    deal = seeded_deal(seed)
    result = depth_first(ROW, ROW.start(deal), Limits(max_nodes=20000))
    assert replay(ROW, ROW.start(deal), result.best_line).illegal_at is None
    piles = open_layout([str(c) for c in deal])
    for move in result.best_line:
        piles = play_on_piles(piles, None, move)
    assert len(piles) == result.best_score
    if result.verdict is Verdict.WON:
        assert len(piles) == 1 and len(result.solution) == 51


def dealt_outcomes(game, state, seen=None):
    """Every layout the dealt game reaches with its whole deck dealt."""
    seen = set() if seen is None else seen
    if state in seen:
        return set()
    seen.add(state)
    found = {state.row} if not state.stock else set()
    for move in game.moves(state):
        found |= dealt_outcomes(game, game.apply(state, move), seen)
    return found


def open_outcomes(layout, seen=None):
    seen = set() if seen is None else seen
    if layout[0] not in seen:
        seen.add(layout[0])
        for move in ROW.moves(layout):
            open_outcomes(ROW.apply(layout, move), seen)
    return seen


@given(small_decks(9))
def test_dealing_one_card_at_a_time_reaches_exactly_the_open_rows_outcomes(cards):
    dealt = DealtRow()
    assert dealt_outcomes(dealt, dealt.start(cards)) == open_outcomes(ROW.start(cards))


@given(small_decks(12))
def test_connected_groups_bound_is_admissible(cards):
    layout = ROW.start(cards)
    assert ROW.lower_bound(layout) <= min_piles(open_layout([str(c) for c in cards]))


def test_connected_groups_counts_suit_and_rank_links():
    assert ROW.lower_bound(ROW.start(parse_cards("AS 2S 3H 4H"))) == 2
    assert ROW.lower_bound(ROW.start(parse_cards("AS 2S 2H 4H"))) == 1
    assert ROW.lower_bound(ROW.start(parse_cards("AS KD 7C 9H"))) == 4


def test_open_row_refuses_a_card_dealt_twice():
    """apply relies on the row's cards being distinct (it finds them by value)."""
    with pytest.raises(CardError):
        ROW.start(parse_cards("AS 2S AS"))


def test_dealt_game_offers_dealing_at_any_time():
    dealt = DealtRow()
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
    result = depth_first(ROW, ROW.start(deal))
    assert result.verdict is (Verdict.WON if row["solvable"] == "yes" else Verdict.LOST)
    assert result.best_score == int(row["min_piles"])
    outcome = replay(ROW, ROW.start(deal), result.best_line)
    assert outcome.illegal_at is None and len(outcome.final[0]) == result.best_score


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
