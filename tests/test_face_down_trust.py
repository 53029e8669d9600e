"""The face-down answers as a hostile tester met them (issue 50): a budget that a large
``--samples`` or a dear ``--relaxed`` once escaped, more orders asked giving a worse answer, and
messages that misled."""

from __future__ import annotations

import json
import math

import pytest

from solver.result import Limits
from solver.service.chances import judge
from solver.service.setup import Setup
from tests.helpers import error_line, measured, run_cli

#: Thirteens with no move left: each order's search expands nothing, so only a floor cost per
#: order keeps the budget counting (9,223,372,036,854,775,807 orders once ran without end).
NO_MOVE = "places: JD / JC / JH / JS / QD / QC / QH / QS / TD / TC | stock: {42}"
#: Baroness deal 26 two deals from its end: 12 cards face down, 479,001,600 orders.
TWO_DEALS_26 = (
    "piles: 5S 5H JS / QS 2D / 2C 6H QD 4S JH / 7H 6D / JD 7D 4H | grace: - | stock: {12} | out: AC 4C 5C 6C 7C 8C "
    "TC JC QC KC 4D 5D 9D KD 2H 3H 9H QH AS 3S 6S 7S 8S TS KS"
)


@pytest.mark.one_engine
@pytest.mark.parametrize("samples", ["300000", str(2**63 - 1)])
def test_orders_that_expand_nothing_still_spend_the_default_budget(samples: str) -> None:
    run = measured(["solve", "thirteens", "--position", NO_MOVE, "--samples", samples, "--json"], timeout=60)
    assert run.code == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["orders_limit"] == "budget" and record["orders"] < int(samples)
    assert record["played_orders"] <= record["orders"]
    assert run.seconds < 20, run.seconds  # about the budget's five seconds, not without end


@pytest.mark.one_engine
def test_under_max_nodes_a_large_sample_keeps_the_orders_share_of_states() -> None:
    """--max-nodes bounds each search; the orders as a whole keep their share, so that a large
    --samples of orders that expand nothing ends."""
    run = measured(["solve", "thirteens", "--position", NO_MOVE, "--samples", str(2**63 - 1), "--max-nodes", "5"])
    assert run.code == 0, run.stderr
    assert "the default budget was spent before every order" in run.stdout


@pytest.mark.one_engine
@pytest.mark.parametrize("samples", [math.factorial(12) - 1, math.factorial(12), 10**12])
def test_asking_for_every_order_of_twelve_cards_draws_them_as_a_smaller_sample_would(samples: int) -> None:
    """12! orders do not fit the budget: they are drawn as any sample is, never walked from the
    first to give '0.0% to 100.0%' (the same answer for 12! - 1, 12! and more)."""
    setup = Setup.of("baroness")
    judged = judge(setup, setup.concealed(TWO_DEALS_26), Limits(), samples=samples)
    worth = judged.worth
    assert not worth.every and worth.orders < 10**6
    share, low, high = worth.clairvoyant()
    assert share is not None and high - low < 0.05


@pytest.mark.one_engine
def test_a_relaxed_reach_beyond_the_budget_is_said_in_one_line_before_any_work() -> None:
    run = measured(["solve", "parlett", "--position", "row: KC | stock: {51}", "--relaxed", "64", "--json"])
    record = json.loads(run.stdout)
    assert record["relaxed_limit"] == "reach" and record["relaxed_orders"] == 0 and record["relaxed"] is None
    text = run_cli("solve", "parlett", "--position", "row: KC | stock: {51}", "--relaxed", "12").stdout
    assert "not walked: its V needs the exact chance of 12 cards face down," in text
    assert "(give --relaxed 9 or less, or --max-seconds)" in text
    assert run.seconds < 8 and run.peak < 300 * 2**20, run  # the rest of the answer alone


def test_the_relaxed_walk_counts_its_crossings_and_its_memory(engine: str) -> None:
    """The walk's crossings count as states (its share in states is spent), and its tables count
    against --max-memory (a small bound stops it there)."""
    setup = Setup.of("parlett")
    position = setup.concealed("row: KC | stock: {51}")
    limits = Limits(max_memory=2**20, max_seconds=1.0)
    judged = judge(setup, position, limits, samples=20, relaxed_reach=4)
    assert judged.relaxed is not None and judged.relaxed.limit in ("max_memory", "max_seconds")


@pytest.mark.one_engine
@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "row: 2S stock: {51}",
            "the parlett position's 'row' section holds 'stock:': put a '|' before it ('row: ... | stock: ...')",
        ),
        ("row: 2S", "the parlett position needs a 'stock' section too: sections are row, stock, separated by '|'"),
    ],
)
def test_a_position_missing_its_stock_says_how_to_write_it(text: str, says: str) -> None:
    assert error_line(run_cli("solve", "parlett", "--position", text)) == f"patience: error: {says}"


@pytest.mark.one_engine
def test_describe_a_variant_opens_with_its_own_rules_and_help_writes_options_as_options() -> None:
    described = run_cli("describe", "parlett").stdout
    assert described.startswith("parlett: compulsory (Parlett 1979), a variant of accordion\n")
    assert "compulsory=yes: deal the next card only when no move is available" in described.split("\n\n")[0]
    helped = run_cli("deal", "--help").stdout
    assert "``" not in helped and "as_seen" not in helped and "--as-seen" in helped


@pytest.mark.one_engine
def test_an_exact_search_stopped_by_its_memory_says_to_raise_the_memory() -> None:
    position = "row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C 9H KD 7S 3S 9S 2C {3H 4C AH 2H JC 5H 8C 4S 5S 5C}"
    text = run_cli("solve", "parlett", "--position", position, "--max-memory", "1M", "--max-seconds", "5").stdout
    assert "(the exact search filled --max-memory: raise it for the exact chance)" in text
    assert "raise --max-seconds or --max-nodes" not in text
