"""The search engine on toy games given as explicit graphs: DFS, IDA*, limits, the memory bound."""

import heapq
import random
import sys
import time
from dataclasses import dataclass

import pytest
from helpers import GraphGame, chain, graphs, reachable_states, reference_deal
from hypothesis import given
from hypothesis import strategies as st

from solver.engine import engine_of
from solver.errors import UserError
from solver.replay import IllegalLine, checked, replay
from solver.result import LimitError, Limits, SearchResult, Stats, Verdict
from solver.search import line_cost
from solver.table import TableMemory, TranspositionTable, ValueTable, dict_bytes, set_bytes


def cheapest_win(game, start=0):
    """Dijkstra over move costs: the least cost of reaching a won state, or None."""
    best, queue = {start: 0}, [(0, start)]
    while queue:
        cost, node = heapq.heappop(queue)
        if game.is_won(node):
            return cost
        if cost > best[node]:
            continue
        for target, step in game.moves(node):
            if cost + step < best.get(target, 1 << 30):
                best[target] = cost + step
                heapq.heappush(queue, (cost + step, target))
    return None


@given(graphs())
def test_depth_first_finds_a_win_exactly_when_one_is_reachable(game):
    result = checked(game, 0, engine_of(game).depth_first(0))
    states = reachable_states(game, 0)
    assert result.best_score == min(game.scores[s] for s in states)
    assert (result.verdict is Verdict.WON) == any(game.is_won(s) for s in states)
    assert result.verdict is not Verdict.UNKNOWN
    assert replay(game, 0, result.best_line).final in states


@given(graphs())
def test_iterative_deepening_finds_the_cheapest_win(game):
    result = checked(game, 0, engine_of(game).iterative_deepening(0))
    cheapest = cheapest_win(game)
    if cheapest is None:
        assert result.verdict is Verdict.LOST
        assert result.best_score == min(game.scores[s] for s in reachable_states(game, 0))
    else:
        assert result.verdict is Verdict.WON
        assert sum(game.move_cost(None, move) for move in result.solution) == cheapest


@dataclass(frozen=True)
class BoundedGraphGame(GraphGame):
    """A graph game whose lower bound is exact: the least score reachable from a node."""

    def lower_bound(self, state):
        return min(self.scores[node] for node in reachable_states(self, state))


@dataclass(frozen=True)
class CappedCostGraphGame(GraphGame):
    """A graph game whose cost bound is the cheapest win from a node, capped at ``most``, which
    it declares as its cap (or, with ``declared``, some other number)."""

    most: int = 2
    declared: int | None = None

    def cost_to_win_bound(self, state):
        return min(cheapest_win(self, state) or 0, self.most)

    def cost_to_win_cap(self):
        return self.most if self.declared is None else self.declared


@given(graphs(), st.integers(0, 4))
def test_iterative_deepening_asks_no_cost_bound_that_could_not_cut(game, most):
    """Not asking for the cost bound where even its cap would not cut a state changes nothing:
    the same line, states and passes as asking everywhere (a cap declared too high)."""
    capped = CappedCostGraphGame(game.edges, game.scores, most)
    asked = CappedCostGraphGame(game.edges, game.scores, most, declared=1 << 30)
    untimed = [
        result._replace(stats=result.stats._replace(seconds=0.0))
        for result in (engine_of(capped).iterative_deepening(0), engine_of(asked).iterative_deepening(0))
    ]
    assert untimed[0] == untimed[1]


@given(graphs())
def test_iterative_deepening_skips_what_cannot_win_and_still_finds_the_cheapest(game):
    bounded = BoundedGraphGame(game.edges, game.scores)
    result = checked(bounded, 0, engine_of(bounded).iterative_deepening(0))
    cheapest = cheapest_win(game)
    assert (result.verdict is Verdict.WON) == (cheapest is not None)
    if cheapest is not None:
        assert line_cost(bounded, 0, result.solution) == cheapest
    else:
        assert result.best_score == min(game.scores[s] for s in reachable_states(game, 0))


def test_a_limit_after_the_win_is_known_keeps_the_win_and_names_the_limit():
    """A cheap win far down one branch, a dear one at once on the other: the depth-first search
    finds the dear one first; IDA* runs out of nodes before the cheap one."""
    edges = {0: [(1, 5), (2, 0)]}
    edges.update({i: [(i + 1, 0)] for i in range(2, 3000)})
    scores = {i: 1 for i in range(3001)}
    scores[1] = scores[3000] = 0
    game = GraphGame(edges, scores)
    assert line_cost(game, 0, engine_of(game).iterative_deepening(0).solution) == 0
    result = checked(game, 0, engine_of(game).iterative_deepening(0, limits=Limits(max_nodes=1000)))
    assert result.verdict is Verdict.WON and result.limit == "max_nodes"
    assert line_cost(game, 0, result.solution) == 5 and result.least_cost_floor == 0


def test_iterative_deepening_holds_one_table_at_a_time(monkeypatch):
    """The depth-first search's table is let go once the first pass's is made: kept through the
    passes beside theirs, the two would hold up to twice what --max-memory allows."""
    import weakref

    import solver.search as search

    searched: list[weakref.ref[TranspositionTable]] = []
    alive_at_pass: list[bool] = []

    class Searched(TranspositionTable):
        def __init__(self, memory: TableMemory | None = None) -> None:
            super().__init__(memory)
            searched.append(weakref.ref(self))

    class Pass(ValueTable):
        def __init__(self, memory: TableMemory | None = None) -> None:
            super().__init__(memory)
            alive_at_pass.append(any(table() is not None for table in searched))

    monkeypatch.setattr(search, "TranspositionTable", Searched)
    monkeypatch.setattr(search, "ValueTable", Pass)
    scores = {0: 1, 1: 0, 2: 1, 3: 1, 4: 0}  # won at 1 for 5, found first; at 4 for 2, by the third pass
    game = GraphGame({0: [(1, 5), (2, 1)], 2: [(3, 1)], 3: [(4, 0)]}, scores)
    assert line_cost(game, 0, search.iterative_deepening(game, 0).solution) == 2
    assert alive_at_pass == [True, False, False]  # still named while the first pass's table is made


@given(graphs(), st.integers(1, 12))
def test_a_cut_cheapest_win_search_keeps_a_true_floor(game, max_nodes):
    result = checked(game, 0, engine_of(game).iterative_deepening(0, limits=Limits(max_nodes=max_nodes)))
    if result.verdict is Verdict.WON and result.limit is not None:
        assert result.least_cost_floor <= cheapest_win(game) <= line_cost(game, 0, result.solution)


@given(graphs(), st.sampled_from([1, 2, 3, 5, None]), st.sampled_from([None, 1200, 2400]))
def test_restarts_and_evictions_never_change_the_answer(game, restart_nodes, max_memory):
    unbounded = engine_of(game).depth_first(0, restart_nodes=None)
    result = checked(
        game, 0, engine_of(game).depth_first(0, limits=Limits(max_memory=max_memory), restart_nodes=restart_nodes)
    )
    assert (result.verdict, result.best_score) == (unbounded.verdict, unbounded.best_score)


def test_restarts_happen_and_keep_the_searched_states():
    game = GraphGame(
        {i: [(j, 1) for j in range(i + 1, min(i + 4, 400))] for i in range(400)}, {i: 5 for i in range(400)}
    )
    result = engine_of(game).depth_first(0, restart_nodes=2)
    assert result.verdict is Verdict.LOST and result.stats.iterations > 10
    assert result.stats.nodes < 2 * 400 + 10 * result.stats.iterations


@given(graphs(), st.integers(1, 3))
def test_a_tiny_memory_bound_evicts_but_never_changes_the_answer(game, kilobytes):
    unbounded = engine_of(game).depth_first(0)
    bounded = checked(game, 0, engine_of(game).depth_first(0, limits=Limits(max_memory=kilobytes * 1024)))
    assert (bounded.verdict, bounded.best_score) == (unbounded.verdict, unbounded.best_score)


def test_cycles_terminate_and_prove_the_loss():
    game = chain(5000, cyclic=True)
    result = engine_of(game).depth_first(0)
    assert result.verdict is Verdict.LOST
    assert result.best_score == 1 and len(result.best_line) == 4999
    assert engine_of(chain(200, cyclic=True)).iterative_deepening(0).verdict is Verdict.LOST


def test_memory_bound_is_honoured_and_keeps_the_path():
    fan = GraphGame({0: [(i, 1) for i in range(1, 20001)]}, {i: 5 for i in range(20001)})
    result = engine_of(fan).depth_first(0, limits=Limits(max_memory=64 * 1024))
    assert result.verdict is Verdict.LOST and result.stats.evictions > 0
    assert result.stats.peak_table_bytes <= 64 * 1024 * 1.5
    deep = engine_of(chain(3000, cyclic=True)).depth_first(0, limits=Limits(max_memory=16 * 1024))
    assert deep.verdict is Verdict.LOST and deep.best_score == 1 and deep.stats.evictions > 0


@pytest.mark.parametrize("search, depth", [("depth_first", 600), ("iterative_deepening", 30)])
def test_node_limit_answers_unknown_never_lost_and_keeps_the_best_found(search, depth):
    game = chain(50000)
    result = checked(game, 0, getattr(engine_of(game), search)(0, limits=Limits(max_nodes=700)))
    assert result.verdict is Verdict.UNKNOWN and result.limit == "max_nodes"
    assert result.stats.nodes == 700
    assert result.best_score < 50000 - depth and len(result.best_line) == 50000 - result.best_score


@pytest.mark.parametrize("search", ["depth_first", "iterative_deepening"])
def test_the_node_limit_is_the_number_of_states_expanded(search):
    game = chain(10)
    run = getattr(engine_of(game), search)
    assert run(0, limits=Limits(max_nodes=10)).verdict is Verdict.LOST
    for limit in (1, 9):
        result = run(0, limits=Limits(max_nodes=limit))
        assert (result.verdict, result.stats.nodes) == (Verdict.UNKNOWN, limit)


@pytest.mark.parametrize(
    "limits",
    [
        {"max_nodes": 0},
        {"max_seconds": -1.0},
        {"max_memory": 0},
        {"max_seconds": float("nan")},
        {"max_seconds": float("inf")},
        {"max_nodes": float("-inf")},
    ],
)
def test_limits_must_be_positive_and_finite_and_say_so_as_the_users_error(limits):
    with pytest.raises(LimitError, match=r"^--max-\w+ must be positive and finite, not .*: give e\.g\. --max-"):
        Limits(**limits)
    with pytest.raises(LimitError):  # a changed copy is checked as a new one is
        Limits(max_nodes=5)._replace(**limits)
    assert issubclass(LimitError, UserError)


class Endless(GraphGame):
    """An unbounded chain: state n leads to n + 1, never won (no graph to compile: the Python
    engine searches it on both)."""

    kernel = None

    def moves(self, state):
        return [(state + 1, 1)]

    def score(self, state):
        return 1

    def is_won(self, state):
        return False


def test_time_limit_answers_unknown():
    game = Endless({}, {})
    result = engine_of(game).depth_first(0, limits=Limits(max_seconds=0.05))
    assert result.verdict is Verdict.UNKNOWN and result.limit == "max_seconds"
    # and on a game both engines search: the reference file's slowest random deal (169,000 states)
    from rulesets.accordion import OpenAccordion
    from rulesets.cards import parse_cards

    accordion = OpenAccordion()
    start = accordion.start(parse_cards(reference_deal("rand-0599")))
    result = engine_of(accordion).depth_first(start, limits=Limits(max_seconds=0.002))
    assert result.verdict is Verdict.UNKNOWN and result.limit == "max_seconds" and result.stats.seconds >= 0.002


def test_win_at_the_start_and_deep_wins():
    assert engine_of(chain(3, won_at=0)).depth_first(0).verdict is Verdict.WON
    result = engine_of(chain(3000, won_at=2999)).depth_first(0)
    assert result.verdict is Verdict.WON and len(result.solution) == 2999


def test_stats_are_filled():
    result = engine_of(chain(100)).depth_first(0)
    assert result.stats.nodes == 100 and result.stats.table_entries == 100
    assert result.stats.peak_table_bytes > 0 and result.stats.seconds >= 0


def test_a_search_reports_its_own_cpu_seconds_not_the_processs():
    """``stats.seconds`` is the search's own CPU time, however much the process spent before it,
    with no time limit given: the compiled core once reported the process's whole CPU time there,
    which put every survey's CPU figures (one worker's running total a deal) out."""
    from rulesets import families
    from rulesets.amazons import Amazons
    from rulesets.baroness import Baroness

    burnt = time.process_time()
    while time.process_time() - burnt < 0.3:
        pass
    baroness, amazons = Baroness(), Amazons()
    searches = (
        lambda: engine_of(baroness).depth_first(baroness.start(families()["baroness"].seeded_deal(2))),
        # its fewest redeals: IDA*, the other search that reports its seconds
        lambda: engine_of(amazons).iterative_deepening(
            amazons.start(families()["amazons"].seeded_deal(1)), limits=Limits(max_nodes=5000)
        ),
    )
    for search in searches:
        before = time.process_time()
        result = search()
        assert 0 <= result.stats.seconds <= time.process_time() - before + 0.01


def test_the_replay_checker_rejects_a_forged_result():
    game = chain(10, won_at=9)
    forged = SearchResult(Verdict.WON, 0, ((5, 1),), Stats())
    with pytest.raises(IllegalLine, match="move 1"):
        checked(game, 0, forged)
    short = SearchResult(Verdict.WON, 0, ((1, 1),), Stats())
    with pytest.raises(IllegalLine):
        checked(game, 0, short)


def test_a_line_failing_its_replay_is_an_internal_error_not_the_users():
    assert issubclass(IllegalLine, AssertionError) and not issubclass(IllegalLine, ValueError)


def test_table_eviction_keeps_pinned_entries():
    table = TranspositionTable(TableMemory(max_bytes=8192))
    # 128 slots of 16 bytes twice (the old table beside the new while the set resizes), 216 for
    # the set, 32 per int: 5,304 bytes; 32 entries would make 256 slots, 8,408 bytes
    assert table.capacity == 31
    table.entries.update(range(31))
    assert table.full()
    table.evict([3, 5])
    assert table.entries == {3, 5} and table.memory.evictions == 1 and table.memory.peak_entries == 31


def test_value_tables_keep_the_pinned_values_and_share_the_memory_account():
    memory = TableMemory(max_bytes=8192)
    seen, costs = TranspositionTable(memory), ValueTable(memory)
    seen.entries.update(range(20))
    seen.note_size()
    assert costs.capacity is not None
    costs.entries.update((entry, 10 * entry) for entry in range(costs.capacity))
    assert costs.full() and not seen.full()
    costs.evict([3, 5])
    assert costs.entries == {3: 30, 5: 50} and memory.evictions == 1 and memory.peak_entries == costs.capacity


def test_the_container_models_hold_whatever_is_added_and_removed():
    """A set's bytes never pass set_bytes of the most it held, however entries come and go (a
    search's restarts remove its path), and a dict's are dict_bytes of its size exactly."""
    rng = random.Random(5)
    for most in (5, 40, 300, 3000, 60_000):
        entries: set[int] = set()
        held = 0
        while held < most:
            for _ in range(rng.randint(1, most)):
                entries.add(rng.getrandbits(60))
                if len(entries) == most:
                    break
            held = max(held, len(entries))
            assert sys.getsizeof(entries) <= set_bytes(held), (most, len(entries))
            for _ in range(rng.randint(0, len(entries) // 2)):
                entries.pop()
            assert sys.getsizeof(entries) <= set_bytes(held), (most, len(entries))
    values: dict[int, int] = {}
    assert sys.getsizeof(values) == dict_bytes(0)
    for size in range(1, 200_000):
        values[rng.getrandbits(60)] = 0
        assert sys.getsizeof(values) == dict_bytes(size), size


@pytest.mark.one_engine
@pytest.mark.parametrize("bound", [8192, 100_000, 300_000, 1_000_000, 3_000_000])
def test_what_a_python_table_allocates_stays_within_its_bound(bound):
    """Filled to its capacity and evicted, again and again (a set also losing entries as it
    fills, as a search's restarts remove their path), a table's set or dict and their ints never
    have more allocated at once (tracemalloc's peak) than the bound: the moment of a resize
    included, when CPython holds the old slots beside the new (a count by the container's size
    alone let 1,000,000 bytes hold 1,275,484 at once). The test's loop allocates a few hundred bytes of
    its own (tracemalloc sees everything), allowed for."""
    import tracemalloc

    rng = random.Random(bound)
    for make in (TranspositionTable, ValueTable):
        table = make(TableMemory(bound))
        assert table.capacity is not None and table.capacity > 16
        tracemalloc.start()
        for _ in range(3):
            while not table.full():
                if isinstance(table, ValueTable):
                    table.entries[rng.getrandbits(60)] = 7
                else:
                    table.entries.add(rng.getrandbits(60))
                    if rng.random() < 0.2:
                        table.entries.pop()
            table.evict([])
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak <= bound + 2048, (make.__name__, table.capacity, peak)  # 2 KiB: the loop's own


@pytest.mark.parametrize("bound", [64 * 1024, 96 * 1024, 100 * 1024, 384 * 1024, 512 * 1024, 2 * 1024**2])
def test_the_table_never_passes_the_memory_bound(bound):
    """The peak the search reports (the tables, Amazons' redeal cache lent a share) stays within
    --max-memory: a set just grown holds 4 times the slots it needs, which a count of entries at
    an average size let pass the bound by up to 1.78x (parlett 7 under 96K: 174,968 bytes)."""
    from solver.service.setup import Setup

    for variant, seed in (("parlett", 7), ("accordion", 10), ("parlett", 17)):
        setup = Setup.of("accordion", variant)
        start = setup.game.start(setup.deal(seed=seed))
        result = engine_of(setup.game).depth_first(start, limits=Limits(max_nodes=60_000, max_memory=bound))
        assert result.stats.peak_table_bytes <= bound, (variant, seed, result.stats)
        # deals 10 and 17 search over 20,000 states, more than 64K of table holds on either engine
        assert result.stats.evictions > 0 or bound > 64 * 1024 or seed == 7, (variant, seed, result.stats)
    if bound <= 100 * 1024:  # the redeal cache and IDA*'s tables fill a small bound within few nodes
        setup = Setup.of("amazons")
        start = setup.game.start(setup.deal(seed=2))
        result = engine_of(setup.game).iterative_deepening(start, limits=Limits(max_nodes=6_000, max_memory=bound))
        assert result.stats.evictions > 0 and result.stats.peak_table_bytes <= bound, result.stats


@pytest.mark.parametrize("limit", [999, 1000, 1001, 2000, 4000, 5000, 6000, 8000])
def test_a_node_limit_expands_exactly_that_many_states_even_where_a_restart_begins(limit):
    """Restart runs begin where the Luby schedule's sums of RESTART_NODES (1000) fall: the run's
    start counts too. PySolFC's Accordion deal 151 is undecided within 8000 states."""
    from rulesets.accordion import OpenAccordion
    from rulesets.deals import seeded_deal

    game = OpenAccordion()
    start = game.start(seeded_deal(151))
    result = engine_of(game).depth_first(start, limits=Limits(max_nodes=limit))
    assert result.verdict is Verdict.UNKNOWN and result.limit == "max_nodes" and result.stats.nodes == limit


def test_a_line_is_decoded_code_by_code_without_a_replay():
    """solver.engine turns a compiled line back through the game's decode, code by code, never
    playing it (the referee replays it once, after)."""
    from solver import compiled_engine

    class ByCode:
        def decode(self, code):
            return ("move", code)

        def apply(self, state, move):
            raise AssertionError("a line is decoded without playing it")

    assert compiled_engine.decoded(ByCode(), [7, 8]) == (("move", 7), ("move", 8))
