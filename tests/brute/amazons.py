"""An independent brute force for Amazons on any small deck, written plainly from the rules.

It shares no code with rulesets.amazons: cards are (rank, suit) pairs, the moves are written out
again from the rules, every reachable layout is enumerated breadth first, and the fewest redeals
of a win are found by a 0-1 breadth-first search over redeal cost.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Sequence

Card = tuple[int, str]  # (rank, suit): rank 1 is the Ace
Pile = tuple[Card, ...]
Layout = tuple[tuple[Pile, ...], Pile, tuple[Pile, ...]]  # depots, stock, foundation places


class Brute:
    """Amazons with the given options on a deck of ``ranks`` (Ace first) and ``piles`` depots."""

    def __init__(
        self,
        ranks: Sequence[int],
        piles: int,
        gather: str,
        queen_any_depot: bool,
        compulsory: bool,
        any_suit: bool,
        ace_any_place: bool,
        skip_complete: bool,
    ) -> None:
        self.order = list(ranks)  # foundation order, Ace first
        self.piles = piles
        self.gather = gather
        self.queen = queen_any_depot
        self.compulsory = compulsory
        self.any_suit = any_suit
        self.ace_any = ace_any_place
        self.skip = skip_complete

    def dealt_to(self, foundations: tuple[Pile, ...]) -> list[int]:
        """The depots a deal gives a card to, left to right."""
        if self.skip:
            return [i for i in range(self.piles) if len(foundations[i]) != len(self.order)]
        return list(range(self.piles))

    def deal(
        self, depots: tuple[Pile, ...], stock: Pile, foundations: tuple[Pile, ...]
    ) -> tuple[tuple[Pile, ...], Pile]:
        new_depots = [list(d) for d in depots]
        rest = list(stock)
        for i in self.dealt_to(foundations):
            if rest:
                new_depots[i].append(rest.pop(0))
        return tuple(tuple(d) for d in new_depots), tuple(rest)

    def start(self, cards: Sequence[Card]) -> Layout:
        foundations: tuple[Pile, ...] = ((),) * self.piles
        depots, stock = self.deal(((),) * self.piles, tuple(cards), foundations)
        return (depots, stock, foundations)

    def takes(self, place: Pile, card: Card) -> bool:
        """Whether a foundation place takes ``card`` (not an Ace) next."""
        if not place:
            return False
        top = place[-1]
        if self.order.index(card[0]) != self.order.index(top[0]) + 1:
            return False
        return self.any_suit or top[1] == card[1]

    def plays(self, state: Layout) -> list[tuple[tuple[int, int], Layout]]:
        """((depot, place), next layout) for every play of a depot's top card."""
        depots, stock, foundations = state
        result = []
        for i, depot in enumerate(depots):
            if not depot:
                continue
            card = depot[-1]
            if card[0] == 1:
                empty = [j for j in range(self.piles) if not foundations[j]]
                targets = empty if self.ace_any else empty[:1]
            elif self.queen and card[0] == self.order[-1]:
                targets = [j for j in range(self.piles) if self.takes(foundations[j], card)]
            else:
                targets = [i] if self.takes(foundations[i], card) else []
            for j in targets:
                new_depots = tuple(d[:-1] if k == i else d for k, d in enumerate(depots))
                new_found = tuple(f + (card,) if k == j else f for k, f in enumerate(foundations))
                result.append(((i, j), (new_depots, stock, new_found)))
        return result

    def successors(self, state: Layout) -> list[tuple[Hashable, Layout, int]]:
        """(label, next layout, redeal cost) for every legal action."""
        depots, stock, foundations = state
        plays = self.plays(state)
        result: list[tuple[Hashable, Layout, int]] = [(label, nxt, 0) for label, nxt in plays]
        if stock and not (self.compulsory and plays) and self.dealt_to(foundations):
            new_depots, new_stock = self.deal(depots, stock, foundations)
            result.append(("deal", (new_depots, new_stock, foundations), 0))
        if not stock and any(depots):
            order = range(self.piles) if self.gather == "left-to-right" else reversed(range(self.piles))
            gathered = tuple(card for i in order for card in depots[i])
            result.append(("redeal", (((),) * self.piles, gathered, foundations), 1))
        return result

    @staticmethod
    def left(state: Layout) -> int:
        depots, stock, _ = state
        return len(stock) + sum(len(d) for d in depots)

    def solve(self, cards: Sequence[Card]) -> tuple[bool, int]:
        """(won?, fewest cards left over every reachable layout) by enumerating all of them."""
        return self.solve_from(self.start(cards))

    def solve_from(self, start: Layout) -> tuple[bool, int]:
        """(won?, fewest cards left) over every layout reachable from ``start``."""
        seen = {start}
        queue = deque([start])
        best = self.left(start)
        while queue:
            state = queue.popleft()
            best = min(best, self.left(state))
            if best == 0:
                return True, 0
            for _, nxt, _ in self.successors(state):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return best == 0, best

    def fewest_redeals(self, state: Layout) -> int | None:
        """The fewest redeals of any win from ``state`` (None if none), by 0-1 BFS."""
        dist = {state: 0}
        queue = deque([state])
        done = set()
        while queue:
            state = queue.popleft()
            if state in done:
                continue
            done.add(state)
            if self.left(state) == 0:
                return dist[state]
            for _, nxt, cost in self.successors(state):
                d = dist[state] + cost
                if nxt not in dist or d < dist[nxt]:
                    dist[nxt] = d
                    if cost:
                        queue.append(nxt)
                    else:
                        queue.appendleft(nxt)
        return None
