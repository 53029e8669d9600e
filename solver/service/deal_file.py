"""Files of deals or positions, one a line with ``#`` comments: read line by line as they come (for
``solve --file``), or read whole and checked before a survey starts, each deal keyed by its line.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from rulesets.cards import Card, CardError, format_cards
from rulesets.deals import read_deal_lines
from rulesets.notation import PositionError
from solver.errors import SurveyError, UserError
from solver.service.inputs import is_stream, name_of, text_lines
from solver.service.setup import Setup


class FileLine(NamedTuple):
    """One deal or position of a file: the number of its (first) line, its cards (None for a
    position), the state it starts from, or else what is wrong with it (``error``)."""

    line: int
    cards: list[Card] | None
    start: Any
    error: UserError | None


def _content(line: str) -> str:
    """A line without its ``#`` comment and surrounding blanks."""
    return line.split("#", 1)[0].strip()


def _opening(lines: Iterable[str]) -> tuple[int | None, Iterator[str]]:
    """The number of the first line holding anything if it holds a position (a ``name:``
    section), else None (a file of deals); and all the lines, read as they are asked for."""
    lines = iter(lines)
    head: list[str] = []  # up to the first line that holds something: a deal or a position?
    for line in lines:
        head.append(line)
        if _content(line):
            break
    return (len(head) if head and ":" in _content(head[-1]) else None), itertools.chain(head, lines)


def read_file_lines(setup: Setup, lines: Iterable[str]) -> Iterator[FileLine]:
    """The deals, or the positions, of a file's lines, each yielded as soon as its line is read
    (a file is of positions when its first line holding anything has a ``name:`` section)."""
    position_at, lines = _opening(lines)
    yield from _deals(setup, lines) if position_at is None else _positions(setup, lines)


def _deals(setup: Setup, lines: Iterable[str]) -> Iterator[FileLine]:
    """A file of deals: each checked against the deck, then by the rules' own start (say, end
    cards in place)."""
    for found in read_deal_lines(lines, setup.family.deck()):
        if found.cards is None:
            yield FileLine(found.line, None, None, found.error)
            continue
        try:
            yield FileLine(found.line, found.cards, setup.game.start(found.cards), None)
        except CardError as error:
            yield FileLine(found.line, None, None, error)


def _positions(setup: Setup, lines: Iterable[str]) -> Iterator[FileLine]:
    """A file of positions, one a line."""
    for number, line in enumerate(lines, 1):
        text = _content(line)
        if text and ":" not in text:  # no section: a deal
            yield FileLine(number, None, None, PositionError(_DEAL_AMONG_POSITIONS))
        elif text:
            try:
                yield FileLine(number, None, setup.position(text), None)
            except UserError as error:
                yield FileLine(number, None, None, error)


_DEAL_AMONG_POSITIONS = (
    "it holds a deal, but the file's first line is a position: a file holds positions or deals, "
    "not both (put the deals in a file of their own)"
)


class DealFile(NamedTuple):
    """The deals of a file a survey is run on: its name (for messages) and each deal as
    (line number, the cards written as ``format_cards`` writes them), in the file's order: all
    of them, read and checked before the survey starts; or, of a stream (a pipe, a terminal),
    the first, and in ``more`` the rest, each read and checked as it comes."""

    name: str
    deals: tuple[tuple[int, str], ...]
    more: Iterator[tuple[int, str]] | None = None


def read_deal_file(setup: Setup, source: str) -> DealFile:
    """Every deal of the file ``source`` ('-': standard input), checked as ``solve --file`` checks
    them. A survey keys its rows by line and so needs them all sound: the first bad line, or a
    position, refuses the survey before a survey file is made. A stream (standard input from a
    pipe, a named pipe) is not read to its end first, which may never come: its first deal is
    checked now, and the others as they are read (a bad one then ends the survey, naming it)."""
    name, deals = name_of(source), []
    lines = text_lines(source, "deal file")
    stream = is_stream(source)
    position_at, lines = _opening(lines)
    if position_at is not None:
        raise SurveyError(
            f"deal file {name} line {position_at} holds a position: a survey takes deals, one a line "
            "(positions are solved with 'patience solve GAME --file')"
        )
    found = _checked(name, _deals(setup, lines))
    try:
        for deal in found:
            deals.append(deal)
            if stream:
                return DealFile(name, tuple(deals), found)
    except CardError as error:  # a file with no deal at all
        raise SurveyError(f"deal file {name}: {error}") from None
    return DealFile(name, tuple(deals))


def _checked(name: str, found: Iterable[FileLine]) -> Iterator[tuple[int, str]]:
    """Each deal of a file as (line, cards as text); a SurveyError naming the first bad line."""
    for deal in found:
        if deal.error is not None:
            raise SurveyError(f"deal file {name} line {deal.line}: {deal.error}; correct or remove that line")
        assert deal.cards is not None, "a deal line without an error has its cards"
        yield deal.line, format_cards(deal.cards)
