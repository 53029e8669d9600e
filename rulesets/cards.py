"""Playing cards: an immutable value per card, its compact code, and the facts games ask of it.

Games keep cards in their states as small integers, the card's :attr:`Card.code` (0..51,
suit-major: clubs, diamonds, hearts, spades, each Ace to King); the tables here answer, by code,
what every ruleset needs: rank, suit, name, and whether two cards share suit or rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from solver.errors import CardError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


class Card(NamedTuple):
    """A card as rank (1 = Ace .. 13 = King) and suit letter (C, D, H, S); ordered by rank, then suit.
    (A named tuple, as records are: see docs/code-map.md.)"""

    rank: int
    suit: str

    @property
    def code(self) -> int:
        """A small integer 0..51 (suit-major, C D H S), for compact game states."""
        return SUITS.index(self.suit) * 13 + self.rank - 1

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card({self})"


#: Every card of the standard deck indexed by its code, so ``CARDS[c.code] is c``.
CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
#: RANK[code]: the card's rank, 1 (Ace) to 13 (King); its value in the games that add values.
RANK: tuple[int, ...] = tuple(card.rank for card in CARDS)
#: SUIT[code]: the card's suit as an index 0..3 (C, D, H, S).
SUIT: tuple[int, ...] = tuple(SUITS.index(card.suit) for card in CARDS)
#: NAME[code]: the card in two-character notation, e.g. ``TH``.
NAME: tuple[str, ...] = tuple(str(card) for card in CARDS)
#: MATCH[a][b]: the cards with codes a and b share suit or rank (Accordion and its relatives).
MATCH: tuple[tuple[bool, ...], ...] = tuple(tuple(a.suit == b.suit or a.rank == b.rank for b in CARDS) for a in CARDS)


def card_set(codes: Iterable[int]) -> int:
    """The set of cards with these codes, as a bit mask (bit ``code`` set for each card)."""
    mask = 0
    for code in codes:
        mask |= 1 << code
    return mask


def codes_in(mask: int) -> Iterator[int]:
    """The codes of the cards in a bit-mask set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def parse_card(text: str) -> Card:
    """Read one card: rank ``A 2..9 T/10 J Q K`` and suit ``C D H S`` or ``♣ ♦ ♥ ♠``, any case."""
    word = text.strip()
    if len(word) < 2:
        raise CardError(f"unknown card {text!r}: expected rank and suit, e.g. 'AS' or '10H'")
    rank_text, suit_text = word[:-1].upper(), word[-1]
    suit = _SUIT_SYMBOLS.get(suit_text, suit_text.upper())
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS or suit not in SUITS:
        raise CardError(f"unknown card {text!r}: ranks are A 2-9 T J Q K, suits C D H S")
    return CARDS[SUITS.index(suit) * 13 + RANKS.index(rank_text)]


#: Unknown cards an error names (a pasted page of them would make one line of 90 KB).
_SHOWN_BAD = 10


def parse_cards(text: str) -> list[Card]:
    """Read whitespace-separated cards; ``#`` starts a comment that runs to the end of the line."""
    words: list[str] = []
    for line in text.splitlines():
        words.extend(line.split("#", 1)[0].split())
    bad = []
    cards = []
    for word in words:
        try:
            cards.append(parse_card(word))
        except CardError:
            bad.append(word)
    if bad:
        shown = " ".join(bad[:_SHOWN_BAD]) + (f" and {len(bad) - _SHOWN_BAD} more" if len(bad) > _SHOWN_BAD else "")
        raise CardError(f"unknown card(s): {shown} (ranks A 2-9 T J Q K, suits C D H S)")
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in two-character ASCII notation, space-separated."""
    return " ".join(str(card) for card in cards)
