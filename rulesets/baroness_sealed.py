"""Baroness under ``spaces``: the cards of a layout that no line of play can ever reach, so that
layouts differing only there share one key (the ``sealed`` reduction).

A *column* is a pile with the stock cards still to be dealt onto it; a *layer* is the layout
after some number of the deals still to come. Over-estimate, as a least fixpoint, the cards
``free`` that lines moving nothing onto an empty pile may discard: in a layer, a card of a
column is *reachable* if every card above it there is free; a card is free if in some layer it
is reachable and is a King, or a card of its partner rank (values totalling 13) is reachable in
another column or is a grace card there. By induction every card such a line discards is free:
the cards above it in its column went before it, and its partner was on top of another column
or a grace card, after as many deals.

When every pile holds a card that is not free, no line ever empties a pile (the first pile to
empty would do so by discards alone, of free cards only), so no line ever moves a card onto an
empty pile and each pile's topmost card that is not free, the *floor*, is never discarded nor
moved nor part of any legal move (a legal discard of it could be played, making it free). The
layout is then *sealed*: every line from it plays the same moves as from any sealed layout with
the same stock, the same grace cards, the same cards above each pile's floor, and as many cards
at or below the floors, and ends with as many cards left. Such layouts are the same game and
share a key. Whatever is reachable elsewhere in the game (a pile that may empty) keeps the
layout's plain key.
"""

from __future__ import annotations

from rulesets.cards import RANK

#: PARTNER_BIT[code]: the rank bit (bit r for rank r) a card needs reachable elsewhere to be
#: free: its partner rank's; for a King, which goes alone, bit 0, which is always set there.
PARTNER_BIT: tuple[int, ...] = tuple(1 if RANK[code] == 13 else 1 << (13 - RANK[code]) for code in range(52))
#: RANK_BIT[code]: the card's rank as a bit (bit r for rank r).
RANK_BIT: tuple[int, ...] = tuple(1 << RANK[code] for code in range(52))


def ranks_of(cards: tuple[int, ...]) -> int:
    """The ranks of ``cards`` as bits (bit r for rank r)."""
    found = 0
    for code in cards:
        found |= RANK_BIT[code]
    return found


def floors(
    piles: tuple[tuple[int, ...], ...], futures: tuple[tuple[int, ...], ...], grace_ranks: tuple[int, ...]
) -> list[int] | None:
    """Per pile, the index of its floor (its topmost card that is not free), or None when a pile
    is empty or may be emptied (the layout is not sealed).

    ``futures``: per pile, the stock cards still to be dealt onto it, in order; ``grace_ranks``:
    per layer (the layout after 0, 1, ... of the deals still to come), the ranks of the grace
    cards there. A card is reachable in a layer if the cards above it there are free, and free
    if in some layer it is reachable with its partner rank reachable in another column or among
    that layer's grace cards."""
    if () in piles:
        return None
    count = len(piles)
    stacks = [pile + future for pile, future in zip(piles, futures)] if futures[0] else piles
    # per layer: per column the index of the deepest card reachable so far and the ranks
    # reachable there, and the grace cards' ranks with bit 0 (which a King needs)
    tops = [len(pile) - 1 for pile in piles]
    layers = []
    for dealt, loose in enumerate(grace_ranks):
        row = [top + dealt for top in tops] if dealt else tops
        layers.append((row, [RANK_BIT[stack[depth]] for stack, depth in zip(stacks, row)], loose | 1))
    free = 0
    columns = range(count)
    # after[i]: the ranks reachable in the columns right of column i. A speed trick: with the
    # ranks of the columns left of it, gathered on the way, that gives the other columns' ranks
    # in two operations instead of a loop over every column, each column's ranks as current as
    # that loop had them (the same floors); 0.94 times the CPU on baroness-pysol deals 1-60.
    after = [0] * count
    changed = True
    while changed:
        changed = False
        for row, ranks, others_base in layers:
            for i in range(count - 1, 0, -1):
                after[i - 1] = after[i] | ranks[i]
            before = others_base
            for i in columns:
                others = before | after[i]
                stack = stacks[i]
                depth = start = row[i]
                code = stack[depth]
                while free >> code & 1 or PARTNER_BIT[code] & others:
                    free |= 1 << code
                    depth -= 1
                    if depth < 0:
                        return None
                    code = stack[depth]
                    ranks[i] |= RANK_BIT[code]
                if depth != start:
                    row[i], changed = depth, True
                before |= ranks[i]
    return tops
