"""``--max-memory`` bounds the process, not only the tables' own account: a command's peak
resident memory stays within the bound plus the fixed overhead docs/compiled-core.md gives, on
both engines, where the tables fill the bound (the exact chance's table with its full-information
searches; a hint's proofs with each move's search), and a search the bound stops says so."""

import json
from typing import Any

from tests.helpers import measured

MIB = 2**20
#: What a process holds beside --max-memory (docs/compiled-core.md, "Memory"): the interpreter,
#: the modules and kernels a command loads, what a search holds beside its tables.
OVERHEAD = 24 * MIB


def peak_of(*args: str) -> tuple[int, dict[str, Any]]:
    """The peak resident bytes of ``patience ARGS --json``, and its record."""
    run = measured([*args, "--json"])
    assert run.code == 0, run.stderr
    return run.peak, json.loads(run.stdout)


def test_the_exact_chance_and_its_searches_keep_to_the_bound() -> None:
    """Parlett's opening with the whole stock face down fills any bound. Under 46M the value
    table grows past the point where CPython's dict moves 349,526 entries to a table twice the
    size (the compiled one held three times the bound: 804 MB under 256M)."""
    peak, record = peak_of(
        "solve", "parlett", "--position", "row: KC | stock: {51}", "--samples", "1", "--max-memory", "46M",
        "--max-seconds", "60",
    )  # fmt: skip
    assert record["chance"] is None and record["chance_limit"] == "max_memory", record
    assert peak <= 46 * MIB + OVERHEAD, peak / MIB


def test_a_hint_keeps_to_the_bound_across_its_moves() -> None:
    """Baroness-pysol deal 531's three opening moves each search far longer than their half
    second: each move's table fills its share while the last one's is gone (the compiled engine
    held a table per move and the proofs' beside it: 64 MiB under 32M)."""
    peak, record = peak_of("hint", "baroness-pysol", "--seed", "531", "--max-memory", "32M", "--max-seconds", "0.5")
    assert [move["limit"] for move in record["moves"]] == ["max_seconds"] * 3, record
    assert peak <= 32 * MIB + OVERHEAD, peak / MIB
