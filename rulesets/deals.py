"""Deals: PySolFC-compatible seeded shuffles, and checking a given deal against a game's deck."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from rulesets.cards import CARDS, Card, CardError, format_cards, parse_cards

FULL_RANKS: tuple[int, ...] = tuple(range(1, 14))
#: Ranks of the 28-card Amazons deck: A, 7, 8, 9, T, J, Q.
STRIPPED_RANKS: tuple[int, ...] = (1, 7, 8, 9, 10, 11, 12)
_PYSOL_SUIT_ORDER = "CSHD"
MAX_SEED = 10**20


def deck(ranks: Sequence[int] = FULL_RANKS) -> list[Card]:
    """The deck of the given ranks in PySolFC's fresh order: suits C, S, H, D, each by rank."""
    return [CARDS["CDHS".index(suit) * 13 + rank - 1] for suit in _PYSOL_SUIT_ORDER for rank in ranks]


def _microsoft_randint(seed: int) -> Callable[[int, int], int]:
    state = seed

    def randint(low: int, high: int) -> int:
        nonlocal state
        state = (state * 214013 + 2531011) % 2**32
        return low + ((state >> 16) & 0x7FFF) % (high + 1 - low)

    return randint


def _mersenne_randint(seed: int) -> Callable[[int, int], int]:
    generator = random.Random(seed)
    return lambda low, high: low + int(generator.random() * (high + 1 - low))


def seeded_deal(seed: int, ranks: Sequence[int] = FULL_RANKS) -> list[Card]:
    """The deal (first dealt first) of PySolFC game number ``seed`` for a deck of these ranks."""
    if not 1 <= seed <= MAX_SEED:
        raise CardError(f"seed {seed} is out of range: game numbers run from 1 to {MAX_SEED}")
    cards = deck(ranks)
    if seed < 32000:
        if len(cards) == 52:
            cards = [cards[i + j] for i in range(13) for j in (0, 39, 26, 13)]
        randint = _microsoft_randint(seed)
    else:
        randint = _mersenne_randint(seed)
    for n in range(len(cards) - 1, 0, -1):
        j = randint(0, n)
        cards[n], cards[j] = cards[j], cards[n]
    cards.reverse()
    return cards


def check_deal(cards: Sequence[Card], expected: Sequence[Card]) -> list[Card]:
    """The deal as a list if it holds exactly the expected deck; else a CardError naming the cards."""
    if not cards:
        raise CardError(f"the deal is empty: give its {len(expected)} cards in deal order, e.g. 'AS 7H ...'")
    counts = Counter(cards)
    wanted = Counter(expected)
    problems = []
    duplicated = [card for card, n in counts.items() if n > 1 and card in wanted]
    if duplicated:
        problems.append("duplicated " + format_cards(sorted(duplicated)))
    foreign = [card for card in counts if card not in wanted]
    if foreign:
        problems.append("not in this game's deck " + format_cards(sorted(foreign)))
    missing = [card for card in wanted if card not in counts]
    if missing:
        problems.append("missing " + format_cards(sorted(missing)))
    if problems:
        raise CardError(f"bad deal of {len(cards)} cards: " + "; ".join(problems))
    return list(cards)


def read_deal(text: str, expected: Sequence[Card]) -> list[Card]:
    """Parse and check one deal written as space-separated cards."""
    return check_deal(parse_cards(text), expected)


class DealLine(NamedTuple):
    """One deal read from a deal file: the number of its (first) line, and its cards or what is
    wrong with them."""

    line: int
    cards: list[Card] | None
    error: CardError | None


def read_deal_lines(lines: Iterable[str], expected: Sequence[Card]) -> Iterator[DealLine]:
    """Deals from the lines of a file, each yielded as soon as its line is read: one deal per line,
    ``#`` comments and blank lines skipped; a bad line is yielded with its error, and the lines
    after it are still read.

    A file whose first deal line holds a single card is read as one deal, one card per line.
    """
    content = ((number, line.split("#", 1)[0].split()) for number, line in enumerate(lines, 1))
    content = ((number, words) for number, words in content if words)
    first = next(content, None)
    if first is None:
        raise CardError("the file holds no deal: write one deal per line (# starts a comment)")
    if len(first[1]) == 1:
        yield _one_card_per_line(first, content, expected)
        return
    for number, words in itertools.chain([first], content):
        if any(":" in word for word in words):  # a position's section ("row:"): no card holds a colon
            yield DealLine(number, None, CardError(_POSITION_AMONG_DEALS))
            continue
        try:
            yield DealLine(number, read_deal(" ".join(words), expected), None)
        except CardError as error:
            yield DealLine(number, None, error)


_POSITION_AMONG_DEALS = (
    "it holds a position, but the file's first line is a deal: a file holds deals or positions, "
    "not both (put the positions in a file of their own)"
)


def _one_card_per_line(
    first: tuple[int, list[str]], rest: Iterator[tuple[int, list[str]]], expected: Sequence[Card]
) -> DealLine:
    """The one deal of a file written one card per line (read no further than a deck and one more
    card, so an endless file ends)."""
    words = list(first[1])
    for _, more in rest:
        words.extend(more)
        if len(words) > len(expected):
            error = CardError(
                f"a deal written one card per line holds at most {len(expected)} cards; this one holds more"
            )
            return DealLine(first[0], None, error)
    try:
        return DealLine(first[0], read_deal(" ".join(words), expected), None)
    except CardError as error:
        return DealLine(first[0], None, error)
