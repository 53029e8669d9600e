"""An independent brute force for Accordion, written from the rules with whole piles of cards.

It shares no code with rulesets.accordion: piles are tuples of card names ("7H"), matching is by
the name's rank and suit letters, and every reachable layout is enumerated. Two ways of play:

- the whole deck laid out first, moving at will (:func:`min_piles`, :func:`open_row_layouts`);
- dealt one card at a time under any combination of the options (:class:`Rules`,
  :func:`end_layouts`, and :func:`self_working` as a plain loop with no search at all).
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import NamedTuple

Piles = tuple[tuple[str, ...], ...]
#: Whole piles and the undealt stock (next card first).
Dealt = tuple[Piles, tuple[str, ...]]
#: A pile move, (moving pile index, 1 for a slide or 3 for a leap), or "deal".
Choice = tuple[int, int] | str


def matches(a: str, b: str) -> bool:
    """Two cards match when they share rank or suit ('7H' and '7C', '7H' and 'KH')."""
    return a[0] == b[0] or a[1] == b[1]


def merge(piles: Piles, i: int, distance: int) -> Piles:
    """Pile ``i`` put (whole) onto the pile ``distance`` to its left; the gap closes."""
    j = i - distance
    return piles[:j] + (piles[j] + piles[i],) + piles[j + 1 : i] + piles[i + 1 :]


# --- the whole deck laid out first, moving at will -----------------------------------------------


def open_layout(cards: list[str]) -> Piles:
    return tuple((card,) for card in cards)


def successors(piles: Piles) -> list[tuple[Piles, int, int]]:
    """Every layout one move away, with (moving pile index, distance)."""
    found = []
    for i in range(1, len(piles)):
        for distance in (1, 3):
            j = i - distance
            if j >= 0 and matches(piles[i][-1], piles[j][-1]):
                found.append((merge(piles, i, distance), i, distance))
    return found


@cache
def min_piles(piles: Piles) -> int:
    """The fewest piles reachable from this layout by any sequence of moves."""
    return min([len(piles)] + [min_piles(after) for after, _, _ in successors(piles)])


def open_row_layouts(cards: list[str]) -> set[Piles]:
    """Every layout reachable with the whole deck laid out first, moving at will."""
    start = open_layout(cards)
    seen, todo = {start}, [start]
    while todo:
        for after, _, _ in successors(todo.pop()):
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return seen


# --- dealt one card at a time, under the options -------------------------------------------------


class Rules(NamedTuple):
    """The option values, as the rules word them."""

    compulsory: bool
    nearest: bool
    leap_only_without_slide: bool
    order: str


#: All 2*2*2*2 option settings.
COMBINATIONS = [
    Rules(*values) for values in itertools.product((False, True), (False, True), (False, True), ("choice", "leftmost"))
]


def pile_moves(piles: Piles, rules: Rules) -> list[tuple[int, int]]:
    """(pile index, 1 for a slide or 3 for a leap) that the options allow."""
    slides = [i for i in range(1, len(piles)) if matches(piles[i][-1], piles[i - 1][-1])]
    leaps = [i for i in range(3, len(piles)) if matches(piles[i][-1], piles[i - 3][-1])]
    if rules.leap_only_without_slide and slides:
        leaps = []  # a leap is legal only when no slide is available anywhere in the row
    if rules.nearest:
        leaps = [i for i in leaps if i not in slides]  # a pile that can slide must slide
    found = [(i, 1) for i in slides] + [(i, 3) for i in leaps]
    if rules.order == "leftmost" and found:
        first = min(i for i, _ in found)  # the leftmost pile that can move: a slide if it can
        found = [(first, 1) if first in slides else (first, 3)]
    return found


def choices(state: Dealt, rules: Rules) -> list[Choice]:
    """The player's options: allowed pile moves, and 'deal' unless compulsion forbids it."""
    piles, stock = state
    found: list[Choice] = list(pile_moves(piles, rules))
    if stock and not (rules.compulsory and found):
        found.append("deal")
    return found


def play(state: Dealt, choice: Choice) -> Dealt:
    piles, stock = state
    if choice == "deal":
        return piles + ((stock[0],),), stock[1:]
    assert isinstance(choice, tuple)
    return merge(piles, *choice), stock


def ended(state: Dealt, rules: Rules) -> bool:
    """The game may end here: the whole deck dealt and, if moves are compulsory, none left."""
    piles, stock = state
    return not stock and not (rules.compulsory and pile_moves(piles, rules))


def opening(cards: list[str]) -> Dealt:
    return ((cards[0],),), tuple(cards[1:])


def reachable(cards: list[str], rules: Rules) -> set[Dealt]:
    seen, todo = {opening(cards)}, [opening(cards)]
    while todo:
        state = todo.pop()
        for choice in choices(state, rules):
            after = play(state, choice)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return seen


def end_layouts(cards: list[str], rules: Rules) -> set[Piles]:
    """Every layout (whole piles) in which the game ends."""
    return {state[0] for state in reachable(cards, rules) if ended(state, rules)}


def self_working(cards: list[str]) -> list[list[str]]:
    """The self-working game as a plain loop: deal a card, then while anything can move, move the
    leftmost pile that can slide, or (no slide anywhere) the leftmost pile that can leap."""
    piles: list[list[str]] = []
    for card in cards:
        piles.append([card])
        while True:
            slides = [i for i in range(1, len(piles)) if matches(piles[i][-1], piles[i - 1][-1])]
            leaps = [i for i in range(3, len(piles)) if matches(piles[i][-1], piles[i - 3][-1])]
            if slides:
                i, j = slides[0], slides[0] - 1
            elif leaps:
                i, j = leaps[0], leaps[0] - 3
            else:
                break
            piles[j].extend(piles.pop(i))
    return piles
