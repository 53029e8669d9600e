"""Royal Marriage, Queen and her Lad, Nizhni Novgorod played exhaustively from the rules.

Cards are text such as ``TD``; the row is dealt one card at a time and every play is tried.
Nothing here comes from rulesets.royal_marriage (nor from rulesets.accordion).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

Row = tuple[str, ...]
#: Whether the cards lying between a matching pair may be discarded together.
MayGo = Callable[[Row], bool]


def match(a: str, b: str) -> bool:
    """Two cards (text such as 'TD') share suit or rank."""
    return a[0] == b[0] or a[1] == b[1]


def may_go_royal(between: Row, all_same_suit: bool) -> bool:
    """Royal Marriage: one or two cards; with ``all_same_suit`` also more that share one suit."""
    if len(between) in (1, 2):
        return True
    return all_same_suit and len(between) > 2 and len({card[1] for card in between}) == 1


def may_go_lad(between: Row) -> bool:
    """Queen and her Lad: one card, or adjacent pairs from the left that each share suit or rank."""
    if len(between) == 1:
        return True
    if len(between) % 2:
        return False
    return all(match(between[k], between[k + 1]) for k in range(0, len(between), 2))


def may_go_nizhni(between: Row) -> bool:
    """Nizhni Novgorod: exactly the two inner cards of four."""
    return len(between) == 2


def discards(row: Row, may_go: MayGo) -> list[Row]:
    """Every row left by discarding the cards between two matching cards, as ``may_go`` allows."""
    after = []
    for a in range(len(row)):
        for b in range(a + 2, len(row)):
            if match(row[a], row[b]) and may_go(row[a + 1 : b]):
                after.append(row[: a + 1] + row[b:])
    return after


def fewest_left(deal: list[str], may_go: MayGo, first_row: int = 1, compulsory: bool = False) -> int:
    """The fewest cards left (row plus undealt) over every legal play, dealing one at a time.

    Optional moves: the player may deal, discard or stop at any time. Compulsory: a discard must
    be made when one is available; the game ends when the stock is out and none is.
    """

    @cache
    def best(row: Row, stock: Row) -> int:
        nexts = discards(row, may_go)
        if compulsory:
            if nexts:
                return min(best(after, stock) for after in nexts)
            return best(row + stock[:1], stock[1:]) if stock else len(row)
        found = len(row) + len(stock)
        for after in nexts:
            found = min(found, best(after, stock))
        if stock:
            found = min(found, best(row + stock[:1], stock[1:]))
        return found

    return best(tuple(deal[:first_row]), tuple(deal[first_row:]))
