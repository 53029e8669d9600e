"""An Amazons position as a player writes it, checked against the rules before it is searched:
each section a row of piles (one per depot, or per foundation place), every card of the deck
exactly once, each foundation place built from its Ace in the foundation order (in one suit
unless ``any_suit``), and, unless ``ace_any_place``, the places filled left to right. The rules'
facts are handed in as plain values (the foundation ``level`` of each card, the ``ranks``), so
this module does not import :mod:`rulesets.amazons`."""

from __future__ import annotations

from collections.abc import Sequence

from rulesets.cards import NAME, SUIT
from rulesets.notation import EMPTY, PositionError, check_distinct, read_piles, write_card_list

Piles = tuple[tuple[int, ...], ...]


def read_row(content: str, section: str, what: str, piles: int) -> Piles:
    """A section of one pile per depot (or per foundation place), ``piles`` of them."""
    found = read_piles(content, section)
    if len(found) != piles:
        raise PositionError(
            f"the amazons position has {len(found)} {what}, not {piles}: separate them with '/', "
            f"'{EMPTY}' for an empty one"
        )
    return tuple(tuple(pile) for pile in found)


def check_deck(codes: list[int], level: Sequence[int]) -> None:
    """Every card of the deck (those with a foundation ``level``) exactly once: no rule removes a
    card from the table."""
    check_distinct(codes, "amazons")
    foreign = [code for code in codes if level[code] < 0]
    if foreign:
        raise PositionError(f"the amazons position holds {write_card_list(foreign)}, not in this game's deck")
    present = set(codes)
    missing = [code for code in range(52) if level[code] >= 0 and code not in present]
    if missing:
        raise PositionError(f"the amazons position lacks {write_card_list(missing)}: every card must be somewhere")


def check_foundation(
    number: int, place: tuple[int, ...], level: Sequence[int], ranks: Sequence[int], any_suit: bool
) -> None:
    """Foundation place F``number`` builds from its Ace in the foundation order ``ranks`` (in one
    suit unless ``any_suit``)."""
    for height, card in enumerate(place):
        if level[card] != height:
            order = " ".join(NAME[rank - 1][0] for rank in ranks)
            raise PositionError(f"foundation F{number} is out of sequence at {NAME[card]}: it builds {order}")
        if not any_suit and SUIT[card] != SUIT[place[0]]:
            raise PositionError(f"foundation F{number} mixes suits at {NAME[card]}: it builds in one suit")


def check_places_fill_left_to_right(foundations: Piles) -> None:
    """Aces take the leftmost empty place, so no place holds cards right of an empty one."""
    for number in range(1, len(foundations)):
        if foundations[number] and not foundations[number - 1]:
            raise PositionError(
                f"foundation F{number + 1} holds cards while F{number} is empty: Aces fill the places "
                "left to right (unless ace_any_place)"
            )
