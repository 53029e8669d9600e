"""Playing cards: an immutable value per card, parsed from and printed in two-character notation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

RANKS = "A23456789TJQK"
SUITS = "CDHS"
_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


class CardError(ValueError):
    """A card, or a deal of cards, that cannot be read or is not the game's deck."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A card as rank (1 = Ace .. 13 = King) and suit letter (C, D, H, S)."""

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


def card_from_code(code: int) -> Card:
    """The card with the given compact code (see :attr:`Card.code`)."""
    return CARDS[code]


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
        raise CardError("unknown card(s): " + " ".join(bad) + " (ranks A 2-9 T J Q K, suits C D H S)")
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in two-character ASCII notation, space-separated."""
    return " ".join(str(card) for card in cards)


def shares_suit_or_rank(a: Card, b: Card) -> bool:
    """Whether two cards match in the sense of the Accordion family: same suit or same rank."""
    return a.suit == b.suit or a.rank == b.rank
