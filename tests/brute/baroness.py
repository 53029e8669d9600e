"""Baroness and Thirteens by brute force, written from the rules alone and sharing no code with
rulesets.baroness, rulesets.thirteens or rulesets.pairs: cards are strings ("6C"), piles are
tuples of strings, each move is found by its text, and every reachable layout is enumerated
breadth-first."""

from __future__ import annotations

import itertools
from collections import deque

VALUE = {letter: value for value, letter in enumerate("A23456789TJQK", 1)}


def value(card: str) -> int:
    return VALUE[card[0]]


def pair_text(a: str, b: str) -> str:
    """A Baroness pair as written: the lower value first."""
    low, high = (a, b) if value(a) < value(b) else (b, a)
    return f"discard {low}+{high}"


class BruteBaroness:
    """Baroness as the rules word it. A state is (piles, grace cards, cards dealt so far)."""

    def __init__(self, deal, piles, compulsory, kings_first, spaces, beneath):
        self.cards = [str(c) for c in deal if not (kings_first and str(c)[0] == "K")]
        self.n, self.compulsory, self.spaces, self.beneath = piles, compulsory, spaces, beneath

    def lay(self, piles, grace, dealt):
        """One card onto each pile, left to right; when fewer than P remain, they are grace cards."""
        rest = self.cards[dealt:]
        if len(rest) < self.n:
            return piles, tuple(sorted(grace + tuple(rest))), len(self.cards)
        piles = tuple(pile + (card,) for pile, card in zip(piles, rest))
        dealt += self.n
        if 0 < len(self.cards) - dealt < self.n:
            grace, dealt = tuple(sorted(grace + tuple(self.cards[dealt:]))), len(self.cards)
        return piles, grace, dealt

    def start(self):
        return self.lay(((),) * self.n, (), 0)

    def discards(self, state):
        """Each discard's text and the cards it removes."""
        piles, grace, _ = state
        places = [pile[-1] for pile in piles if pile] + list(grace)
        found = {}
        for card in places:
            if value(card) == 13:
                found[f"discard {card}"] = {card}
        for a, b in itertools.combinations(places, 2):
            if value(a) + value(b) == 13:
                found[pair_text(a, b)] = {a, b}
        if self.beneath:
            for pile in piles:
                if len(pile) >= 2 and value(pile[-1]) + value(pile[-2]) == 13:
                    found[pair_text(pile[-1], pile[-2])] = {pile[-1], pile[-2]}
        return found

    def successors(self, state):
        """Each legal move's text and the state it leads to."""
        piles, grace, dealt = state
        found = {}
        discards = self.discards(state)
        for text, gone in discards.items():
            found[text] = (
                tuple(tuple(c for c in pile if c not in gone) for pile in piles),
                tuple(c for c in grace if c not in gone),
                dealt,
            )
        if dealt < len(self.cards) and not (self.compulsory and discards):
            found["deal"] = self.lay(piles, grace, dealt)
        if self.spaces:
            found.update(self._space_moves(state))
        return found

    def _space_moves(self, state):
        piles, grace, dealt = state
        found = {}
        for target, empty in enumerate(piles):
            if empty:
                continue
            for source, pile in enumerate(piles):
                if pile and source != target:
                    moved = list(piles)
                    moved[source], moved[target] = pile[:-1], (pile[-1],)
                    found[f"move {pile[-1]} to pile {target + 1}"] = (tuple(moved), grace, dealt)
            for card in grace:
                moved = list(piles)
                moved[target] = (card,)
                found[f"move {card} to pile {target + 1}"] = (tuple(moved), tuple(c for c in grace if c != card), dealt)
        return found

    def over(self, state):
        return state[2] == len(self.cards) and not self.discards(state)

    def left(self, state):
        piles, grace, dealt = state
        return sum(map(len, piles)) + len(grace) + len(self.cards) - dealt

    def minimum(self):
        """The fewest cards left at the end of any line of play (every reachable layout)."""
        return fewest_left_at_an_end(self, lambda state, children: self.over(state))


class BruteThirteens:
    """Thirteens as the rules word it. A state is (places, cards dealt so far)."""

    def __init__(self, deal, places=10):
        self.cards = [str(c) for c in deal]
        self.n = places

    def start(self):
        layout = tuple(self.cards[: self.n]) + (None,) * max(0, self.n - len(self.cards))
        return layout, min(self.n, len(self.cards))

    def successors(self, state):
        layout, dealt = state
        found = {}
        for i, a in enumerate(layout):
            if a is None:
                continue
            groups = [(i,)] if value(a) == 13 else []
            groups += [(i, j) for j, b in enumerate(layout) if b is not None and j != i and value(a) + value(b) == 13]
            for group in groups:
                new, pos = list(layout), dealt
                for place in group:  # the card named first is refilled first
                    if pos < len(self.cards):
                        new[place], pos = self.cards[pos], pos + 1
                    else:
                        new[place] = None
                text = "discard " + "+".join(layout[p] for p in group)
                found[text] = (tuple(new), pos)
        return found

    def left(self, state):
        layout, dealt = state
        return sum(card is not None for card in layout) + len(self.cards) - dealt

    def minimum(self):
        """The fewest cards left when no discard is left (every reachable layout)."""
        return fewest_left_at_an_end(self, lambda state, children: not children)


def fewest_left_at_an_end(brute, ended):
    """Breadth-first over every layout ``brute`` reaches: the fewest cards left at a layout
    where ``ended(layout, successors)`` says play is over, or None if play never ends."""
    seen = {brute.start()}
    todo = deque(seen)
    best = None
    while todo:
        state = todo.popleft()
        children = brute.successors(state)
        if ended(state, children):
            best = brute.left(state) if best is None else min(best, brute.left(state))
        for child in children.values():
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return best


def follow(brute, line_texts):
    """The brute force's state after the moves written as ``line_texts`` (KeyError if one is
    not legal under its reading of the rules)."""
    state = brute.start()
    for text in line_texts:
        state = brute.successors(state)[text]
    return state
