"""Where a command's deals come from: exactly one of ``--seed``, ``--seeds``, ``--deal``,
``--file`` and ``--position``, read one at a time (``-``: standard input). Shared by solve,
verify, hint and play."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from rulesets.cards import Card
from solver.cli.errors import UsageError, one_line, say
from solver.cli.options import DEAL, FILE, POSITION, SEED, Argument
from solver.service.inputs import STDIN, name_of, read_text, text_lines, without_bom

if TYPE_CHECKING:
    from solver.service.setup import Setup


class DealStart(NamedTuple):
    """One deal to answer: its seed (None if not seeded), its cards (None for a position), the
    state it starts from, and its line of the deal file (None if not from one)."""

    seed: int | None
    cards: list[Card] | None
    start: Any
    line: int | None = None


def one_source(given: dict[str, object]) -> None:
    """Refuse none, or more than one, of the places a command takes its deal or position from
    (``given``: each such flag the command takes, and its value: None where not given), whatever
    the position holds, before anything is read: the one check of them for every command."""
    named = [flag for flag, value in given.items() if value is not None]
    if len(named) != 1:
        *others, last = given
        got = f" (got {', '.join(named)})" if named else ""
        raise UsageError(f"give exactly one of {', '.join(others)} or {last}{got}")


class Deals:
    """The deals named by the one of ``--seed``, ``--seeds``, ``--deal``, ``--file`` or
    ``--position`` given (:func:`one_source` refuses none or several; ``-`` reads standard
    input), each with its seed, read one at a time. A bad
    line of a deal file is named on stderr (and, ``as_json``, printed as a JSON record of its
    line and error, so that a pipeline reading the records sees it) and counted in
    :attr:`bad_lines`, and the lines after it are still read; or, if ``strict``, it is the error
    that ends the command."""

    def __init__(
        self,
        setup: Setup,
        seed: int | None,
        deal: str | None,
        *,
        file: str | None,
        strict: bool = False,
        position: str | None = None,
        seeds: str | None = None,
        as_json: bool = False,
    ) -> None:
        self.setup, self.seed, self.deal, self.file, self.position = setup, seed, deal, file, position
        self.spans = None if seeds is None else _seed_spans(seeds)
        self.strict, self.as_json = strict, as_json
        self.bad_lines = 0

    def __iter__(self) -> Iterator[DealStart]:
        """Each deal or position, one at a time."""
        if self.position is not None:
            yield DealStart(None, None, self.setup.position(self.position))
            return
        if self.spans is not None:
            for low, high in self.spans:
                for seed in range(low, high + 1):
                    cards = self.setup.deal(seed=seed)
                    yield DealStart(seed, cards, self.setup.game.start(cards))
            return
        if self.file is None:
            text = read_text(STDIN, "deal") if self.deal == STDIN else self.deal
            cards = self.setup.deal(seed=self.seed, text=None if text is None else without_bom(text))
            yield DealStart(self.seed, cards, self.setup.game.start(cards))
            return
        from solver.service.deal_file import read_file_lines

        for found in read_file_lines(self.setup, text_lines(self.file, "deal file")):
            if found.error is not None:
                self._bad(found.line, found.error)
            else:
                yield DealStart(None, found.cards, found.start, found.line)

    def _bad(self, line: int, error: Exception) -> None:
        """A bad line: the error that ends the command if ``strict``, else named and counted."""
        where = f"deal file {name_of(self.file or '')} line {line}: {error}"
        if self.strict:
            raise UsageError(where)
        self.bad_lines += 1
        say(f"patience: error: {where}")
        if self.as_json:
            import json

            print(json.dumps({"line": line, "error": one_line(str(error))}), flush=True)


def _seed_spans(text: str) -> list[tuple[int, int]]:
    """``--seeds`` as a survey reads them (``1-10,20``), each seed a PySolFC game number."""
    from solver.service.seeds import parse_seeds

    return parse_seeds(text)


SEEDS = Argument(
    ("--seeds",),
    "seeds",
    "PySolFC game numbers as ranges, e.g. 1-10 or 1-5,9 (as 'survey' takes them): each is solved in turn.",
    metavar="RANGES",
)
#: Where the deals come from: exactly one of these.
SOURCES = (SEED, SEEDS, DEAL, FILE, POSITION)
