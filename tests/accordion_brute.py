"""An independent brute force for Accordion, written from the rules with whole piles of cards.

It shares no code with rulesets.accordion: piles are tuples of card strings, matching is by the
card's written rank and suit, and every layout reachable is enumerated.
"""

from __future__ import annotations

from functools import lru_cache

Piles = tuple[tuple[str, ...], ...]


def matches(a: str, b: str) -> bool:
    return a[0] == b[0] or a[1] == b[1]


def successors(piles: Piles) -> list[tuple[Piles, int, int]]:
    """Every layout one move away, with (moving pile index, distance)."""
    found = []
    for i in range(1, len(piles)):
        for distance in (1, 3):
            j = i - distance
            if j >= 0 and matches(piles[i][-1], piles[j][-1]):
                merged = piles[j] + piles[i]
                found.append((piles[:j] + (merged,) + piles[j + 1 : i] + piles[i + 1 :], i, distance))
    return found


@lru_cache(maxsize=None)
def min_piles(piles: Piles) -> int:
    """The fewest piles reachable from this layout by any sequence of moves."""
    return min([len(piles)] + [min_piles(after) for after, _, _ in successors(piles)])


def open_layout(cards: list[str]) -> Piles:
    return tuple((card,) for card in cards)
