"""Amazons' redeal bound: at least how many more redeals any win still needs, for IDA*
(``--fewest-redeals``, where a redeal costs 1 and every other move 0).

Two bounds, by the options: with ``any_suit`` or ``skip_complete``, the one-pass bound (0 or
1: some card cannot go up before this pass ends); otherwise the passes bound (0 to
:attr:`RedealBound.cap`, 4 by default), which also follows which depot each card must lie in over
the next passes.

A :class:`RedealBound` learns the passes bound's look-ahead by layout, in a cache bounded in bytes
(:meth:`RedealBound.approximate_bytes`; a search holds it to a share of ``--max-memory`` with
:meth:`RedealBound.hold`). It is not safe to share between threads:
:class:`rulesets.amazons.Amazons` gives each thread its own.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator, Sequence
from typing import Protocol

from rulesets.cards import SUIT
from solver.table import dict_peak_bytes, object_bytes

Piles = tuple[tuple[int, ...], ...]
#: A layout as the bound reads it (an Amazons state): the depots, each bottom to top; the stock,
#: next dealt first; the foundation places, each bottom to top.
Layout = tuple[Piles, tuple[int, ...], Piles]
Cards = Sequence[int]  # cards in order: a tuple, or bytes in the look-ahead
_EMPTY_PLACE = 0xFE  # a cache key's byte for an empty foundation place (card codes are < 52)
_GROUP = b"\xff"  # the first byte of a look-ahead group's key (see RedealBound._group_key)
_NEVER = 1 << 30  # no bound shown missed yet
_CLEAR = 0xFF  # a suit's lowest stuck level when none of its cards is stuck
_NONE_STUCK = [_CLEAR] * 4
_ENTRY_BYTES = object_bytes((0, 0))  # a cache entry's value pair (its key is counted apart)


class Rules(Protocol):
    """What the bound reads of an Amazons game (:class:`rulesets.amazons.Amazons`, which makes
    its bounds: this module does not import it)."""

    piles: int
    level: tuple[int, ...]  # each card's level in the foundation order (-1: not in the deck)
    top_level: int
    queen_any_depot: bool
    gather_order: tuple[int, ...]
    any_suit: bool
    skip_complete: bool

    def blocked(self, card: int, pile: int, foundations: Piles) -> bool: ...


class RedealBound:
    """The redeal bound of one Amazons game, with its own cache (for one thread)."""

    CAP = 4  # the highest bound sought by default: each pass beyond the two-pass test costs more
    MAX_BYTES = 64 << 20  # the cache's bound by default

    def __init__(self, game: Rules, cap: int = CAP, max_bytes: int = MAX_BYTES) -> None:
        self._game = game
        self._piles = game.piles
        self._range = range(game.piles)
        self._level = game.level
        self._top_level = game.top_level
        self._queen_any = game.queen_any_depot
        self._gather_order = game.gather_order
        self._by_passes = not (game.any_suit or game.skip_complete)
        # Tables for _left_under_place, which runs for every column of every layout looked at:
        # a card is compared with the place's next card code and looked up as always playable or
        # not, instead of reading its level and suit each time (that function's time under
        # cProfile, deal 1 of amazons-mms: 3.7 s -> 3.1 s of 21 s).
        #: free[card]: an Ace or a queen_any_depot Queen, which may go up from any column.
        self._free = bytes(
            self._level[card] == 0 or (self._queen_any and self._level[card] == self._top_level) for card in range(52)
        )
        #: Per suit, its card codes in foundation order, then -1 (what a complete place wants).
        self._chains = tuple(
            tuple(
                sorted(
                    (card for card in range(52) if SUIT[card] == suit and self._level[card] >= 0),
                    key=self._level.__getitem__,
                )
            )
            + (-1,)
            for suit in range(4)
        )
        #: Per pass-start layout, (the highest bound shown reached, the lowest shown missed).
        self._cache: dict[bytes, tuple[int, int]] = {}
        self._cache_bytes = 0
        if cap < 2:  # the two cheap tests alone give 2: a lower cap would be exceeded
            raise ValueError(f"the redeal bound's cap must be at least 2, not {cap}")
        self.cap = cap
        self.max_bytes = max_bytes  # the cache is emptied when it would hold more

    def __call__(self, state: Layout) -> int:
        """A lower bound on the redeals any win from ``state`` still needs."""
        if self._by_passes:
            return self._passes_bound(*state, self.cap)
        return self._one_pass_bound(state)

    @property
    def most(self) -> int:
        """The highest bound this gives: its cap, or 1 for the one-pass bound."""
        return self.cap if self._by_passes else 1

    def hold(self, max_bytes: int) -> None:
        """Keep the cache within ``max_bytes`` from now on, emptying it if it holds more."""
        self.max_bytes = max_bytes
        if self.approximate_bytes() > max_bytes:
            self._cache.clear()
            self._cache_bytes = 0

    def approximate_bytes(self) -> int:
        """The memory the cache holds: the dict, its keys and its value pairs (the ints in them
        are small ones Python shares)."""
        return sys.getsizeof(self._cache) + self._cache_bytes

    # ----- the passes bound (suits mattering, skip_complete off) ------------------------------

    def _passes_bound(self, depots: Piles, stock: tuple[int, ...], foundations: Piles, cap: int) -> int:
        """Redeals any win from a state still needs, at least: 0 to ``cap``.

        Column: the depot a card is in, or will be dealt to. Every pass deals from empty depots
        in rounds of one card per depot, so a card's column is its stock index modulo the piles.
        A non-Ace card, other than a ``queen_any_depot`` Queen, goes up only from the column
        under its suit's place: the place holding its suit's Ace, or, with that Ace not up, some
        place empty now (places only fill).

        1 when some card cannot go up before this pass ends (:meth:`_stuck_this_pass`): with no
        redeal, cards leave a depot only for a foundation, and a win needs every card there.

        2 when, besides, whichever cards go up this pass, some card left must lie next pass in a
        column it cannot go up from (:meth:`_stuck_next_pass`): it is still out after the next
        pass, so a second redeal follows the first.

        k > 2 when every layout the next pass can start from (:meth:`_next_layouts`) needs k - 1
        (:meth:`_at_least`): a win from here redeals once and then wins from one of those.
        """
        if not stock and not any(depots):
            return 0
        piles = self._piles
        columns = [depots[c] + stock[c::piles] for c in self._range]
        masks = self._suit_columns(foundations)
        lowest = self._stuck_this_pass(depots, foundations, columns, masks)
        if lowest is None:
            return 0
        if not self._stuck_next_pass(columns, lowest, masks):
            return 1
        # The look-ahead below depends only on the cards left in gather order, the foundation
        # tops and the cards each suit may still play (see _group_key): learnt by that group,
        # it is skipped for about two thirds of the states the search asks about (deal 1 of
        # amazons: 100,468 groups for 299,297 such states), as states of one pass reached by
        # other orders of plays and deals share it.
        key = self._group_key(foundations, columns, lowest)
        known = self._cache.get(key)
        if known is not None:
            reached, missed = known
            if reached >= cap or missed == reached + 1:
                return min(reached, cap)
        bound = 2
        while bound < cap and self._all_at_least(foundations, columns, lowest, bound):
            bound += 1
        self._learn(key, bound, bound + 1 if bound < cap else _NEVER)
        return bound

    def _group_key(self, foundations: Piles, columns: Sequence[Cards], lowest: list[int]) -> bytes:
        """The cache key of the passes bound's look-ahead from a state (:meth:`_all_at_least`
        over :meth:`_next_layouts`): a marker byte no pass-start key holds, the cards left in
        gather order, the foundation tops, and per suit its lowest stuck level.

        The next layouts are made of exactly these: the next stock is the cards left in gather
        order less those played; the cards a suit may play are its cards left below its lowest
        stuck one (:meth:`_playable_prefixes`); the places are extended by them, and the look-ahead
        reads a place only by its top (its suit and height, as :meth:`_at_least`'s key). So two
        states with one key have one look-ahead, whatever their depots hold.
        """
        order = bytearray(_GROUP)
        for c in self._gather_order:
            order.extend(columns[c])
        order.extend(place[-1] if place else _EMPTY_PLACE for place in foundations)
        return bytes(order + bytes(lowest))

    def _at_least(self, stock: Cards, foundations: Piles, need: int) -> bool:
        """Whether the passes bound of the layout a pass starts from (empty depots, ``stock``)
        reaches ``need``, by the rule of :meth:`_passes_bound` with no cap.

        The answers that look ahead (``need`` above 2) are learnt by layout (a pass start depends
        on its stock and foundation tops alone): the cache keeps the highest ``need`` shown reached
        and the lowest shown missed, so later questions about the layout, at any ``need``, reuse
        the work.
        """
        if need <= 0:
            return True
        if need <= 2:
            # Two column tests, cheaper than the key and the cache (whose room is kept for the
            # look-ahead's costlier answers): 0.79x CPU on deal 2 of amazons, same states.
            return self._decide(stock, foundations, need)
        key = bytes(stock) + bytes(place[-1] if place else _EMPTY_PLACE for place in foundations)
        known = self._cache.get(key)
        if known is not None:
            reached, missed = known
            if need <= reached:
                return True
            if need >= missed:
                return False
        else:
            reached, missed = 0, _NEVER
        answer = self._decide(stock, foundations, need)
        if answer:
            reached = need
        else:
            missed = need
        self._learn(key, reached, missed)  # (a deeper question may have emptied the cache meanwhile)
        return answer

    def _decide(self, stock: Cards, foundations: Piles, need: int) -> bool:
        """The uncached :meth:`_at_least`."""
        piles = self._piles
        columns = [stock[c::piles] for c in self._range]
        masks = self._suit_columns(foundations)
        empty = ((),) * piles
        lowest = self._stuck_this_pass(empty, foundations, columns, masks)
        if lowest is None:
            return False
        if not self._stuck_next_pass(columns, lowest, masks):
            return need <= 1
        # Deepening: a layout next pass that needs few redeals refutes ``need`` at once, so
        # look for one at each depth before looking deeper (the cache keeps what each depth shows).
        return all(self._all_at_least(foundations, columns, lowest, depth) for depth in range(2, need))

    def _all_at_least(self, foundations: Piles, columns: Sequence[Cards], lowest: list[int], need: int) -> bool:
        """Whether every layout the next pass can start from (:meth:`_next_layouts`) needs
        ``need`` redeals (:meth:`_at_least`); stops at the first that does not."""
        at_least = self._at_least
        return all(at_least(stock, places, need) for stock, places in self._next_layouts(foundations, columns, lowest))

    def _learn(self, key: bytes, reached: int, missed: int) -> None:
        """Keep what was shown of ``key``: the highest bound reached and the lowest missed. A new
        entry's bytes are counted, the cache emptied first when it would pass its bound (the
        dict's own table counted too, as it will be once the entry is in, and the one it grew
        from beside it while it grows)."""
        cache = self._cache
        if key not in cache:
            size = object_bytes(key) + _ENTRY_BYTES
            if dict_peak_bytes(len(cache) + 1) + self._cache_bytes + size > self.max_bytes:
                cache.clear()
                self._cache_bytes = 0
            self._cache_bytes += size
        cache[key] = (reached, missed)

    def _suit_columns(self, foundations: Piles) -> list[int]:
        """Per suit, the columns (as bits) its cards can go up from: the one under its Ace's
        place, or with its Ace not up, every column under an empty place."""
        empty = 0
        for t in self._range:
            if not foundations[t]:
                empty |= 1 << t
        masks = [empty] * 4
        for t in self._range:
            place = foundations[t]
            if place:
                masks[SUIT[place[0]]] = 1 << t
        return masks

    def _stuck_this_pass(
        self,
        depots: Piles,
        foundations: Piles,
        columns: Sequence[Cards],
        masks: list[int],
    ) -> list[int] | None:
        """Per suit, the lowest level of its cards that cannot go up before this pass ends
        (:data:`_CLEAR`: none); None if no card is stuck. The stuck cards are exactly those at or
        above their suit's level, as a suit goes up in rank order. ``columns``: each column's
        cards in deal order this pass; ``masks``: the columns each suit can go up from.

        A column under a place holding a suit: see :meth:`_left_under_place`. Under an empty
        place: see :meth:`_stuck_under_empty_place`. Then the stuck cards spread, see
        :meth:`_spread`.
        """
        level = self._level
        lowest = [_CLEAR] * 4
        loose = []
        for c in self._range:
            place = foundations[c]
            if place:
                left = self._left_under_place(depots[c], columns[c], place)
            else:
                loose.append(c)
                left = self._stuck_under_empty_place(c, depots[c], columns[c], masks)
            for card in left:
                suit = SUIT[card]
                if level[card] < lowest[suit]:
                    lowest[suit] = level[card]
        if lowest == _NONE_STUCK:
            return None
        self._spread(depots, loose, lowest)
        return lowest

    def _left_under_place(self, depot: tuple[int, ...], column: Cards, place: tuple[int, ...]) -> list[int]:
        """The cards of ``column`` (``depot`` now, then its cards still to deal) that no line of
        play can take up this pass, under a place holding a suit.

        That column can give up only Aces, ``queen_any_depot`` Queens and the next cards of the
        place's suit, in rank order, each from its top. Dealing its cards in order and taking
        every such top card at once (every Ace and such Queen counted as always playable) takes
        up every card any line of play can take from it this pass: taking a card earlier never
        stops a later take.
        """
        free, chain = self._free, self._chains[SUIT[place[0]]]
        wanted = len(place)
        want = chain[wanted]  # the place's next card (-1 when complete)
        pile = list(depot)
        index, end = len(depot), len(column)
        while True:
            while pile:
                card = pile[-1]
                if card == want:
                    wanted += 1
                    want = chain[wanted]
                elif not free[card]:
                    break
                pile.pop()
            if index == end:
                return pile
            pile.append(column[index])
            index += 1

    def _stuck_under_empty_place(self, c: int, depot: tuple[int, ...], column: Cards, masks: list[int]) -> list[int]:
        """The cards of column ``c``, under an empty place, stuck from the start: a card whose
        suit cannot go up from the column, and a card of the depot under a higher card of its
        own suit (a suit goes up in rank order, and a card leaves a depot only from its top)."""
        level, top, queen_any = self._level, self._top_level, self._queen_any
        bit = 1 << c
        stuck = []
        for card in column:
            card_level = level[card]
            if card_level and not masks[SUIT[card]] & bit and not (queen_any and card_level == top):
                stuck.append(card)
        for index in range(len(depot) - 1):
            card = depot[index]
            suit, card_level = SUIT[card], level[card]
            for above in depot[index + 1 :]:
                if SUIT[above] == suit and level[above] > card_level:
                    stuck.append(card)
                    break
        return stuck

    def _spread(self, depots: Piles, loose: list[int], lowest: list[int]) -> None:
        """Lower ``lowest`` to a fixed point by the cards stuck under stuck cards in a depot under
        an empty place (columns ``loose``): a card leaves a depot only from its top, and only
        to a foundation. (A card above a stuck card of its own suit is stuck by ``lowest``'s
        own reading: a suit goes up in rank order; a ``queen_any_depot`` Queen too waits for
        its Jack.)"""
        level = self._level
        changed = True
        while changed:
            changed = False
            for c in loose:
                depot = depots[c]
                for index in range(len(depot) - 1, 0, -1):
                    card = depot[index]
                    if level[card] >= lowest[SUIT[card]]:
                        for below in depot[:index]:
                            suit = SUIT[below]
                            if level[below] < lowest[suit]:
                                lowest[suit] = level[below]
                                changed = True
                        break

    def _stuck_next_pass(self, columns: Sequence[Cards], lowest: list[int], masks: list[int]) -> bool:
        """Whether, whichever cards go up this pass, some card left must lie next pass in a
        column it cannot go up from.

        At the redeal each depot holds its column's cards not played, in deal order, and the new
        stock is the depots in gather order, each bottom to top. So the next pass deals the cards
        left in a fixed order, and a card's column is the number of cards left before it,
        modulo the piles. Going through that order, keep the set of those counts (modulo the
        piles) that some choice of cards played this pass reaches with every card left so far in
        a column its suit can go up from (one allowed now, as places only fill; an Ace or a
        ``queen_any_depot`` Queen, any): a stuck card is left; any other card may be left or
        gone (the choices are not checked against each other: that only keeps more counts). If
        the set empties, every choice leaves some card out through the next pass as well.
        """
        piles, level, top = self._piles, self._level, self._top_level
        queen_any = self._queen_any
        full = (1 << piles) - 1
        back = piles - 1
        reach = 1
        for c in self._gather_order:
            for card in columns[c]:
                card_level = level[card]
                suit = SUIT[card]
                if card_level == 0 or (queen_any and card_level == top):
                    ok = reach
                else:
                    ok = reach & masks[suit]
                ok = ((ok << 1) | (ok >> back)) & full
                if card_level >= lowest[suit]:
                    if not ok:
                        return True
                    reach = ok
                else:
                    reach |= ok
        return False

    def _next_layouts(
        self, foundations: Piles, columns: Sequence[Cards], lowest: list[int]
    ) -> Iterator[tuple[bytes, Piles]]:
        """The (stock, foundations) the next pass can start from, most cards played first.

        Each suit goes up in rank order, so the cards a pass plays are, per suit, the lowest few
        of those left, none of them stuck. For each such choice the next pass starts from empty
        depots and a stock of the cards left, in gather order (:meth:`_stuck_next_pass`), with a
        place holding a suit extended by the cards played. A suit whose Ace is not up is left
        without a place (its Ace may take any place empty now): that only lets more cards go up,
        so the bound it gives is no higher than with the place the Ace really takes.
        """
        prefixes = self._playable_prefixes(columns, lowest)
        place_of = {SUIT[foundations[t][0]]: t for t in self._range if foundations[t]}
        order = bytes(card for c in self._gather_order for card in columns[c])
        for counts in itertools.product(*[range(len(prefix), -1, -1) for prefix in prefixes]):
            new_foundations = list(foundations)
            gone = bytearray()
            for suit, count in enumerate(counts):
                if count:
                    played = prefixes[suit][:count]
                    gone.extend(played)
                    if suit in place_of:
                        t = place_of[suit]
                        new_foundations[t] = new_foundations[t] + played
            yield order.translate(None, gone), tuple(new_foundations)

    def _playable_prefixes(self, columns: Sequence[Cards], lowest: list[int]) -> list[tuple[int, ...]]:
        """Per suit, its cards in rank order below its lowest stuck one: those a pass may play."""
        level = self._level
        chains: list[list[int]] = [[], [], [], []]
        for column in columns:
            for card in column:
                suit = SUIT[card]
                if level[card] < lowest[suit]:
                    chains[suit].append(card)
        prefixes = []
        for chain in chains:
            chain.sort(key=level.__getitem__)
            prefixes.append(tuple(chain))
        return prefixes

    # ----- the one-pass bound (any_suit or skip_complete) --------------------------------------

    def _one_pass_bound(self, state: Layout) -> int:
        """0 or 1: 1 when some card provably cannot reach a foundation before this pass ends.

        Admissible because, with no redeal, cards leave a depot only for a foundation, and a
        win needs every card there. A card is stuck for the rest of the pass when (suits
        mattering) it lies in a depot under a higher card of its own suit (that card can go up
        only after it), or when it can never go up from its depot (see
        :meth:`rulesets.amazons.Amazons.blocked`). Cards still in the stock are checked against
        the depot they will be dealt to, which is fixed unless ``skip_complete`` is on (then
        only cards already in the depots are checked).
        """
        depots, stock, foundations = state
        if not stock and not any(depots):
            return 0
        game = self._game
        level, any_suit, blocked = self._level, game.any_suit, game.blocked
        for pile in self._range:
            depot = depots[pile]
            for index, card in enumerate(depot):
                if blocked(card, pile, foundations):
                    return 1
                if not any_suit:
                    suit, card_level = SUIT[card], level[card]
                    for above in depot[index + 1 :]:
                        if SUIT[above] == suit and level[above] > card_level:
                            return 1
        if not game.skip_complete:
            piles = self._piles
            for index, card in enumerate(stock):
                if blocked(card, index % piles, foundations):
                    return 1
        return 0
