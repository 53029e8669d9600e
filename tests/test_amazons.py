"""Amazons: rules properties, the lower and redeal bounds, and agreement with the independent
brute force (tests/brute/amazons.py) on small decks. (Seeded deals, notation, positions,
pictures and whole games: test_amazons_notation.py.)"""

from __future__ import annotations

import itertools
import random
import sys
import threading

import pytest
from brute.amazons import Brute
from helpers import walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.amazons import FAMILIES, Amazons, Play
from rulesets.amazons_redeals import RedealBound
from rulesets.cards import CARDS, RANK, Card, format_cards, parse_cards
from rulesets.deals import STRIPPED_RANKS
from rulesets.moves import DEAL, REDEAL
from solver.engine import engine_of
from solver.replay import checked, replay
from solver.result import Limits, Verdict
from solver.search import line_cost
from solver.table import object_bytes

FAMILY = FAMILIES[0]
VARIANTS = [variant.name for variant in FAMILY.variants]
OPTION_NAMES = ("gather", "queen_any_depot", "compulsory", "any_suit", "ace_any_place", "skip_complete")
ALL_OPTIONS = [
    dict(zip(OPTION_NAMES, values))
    for values in itertools.product(("left-to-right", "right-to-left"), *[(False, True)] * 5)
]
DEFAULTS = ALL_OPTIONS[0]  # Parlett's rules: gather left to right, no other option
#: PySolFC's Amazons deal number 1 (the 28-card deck, first dealt first).
DEAL_1 = "QS JD 8H AC 9H 7H TD 9D 8C TS 8D 9S 7C JS AS AD QD TH AH QH 8S JH QC 9C 7S 7D JC TC"


def option_id(options: dict) -> str:
    return "-".join([options["gather"][:1]] + [name[:4] for name in OPTION_NAMES[1:] if options[name]])


def variant_game(variant: str) -> Amazons:
    return Amazons(**FAMILY.settings(variant))


def as_pairs(cards):
    return [(c.rank, c.suit) for c in cards]


def as_brute_state(state):
    """The brute force's form of an engine layout: (rank, suit) pairs."""
    depots, stock, foundations = state

    def pairs(codes):
        return tuple((CARDS[c].rank, CARDS[c].suit) for c in codes)

    return tuple(map(pairs, depots)), pairs(stock), tuple(map(pairs, foundations))


def texts(game, state):
    return [game.describe_move(state, m) for m in game.moves(state)]


def play(game, state, *moves):
    for text in moves:
        state = game.apply(state, game.parse_move(state, text))
    return state


# ----- agreement with the brute force on small decks ---------------------------------------------


@st.composite
def small_games(draw, max_cards=9):
    """(ranks, suits, piles, shuffled deck): at most ``max_cards`` cards, 1 to 4 piles (fewer
    piles than suits leaves some suit without a place: never won, but the fewest cards left
    still counts)."""
    n_ranks = draw(st.integers(2, 4))
    n_suits = draw(st.integers(1, 4))
    while n_ranks * n_suits > max_cards:
        n_suits -= 1
    higher = draw(st.sets(st.sampled_from(STRIPPED_RANKS[1:]), min_size=n_ranks - 1, max_size=n_ranks - 1))
    ranks = (1,) + tuple(sorted(higher))
    suits = draw(st.permutations("CDHS"))[:n_suits]
    piles = draw(st.integers(1, 4))
    cards = [Card(rank, suit) for suit in suits for rank in ranks]
    deal = draw(st.permutations(cards))
    return ranks, suits, piles, list(deal)


def agree(options, ranks, piles, deal):
    """The engine's verdict and fewest cards left equal the brute force's; its line replays."""
    ruleset = Amazons(**options, ranks=ranks, piles=piles)
    start = ruleset.start(deal)
    result = engine_of(ruleset).depth_first(start)
    assert result.verdict is not Verdict.UNKNOWN
    won, fewest_left = Brute(ranks, piles, **options).solve(as_pairs(deal))
    assert (result.verdict is Verdict.WON) == won
    assert result.best_score == fewest_left
    checked(ruleset, start, result)


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=option_id)
def test_every_option_combination_agrees_with_brute_force(options):
    """Every one of the 64 option combinations, on a few fixed small decks."""
    rng = random.Random(option_id(options))
    for ranks, suits, piles in (((1, 7, 8), "CD", 2), ((1, 9), "CDH", 3), ((1, 8, 12), "SH", 3), ((1, 7), "CD", 4)):
        cards = [Card(rank, suit) for suit in suits for rank in ranks]
        for _ in range(2):
            rng.shuffle(cards)
            agree(options, ranks, piles, cards)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(ALL_OPTIONS), game=small_games(max_cards=7))
def test_engine_agrees_with_brute_force(options, game):
    ranks, _, piles, deal = game
    agree(options, ranks, piles, deal)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(ALL_OPTIONS), game=small_games(max_cards=7))
def test_fewest_redeals_is_minimal(options, game):
    """IDA* (iterative_deepening) wins with exactly the fewest redeals a 0-1 BFS finds."""
    ranks, _, piles, deal = game
    ruleset = Amazons(**options, ranks=ranks, piles=piles)
    start = ruleset.start(deal)
    result = engine_of(ruleset).iterative_deepening(start)
    brute = Brute(ranks, piles, **options)
    fewest = brute.fewest_redeals(brute.start(as_pairs(deal)))
    assert result.verdict is not Verdict.UNKNOWN
    assert (result.verdict is Verdict.WON) == (fewest is not None)
    if fewest is not None:
        assert replay(ruleset, start, result.solution).illegal_at is None
        assert line_cost(ruleset, start, result.solution) == fewest


# Slow (150 games against the brute force, ~12 s) and kept so: an inadmissible bound loses wins.
@pytest.mark.one_engine  # the ruleset's bounds against the brute force: no search
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(ALL_OPTIONS), game=small_games(max_cards=8), data=st.data())
def test_bounds_are_admissible(options, game, data):
    """At layouts along a random walk, the lower bound never exceeds the fewest cards left from
    there, nor the redeal bound the fewest redeals of a win."""
    ranks, _, piles, deal = game
    ruleset = Amazons(**options, ranks=ranks, piles=piles)
    brute = Brute(ranks, piles, **options)
    states = [
        state for state, _ in walk(ruleset, ruleset.start(deal), data.draw(st.lists(st.integers(0, 9), max_size=30)))
    ]
    for state in states[:: max(1, len(states) // 4)]:
        _, fewest_left = brute.solve_from(as_brute_state(state))
        assert ruleset.lower_bound(state) <= fewest_left
        fewest = brute.fewest_redeals(as_brute_state(state))
        if fewest is not None:
            assert ruleset.cost_to_win_bound(state) <= fewest


class DeepBound(Amazons):
    """Amazons whose redeal bound looks as far ahead as it can (a cap of 12, not 4), with a
    cache small enough to be emptied often."""

    def __init__(self, **options):
        super().__init__(**options)
        self.deep = RedealBound(self, cap=12, max_bytes=4000)

    def cost_to_win_bound(self, state):
        return self.deep(state)

    def cost_to_win_cap(self):
        return self.deep.most

    def kernel(self):
        """The compiled twin of this bound: the same cap, a cache of 4,000 bytes (500 slots)."""
        from rulesets._amazons import AmazonsKernel

        return AmazonsKernel(
            self.ranks,
            self.piles,
            self.gather == "left-to-right",
            self.queen_any_depot,
            self.compulsory,
            self.any_suit,
            self.ace_any_place,
            self.skip_complete,
            12,
            4000,
        )


@pytest.mark.one_engine  # the bounds are the rulesets' Python, whichever engine searches
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(ALL_OPTIONS), game=small_games(max_cards=8), data=st.data())
def test_a_deeper_redeal_bound_stays_admissible_and_no_lower(options, game, data):
    """Along a random walk, the bound with a higher cap and a tiny cache is at least the default
    one and at most the brute force's fewest redeals."""
    ranks, _, piles, deal = game
    ruleset = Amazons(**options, ranks=ranks, piles=piles)
    deep = DeepBound(**options, ranks=ranks, piles=piles)
    brute = Brute(ranks, piles, **options)
    start = ruleset.start(deal)
    for state, _ in walk(ruleset, start, data.draw(st.lists(st.integers(0, 9), max_size=30))):
        fewest = brute.fewest_redeals(as_brute_state(state))
        assert deep.cost_to_win_bound(state) >= ruleset.cost_to_win_bound(state)
        if fewest is not None:
            assert deep.cost_to_win_bound(state) <= fewest


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(ALL_OPTIONS), game=small_games(max_cards=8))
def test_ida_star_with_the_deeper_redeal_bound_wins_with_the_fewest_redeals(options, game):
    """IDA* with the bound of a higher cap and a tiny cache (on the compiled core, its kernel's
    twin) wins exactly where the brute force does, with its fewest redeals."""
    ranks, _, piles, deal = game
    deep = DeepBound(**options, ranks=ranks, piles=piles)
    start = deep.start(deal)
    fewest = Brute(ranks, piles, **options).fewest_redeals(as_brute_state(start))
    result = engine_of(deep).iterative_deepening(start)
    assert (result.verdict is Verdict.WON) == (fewest is not None)
    if fewest is not None:
        assert line_cost(deep, start, result.solution) == fewest


def test_the_redeal_bound_reaches_past_four_when_asked():
    """Deal 1 needs 9 or more redeals: after its first twelve moves, a cap of 6 shows more
    than the default cap of 4 allows, and the cache's bytes are counted honestly: the dict,
    each key and each value pair, never more than its bound."""
    game = variant_game("amazons")
    state = game.start(FAMILY.seeded_deal(1))
    state = walk(game, state, [0] * 12)[-1][0]  # the state after the walk's last move
    deep = RedealBound(game, cap=6, max_bytes=1 << 20)
    assert game.cost_to_win_bound(state) <= 4 < deep(state)
    cache = deep._cache
    assert deep.approximate_bytes() == sys.getsizeof(cache) + sum(  # each object as the allocator rounds it
        object_bytes(k) + object_bytes(v) for k, v in cache.items()
    )
    small = RedealBound(game, cap=6, max_bytes=20_000)
    assert small(state) == deep(state)
    assert small.approximate_bytes() <= sys.getsizeof(small._cache) + 20_000


@pytest.mark.one_engine  # RedealBound is the ruleset's Python: no search here
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["amazons", "amazons-mms"]), seed=st.integers(1, 10**6), data=st.data())
def test_the_look_ahead_learnt_by_group_changes_no_bound(variant, seed, data):
    """Along random walks through a full deal, a bound that has learnt from every state before
    (its look-ahead cached by group, see RedealBound._group_key) gives each state the bound a
    fresh one gives it."""
    game = variant_game(variant)
    learnt = RedealBound(game)
    start = game.start(FAMILY.seeded_deal(seed))
    for _ in range(3):
        for state, _ in walk(game, start, data.draw(st.lists(st.integers(0, 9), min_size=20, max_size=60))):
            assert learnt(state) == RedealBound(game)(state)


class Unbounded(Amazons):
    """Amazons searched with no lower bound (by the Python engine: the kernel has the bound)."""

    kernel = None

    def lower_bound(self, state):
        return 0


def test_the_bound_changes_no_answer_on_full_compulsory_deals():
    """Under ``compulsory`` most full deals are lost, so the search is exhaustive either way: the
    verdict and fewest cards left are the same with and without the bound, in fewer states."""
    settings = FAMILY.settings("amazons", ["compulsory=yes"])
    bounded, unbounded = Amazons(**settings), Unbounded(**settings)
    states = {True: 0, False: 0}
    verdicts = set()
    for seed in range(1, 31):
        deal = FAMILY.seeded_deal(seed)
        answers = []
        for game, pruned in ((bounded, True), (unbounded, False)):
            result = checked(game, game.start(deal), engine_of(game).depth_first(game.start(deal)))
            answers.append((result.verdict, result.best_score))
            states[pruned] += result.stats.nodes
        assert answers[0] == answers[1], seed
        verdicts.add(answers[0][0])
    assert verdicts == {Verdict.WON, Verdict.LOST}
    assert states[True] < states[False] / 2


def test_a_card_pinned_to_d1_that_can_never_go_up_bounds_the_score():
    """7D at the bottom of D1 with clubs on F1 returns to D1 after every left-to-right redeal: it
    and 8D can never go up, so at least 2 cards stay; the brute force agrees it is exactly 2."""
    ranks, piles = (1, 7, 8), 2
    ruleset = Amazons(ranks=ranks, piles=piles)
    state = ruleset.start(parse_cards("7D AC AD 7C 8C 8D"))
    for text in ("AC to F1", "deal", "AD to F2"):
        assert ruleset.parse_move(state, text) in ruleset.moves(state)
        state = play(ruleset, state, text)
    assert state.depots[0][0] == parse_cards("7D")[0].code
    assert ruleset.lower_bound(state) == 2
    assert Brute(ranks, piles, **DEFAULTS).solve_from(as_brute_state(state)) == (False, 2)
    assert Amazons(gather="right-to-left", ranks=ranks, piles=piles).lower_bound(state) == 0


def test_a_card_stuck_this_pass_and_dealt_to_the_wrong_column_next_pass_needs_two_redeals():
    """Diamonds on F1, clubs bound for F2. 7D lies in D2's column this pass, so 8D and it stay;
    8C and 7C fall to D1's column, so both stay too; only AC may go up. Next pass the stock is
    8D 8C 7C AC 7D or 8D 8C 7C 7D (left to right): 7C is third either way, dealt to D1 again, so
    it stays a second pass. The bound is 2; the brute force agrees it is exactly 2."""
    ranks, piles = (1, 7, 8), 2
    ruleset = Amazons(ranks=ranks, piles=piles)
    start = ruleset.start(parse_cards("8D AD 8C AC 7C 7D"))
    state = play(ruleset, start, "AD to F1")
    assert ruleset.cost_to_win_bound(state) == 2
    brute = Brute(ranks, piles, **DEFAULTS)
    assert brute.fewest_redeals(as_brute_state(state)) == 2
    assert ruleset.cost_to_win_bound(play(ruleset, state, "deal")) == 2
    result = engine_of(ruleset).iterative_deepening(start)
    assert line_cost(ruleset, start, result.solution) == brute.fewest_redeals(as_brute_state(start))


def test_no_choice_of_plays_this_pass_lets_the_next_two_passes_win():
    """Diamonds on F1, clubs bound for F2 (2 piles, A 7 8 9). This pass D1's column gets AC 8C
    7C and D2's 8D 7D 9D 9C: only AC can go up. Whether it does or not, some card lies in the
    wrong column next pass, and whatever goes up then, again the pass after. The bound is 3;
    the brute force agrees it is exactly 3."""
    ranks, piles = (1, 7, 8, 9), 2
    ruleset = Amazons(ranks=ranks, piles=piles)
    start = ruleset.start(parse_cards("AD 8D AC 7D 8C 9D 7C 9C"))
    state = play(ruleset, start, "AD to F1")
    assert ruleset.cost_to_win_bound(state) == 3
    brute = Brute(ranks, piles, **DEFAULTS)
    assert brute.fewest_redeals(as_brute_state(state)) == 3
    result = engine_of(ruleset).iterative_deepening(start)
    assert line_cost(ruleset, start, result.solution) == brute.fewest_redeals(as_brute_state(start))


def test_each_thread_has_its_own_redeal_bound_and_its_cache_is_counted():
    """The look-ahead's cache belongs to one thread's bound, and its size grows as it fills."""
    game = variant_game("amazons")
    bound = game.redeal_bound()
    assert game.redeal_bound() is bound
    empty = bound.approximate_bytes()
    start = game.start(FAMILY.seeded_deal(1))
    for state, _ in walk(game, start, [0] * 40):
        game.cost_to_win_bound(state)
    assert bound.approximate_bytes() > empty + 1000
    others = []
    thread = threading.Thread(target=lambda: others.append(game.redeal_bound()))
    thread.start()
    thread.join()
    assert others[0] is not bound and others[0].approximate_bytes() == empty


def bound_cache(game, engine):
    """How to read the redeal bound cache the last search used: (the bytes it was held to, the
    bytes it holds). The Python engine's is the thread's RedealBound; the compiled engine makes a
    kernel per search, so ``game.kernel`` is wrapped to keep the last one."""
    if engine == "python":
        bound = game.redeal_bound()
        return lambda: (bound.max_bytes, bound.approximate_bytes())
    made = []
    make = game.kernel

    def kept():
        made.append(make())
        return made[-1]

    game.kernel = kept
    return lambda: (made[-1].bound_cache_limit, made[-1].probe_bound_cache_bytes())


def test_max_memory_bounds_the_redeal_bound_cache_and_the_answer_stands(engine):
    """A quarter of --max-memory goes to the look-ahead's cache: under a small bound it stays
    within that share while in use (its entries counted in the reported peak), and IDA* still
    proves the fewest redeals (8, as with the default cache, which grows past that share here:
    200 KB of dict in Python, 64 KB of slots compiled)."""
    ranks = (1, 7, 8, 9, 10)
    game = Amazons(ranks=ranks)
    cache = bound_cache(game, engine)
    start = game.start(parse_cards("8S AH 8D AC 9C 8H TH TS 7S 7H 9H AD 9S TC 7C 8C 7D TD 9D AS"))
    result = checked(game, start, engine_of(game).iterative_deepening(start, limits=Limits(max_memory=100_000)))
    limit, held = cache()
    assert limit == 25_000
    assert (sys.getsizeof({}) if engine == "python" else 0) < held <= 25_000  # the dict's own table counted too
    assert result.limit is None and line_cost(game, start, result.solution) == 8
    assert result.stats.peak_table_bytes >= held
    assert engine_of(game).iterative_deepening(start, limits=Limits(max_memory=1 << 30)).limit is None
    limit, held = cache()
    if engine == "python":
        assert limit == RedealBound.MAX_BYTES and held > 200_000
    else:
        from rulesets._amazons import CACHE_BYTES

        assert limit == CACHE_BYTES and held > 25_000


# ----- properties of every move -----------------------------------------------------------------


@pytest.mark.one_engine  # the rules: no search
@settings(max_examples=250, deadline=None)
@given(
    options=st.sampled_from(ALL_OPTIONS[::7]),
    seed=st.integers(1, 10**6),
    choices=st.lists(st.integers(0, 20), max_size=150),
)
def test_every_move_keeps_the_rules(options, seed, choices):
    """Cards conserved; foundations ascend (in suit); Aces take the leftmost empty place; a card
    goes only from Di to Fi (Queens excepted under queen_any_depot); deals obey compulsion."""
    ruleset = Amazons(**options)
    deal = FAMILY.seeded_deal(seed)
    deck = sorted(c.code for c in deal)
    order = list(STRIPPED_RANKS)
    for state, move in walk(ruleset, ruleset.start(deal), choices):
        assert cards_of(state) == deck
        for place in state.foundations:
            if place:
                assert RANK[place[0]] == 1
                assert [order.index(RANK[c]) for c in place] == list(range(len(place)))
                if not options["any_suit"]:
                    assert len({CARDS[c].suit for c in place}) == 1
        moves = ruleset.moves(state)
        if options["compulsory"] and any(isinstance(m, Play) for m in moves):
            assert DEAL not in moves
        if isinstance(move, Play):
            rank = RANK[state.depots[move.source][-1]]
            if rank == 1:
                empty = [i for i, f in enumerate(state.foundations) if not f]
                assert move.target in (empty if options["ace_any_place"] else empty[:1])
            elif not (options["queen_any_depot"] and rank == 12):
                assert move.source == move.target


def cards_of(state):
    depots, stock, foundations = state
    return sorted(list(stock) + [c for d in depots for c in d] + [c for f in foundations for c in f])


def test_deal_and_redeal_follow_the_rules():
    ruleset = Amazons()
    state = ruleset.start(parse_cards(DEAL_1))
    assert [format_cards(CARDS[c] for c in d) for d in state.depots] == ["QS", "JD", "8H", "AC"]
    for _ in range(6):
        state = play(ruleset, state, "deal")
    # six more deals: 24 cards dealt in all, the last four in the seventh deal
    assert state.stock == ()
    assert [len(d) for d in state.depots] == [7, 7, 7, 7]
    assert format_cards(CARDS[c] for c in state.depots[0]) == "QS 9H 8C 7C QD 8S 7S"
    for gather, first in (("left-to-right", "QS 9H 8C 7C QD 8S 7S JD"), ("right-to-left", "AC 9D 9S AD QH 9C TC 8H")):
        game = Amazons(gather=gather)
        moves = game.moves(state)
        assert moves[-1] is REDEAL and game.describe_move(state, REDEAL) == "redeal"
        gathered = game.apply(state, REDEAL)
        assert gathered.depots == ((),) * 4
        assert format_cards(CARDS[c] for c in gathered.stock[:8]) == first
        assert game.moves(gathered) == [DEAL] and texts(game, gathered) == ["deal"]


def test_a_short_last_deal_goes_left_to_right_and_skip_complete_skips():
    ruleset = Amazons(ranks=(1, 7, 8), piles=2)
    assert ruleset.start(parse_cards("AC AD 7C 7D 8C 8D")).depots == ((0,), (13,))
    for skip, after in ((True, ["", "AD", "7D"]), (False, ["AD", "7D", ""])):
        game = Amazons(ranks=(1, 7), piles=3, skip_complete=skip)
        state = play(
            game, game.start(parse_cards("AC AD 7D 7C")), "AC to F1", "deal", "7C from D1 to F1", "redeal", "deal"
        )
        # F1 is complete: with skip_complete the deal passes D1 by
        assert [format_cards(CARDS[c] for c in d) for d in state.depots] == after


def test_queen_from_any_depot_and_any_suit():
    deal = parse_cards("AC AD 7C 7D")
    plain = Amazons(ranks=(1, 7), piles=2)
    mms = Amazons(ranks=(1, 7), piles=2, queen_any_depot=True)
    for game, wanted in ((plain, False), (mms, True)):
        state = play(game, game.start(deal), "AD to F1", "AC to F2", "deal")
        # 7C is on D1 under F1 (diamonds); 7D is on D2 under F2 (clubs)
        assert ("7C from D1 to F2" in texts(game, state)) == wanted
        assert ("7D from D2 to F1" in texts(game, state)) == wanted
    anysuit = Amazons(ranks=(1, 7), piles=2, any_suit=True)
    state = play(anysuit, anysuit.start(deal), "AC to F1", "AD to F2", "deal")
    assert texts(anysuit, state) == ["7C from D1 to F1", "7D from D2 to F2", "redeal"]


def test_aces_fill_places_in_the_order_played():
    deal = parse_cards("7C AD 8C AS " + "QS JD 8H AC 9H 7H TD 9D TS 8D 9S 7S JS QC QD TH AH QH 8S JH 9C 7D JC TC")
    game = Amazons()
    state = game.start(deal)
    assert texts(game, state) == ["AD to F1", "AS to F1", "deal"]
    state = play(game, state, "AS to F1")
    assert texts(game, state) == ["AD to F2", "deal"]
    free = Amazons(ace_any_place=True)
    assert len([m for m in free.moves(free.start(deal)) if isinstance(m, Play)]) == 8


@pytest.mark.one_engine  # RedealBound is the ruleset's Python: no search here
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["amazons", "amazons-mms"]), seed=st.integers(1, 10**6), data=st.data())
def test_the_look_ahead_learnt_by_group_tells_foundation_places_apart(variant, seed, data):
    """States alike but for which suit each foundation place builds (the same cards left, the
    places swapped) may need other redeals, as each depot feeds only its own place: a bound that
    has learnt from one gives the other what a fresh bound gives (the group key holds the tops)."""
    game = variant_game(variant)
    learnt = RedealBound(game)
    start = game.start(FAMILY.seeded_deal(seed))
    for state, _ in walk(game, start, data.draw(st.lists(st.integers(0, 9), min_size=20, max_size=60))):
        for i, j in itertools.combinations(range(len(state.foundations)), 2):
            places = list(state.foundations)
            places[i], places[j] = places[j], places[i]
            swapped = state._replace(foundations=tuple(places))
            learnt(state)
            assert learnt(swapped) == RedealBound(game)(swapped)
