"""Amazons: a 28-card stripped deck dealt in fours onto four depots, each feeding only the
foundation place above it, with unlimited redeals gathered without shuffling.

A state is (depots, stock, foundations), all tuples of card codes (see
:attr:`rulesets.cards.Card.code`): each depot bottom to top, the stock next-dealt first, each
foundation place bottom (its Ace) to top. Moves are a play (a depot's top card to a foundation
place), a deal, or a redeal (gathering the depots into a new stock).

Unlimited redeals make the state graph cyclic; it is finite, and the engine's transposition
table makes the search terminate on it, so an exhausted search is a proof of loss. The key is
canonical: it holds only what decides the future (a foundation place is its top card, or just its
height when foundations build regardless of suit, when the cards' suits are also dropped; a
complete place is only "complete").

There are no move reductions: every play, deal and redeal the rules allow is searched. The
search is pruned only by an admissible bound on the cards left (:meth:`Amazons.lower_bound`).
"""

from __future__ import annotations

import itertools
import re
from typing import Any, Mapping, NamedTuple, Sequence

from rulesets.cards import CARDS, Card, CardError, parse_card
from rulesets.deals import STRIPPED_RANKS
from rulesets.family import Family, Option, Variant
from rulesets.notation import MoveError

LEFT_TO_RIGHT, RIGHT_TO_LEFT = "left-to-right", "right-to-left"
PLAY, DEAL, REDEAL = 0, 1, 2
_MAX_PILES = 8
_SEPARATOR = 0xFF
_EMPTY_PLACE = 0xFE
_COMPLETE_PLACE = 0xFD


class Move(NamedTuple):
    """A play of depot ``source``'s top card to foundation place ``target`` (0-based), a deal,
    or a redeal (``kind`` DEAL / REDEAL, with source and target -1)."""

    kind: int
    source: int = -1
    target: int = -1


DEAL_MOVE = Move(DEAL)
REDEAL_MOVE = Move(REDEAL)
_PLAYS = tuple(tuple(Move(PLAY, s, t) for t in range(_MAX_PILES)) for s in range(_MAX_PILES))


class State(NamedTuple):
    """Depots (each bottom to top), the stock (next dealt first), foundation places (each
    bottom to top). All hold card codes."""

    depots: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    foundations: tuple[tuple[int, ...], ...]


class Amazons:
    """Amazons with its options fixed.

    ``ranks`` (the foundation order, Ace first) and ``piles`` (depots and foundation places) are
    for testing on reduced decks; the game itself uses the 28-card deck and four depots. The
    "Queen" of ``queen_any_depot`` is the last rank of the foundation order.
    """

    def __init__(
        self,
        gather: str = LEFT_TO_RIGHT,
        queen_any_depot: bool = False,
        compulsory: bool = False,
        any_suit: bool = False,
        ace_any_place: bool = False,
        skip_complete: bool = False,
        *,
        ranks: Sequence[int] = STRIPPED_RANKS,
        piles: int = 4,
    ) -> None:
        if gather not in (LEFT_TO_RIGHT, RIGHT_TO_LEFT):
            raise ValueError(f"gather must be {LEFT_TO_RIGHT} or {RIGHT_TO_LEFT}, not {gather!r}")
        if not 1 <= piles <= _MAX_PILES:
            raise ValueError(f"piles must be 1 to {_MAX_PILES}")
        ranks = tuple(ranks)
        if not ranks or ranks[0] != 1 or list(ranks) != sorted(set(ranks)):
            raise ValueError("ranks must ascend from the Ace")
        self.gather = gather
        self.queen_any_depot = queen_any_depot
        self.compulsory = compulsory
        self.any_suit = any_suit
        self.ace_any_place = ace_any_place
        self.skip_complete = skip_complete
        self._next_pass_cache: dict[bytes, int] = {}  # the redeal bound's look-ahead, by layout
        self.ranks = ranks
        self.piles = piles
        self.height = len(ranks)  # a complete foundation place holds this many cards
        self._range = range(piles)
        self._gather_order = tuple(range(piles)) if gather == LEFT_TO_RIGHT else tuple(range(piles - 1, -1, -1))
        # level[c]: 0-based position of card c's rank in the foundation order (-1: not in the deck).
        level = [-1] * 52
        for code in range(52):
            rank = CARDS[code].rank
            if rank in ranks:
                level[code] = ranks.index(rank)
        self._level = tuple(level)
        # A place topped by t accepts card c (not an Ace) iff mark[t] == need[c].
        if any_suit:
            self._mark = tuple(level)
            self._need = tuple(lv - 1 if lv > 0 else -2 for lv in level)
        else:
            self._mark = tuple(range(52))
            need = [-2] * 52
            for code in range(52):
                if level[code] > 0:
                    need[code] = code - CARDS[code].rank + ranks[level[code] - 1]
            self._need = tuple(need)
        self._top_level = self.height - 1
        # Keys: card codes as they matter (ranks only when suits do not matter).
        table = bytearray(range(256))
        if any_suit:
            for code in range(52):
                table[code] = max(level[code], 0)
        self._translate = bytes(table)

    # ----- the search protocol ---------------------------------------------------------------

    def start(self, deal: Sequence[Card]) -> State:
        """Depots empty, then the first deal of one card to each depot."""
        codes = tuple(card.code for card in deal)
        if len(set(codes)) != len(codes):
            raise CardError("a card is dealt twice")
        foreign = [str(card) for card in deal if card.rank not in self.ranks]
        if foreign:
            raise CardError("not in this game's deck: " + " ".join(foreign))
        empty: tuple[tuple[int, ...], ...] = ((),) * self.piles
        return self._deal(State(empty, codes, empty))

    def plays(self, state: State) -> list[Move]:
        """The plays the options allow (to foundations), before compulsion is considered."""
        depots, _, foundations = state
        found: list[Move] = []
        aces: list[Move] = []
        level, mark, need = self._level, self._mark, self._need
        empty_places = None
        for source in self._range:
            depot = depots[source]
            if not depot:
                continue
            card = depot[-1]
            card_level = level[card]
            if card_level == 0:
                if empty_places is None:
                    empty_places = [t for t in self._range if not foundations[t]]
                if empty_places:
                    row = _PLAYS[source]
                    if self.ace_any_place:
                        aces.extend(row[t] for t in empty_places)
                    else:
                        aces.append(row[empty_places[0]])
            elif self.queen_any_depot and card_level == self._top_level:
                wanted = need[card]
                for target in self._range:
                    place = foundations[target]
                    if place and mark[place[-1]] == wanted:
                        found.append(_PLAYS[source][target])
            else:
                place = foundations[source]
                if place and mark[place[-1]] == need[card]:
                    found.append(_PLAYS[source][source])
        found.extend(aces)
        return found

    def moves(self, state: State) -> list[Move]:
        """Plays first (Aces last among them), then the deal or redeal.

        With the pinned-card bound cutting the dead layouts, playing first finds wins in fewer
        states, with fewer redeals and shorter lines than dealing first (PySolFC deals 1..300:
        0.6 times the states for ``amazons``, 0.06 times for ``amazons-pysol``).
        """
        plays = self.plays(state)
        if state.stock:
            if not (plays and self.compulsory) and self._deal_targets(state.foundations):
                plays.append(DEAL_MOVE)
        elif any(state.depots):
            plays.append(REDEAL_MOVE)
        return plays

    def apply(self, state: State, move: Move) -> State:
        kind = move.kind
        if kind == PLAY:
            depots, stock, foundations = state
            source, target = move.source, move.target
            depot = depots[source]
            card = depot[-1]
            new_depots = depots[:source] + (depot[:-1],) + depots[source + 1 :]
            new_foundations = foundations[:target] + (foundations[target] + (card,),) + foundations[target + 1 :]
            return State(new_depots, stock, new_foundations)
        if kind == DEAL:
            return self._deal(state)
        depots = state.depots
        stock: tuple[int, ...] = ()
        for pile in self._gather_order:
            stock += depots[pile]
        return State(((),) * self.piles, stock, state.foundations)

    def _deal_targets(self, foundations: tuple[tuple[int, ...], ...]) -> Sequence[int]:
        if self.skip_complete:
            height = self.height
            return [pile for pile in self._range if len(foundations[pile]) < height]
        return self._range

    def _deal(self, state: State) -> State:
        depots, stock, foundations = state
        targets = self._deal_targets(foundations)
        new_depots = list(depots)
        for card, pile in zip(stock, targets):
            new_depots[pile] = new_depots[pile] + (card,)
        dealt = min(len(stock), len(targets))
        return State(tuple(new_depots), stock[dealt:], foundations)

    def is_won(self, state: State) -> bool:
        return not state.stock and not any(state.depots)

    def key(self, state: State) -> bytes:
        depots, stock, foundations = state
        places = []
        height = self.height
        for place in foundations:
            if not place:
                places.append(_EMPTY_PLACE)
            elif len(place) == height:
                places.append(_COMPLETE_PLACE)
            elif self.any_suit:
                places.append(len(place))
            else:
                places.append(place[-1])
        parts = [bytes(stock)]
        for depot in depots:
            parts.append(bytes(depot))
        cards = b"\xff".join(parts)
        if self.any_suit:
            cards = cards.translate(self._translate)
        return bytes(places) + cards

    def score(self, state: State) -> int:
        """Cards not on the foundations (0 = won)."""
        return len(state.stock) + sum(map(len, state.depots))

    def lower_bound(self, state: State) -> int:
        """Cards that can never reach a foundation, from the card pinned to D1.

        Gathering left to right puts D1's bottom card first in the new stock, so the next deal
        returns it to the bottom of D1: it never leaves D1 except to a foundation (when
        ``skip_complete`` is off). If it can never go up from D1 (see :meth:`_blocked`), it stays,
        and so do the higher cards of its suit when suits matter. This pins down most dead
        layouts of a few cards, the bulk of a long search.
        """
        if self.gather != LEFT_TO_RIGHT or self.skip_complete:
            return 0
        depots, stock, foundations = state
        pinned = depots[0][0] if depots[0] else stock[0] if stock else None
        if pinned is None or not self._blocked(pinned, 0, foundations):
            return 0
        return 1 if self.any_suit else 1 + self._top_level - self._level[pinned]

    def _blocked(self, card: int, pile: int, foundations: tuple[tuple[int, ...], ...]) -> bool:
        """Whether ``card`` can never go up from depot ``pile``: it is not an Ace, can go only
        to the place above its depot (not a ``queen_any_depot`` Queen), and that place can never
        take it: it is complete or past the card's rank, or holds another suit, or is empty while
        the card's own Ace is already up elsewhere."""
        level = self._level
        card_level = level[card]
        if card_level == 0 or (self.queen_any_depot and card_level == self._top_level):
            return False
        place = foundations[pile]
        if place and level[place[-1]] >= card_level:
            return True
        if self.any_suit:
            return False
        suit = card // 13
        if not place:
            return any(other and other[0] // 13 == suit for other in foundations)
        return place[-1] // 13 != suit

    # ----- costs, for the fewest passes through the stock (IDA*) -----------------------------

    def move_cost(self, state: State, move: Move) -> int:
        """A redeal costs 1 (one more pass through the stock); plays and deals cost nothing."""
        return 1 if move.kind == REDEAL else 0

    _DEPTH = 2  # passes looked through beyond the two-pass test (each multiplies the time)
    _CACHE_SIZE = 200_000

    def cost_to_win_bound(self, state: State) -> int:
        """A lower bound on the redeals any win from ``state`` still needs.

        With ``any_suit`` or ``skip_complete``: 0 or 1, see :meth:`_one_pass_bound`. Otherwise
        up to 4, see :meth:`_passes_bound`.
        """
        if self.any_suit or self.skip_complete:
            return self._one_pass_bound(state)
        return self._passes_bound(state, self._DEPTH)

    def _passes_bound(self, state: State, depth: int) -> int:
        """Redeals any win from ``state`` still needs, at least (suits mattering, ``skip_complete``
        off): 0 to ``depth`` + 2.

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

        With ``depth`` left, at least 1 + the least of this bound (one ``depth`` less) over every
        layout the next pass can start from (:meth:`_next_passes`): a win from here redeals once
        and then wins from one of those.
        """
        depots, stock, foundations = state
        if not stock and not any(depots):
            return 0
        piles = self.piles
        columns = [depots[c] + stock[c::piles] for c in self._range]
        empty = 0
        for t in self._range:
            if not foundations[t]:
                empty |= 1 << t
        masks = [empty] * 4  # per suit: the columns it can go up from, as bits
        for t in self._range:
            place = foundations[t]
            if place:
                masks[place[0] // 13] = 1 << t
        stuck = self._stuck_this_pass(depots, foundations, columns, masks)
        if stuck is None:
            return 0
        if not self._stuck_next_pass(columns, stuck, masks):
            return 1
        if depth <= 0:
            return 2
        return max(2, 1 + self._next_passes(foundations, columns, stuck, depth - 1))

    def _next_passes(
        self, foundations: tuple[tuple[int, ...], ...], columns: list[tuple[int, ...]], stuck: bytearray, depth: int
    ) -> int:
        """The least :meth:`_passes_bound` (with ``depth``) over the layouts the next pass can
        start from, or a lower value.

        Each suit goes up in rank order, so the cards a pass plays are, per suit, the lowest few
        of those left, none of them stuck. For each such choice the next pass starts from empty
        depots and a stock of the cards left, in gather order (:meth:`_stuck_next_pass`), with a
        place holding a suit extended by the cards played. A suit whose Ace is not up is left
        without a place (its Ace may take any place empty now): that only lets more cards go up,
        so the bound it gives is no higher than with the place the Ace really takes. Answers are
        cached per game, the cache emptied when full.
        """
        level = self._level
        prefixes = []
        for suit in range(4):
            chain = sorted((card for column in columns for card in column if card // 13 == suit), key=level.__getitem__)
            prefix = []
            for card in chain:
                if stuck[card]:
                    break
                prefix.append(card)
            prefixes.append(prefix)
        place_of = {}
        for t in self._range:
            if foundations[t]:
                place_of[foundations[t][0] // 13] = t
        cache = self._next_pass_cache
        if len(cache) > self._CACHE_SIZE:
            cache.clear()
        empty = ((),) * self.piles
        best = 99
        for counts in itertools.product(*[range(len(prefix), -1, -1) for prefix in prefixes]):
            gone = set()
            new_foundations = list(foundations)
            for suit, count in enumerate(counts):
                if count:
                    played = prefixes[suit][:count]
                    gone.update(played)
                    if suit in place_of:
                        t = place_of[suit]
                        new_foundations[t] = new_foundations[t] + tuple(played)
            stock = tuple(card for c in self._gather_order for card in columns[c] if card not in gone)
            tops = bytes(place[-1] if place else _EMPTY_PLACE for place in new_foundations)
            key = bytes(stock) + tops + bytes((depth,))
            bound = cache.get(key)
            if bound is None:
                bound = cache[key] = self._passes_bound(State(empty, stock, tuple(new_foundations)), depth)
            if bound < best:
                best = bound
                if bound <= 1:
                    return bound
        return best

    def _stuck_this_pass(
        self,
        depots: tuple[tuple[int, ...], ...],
        foundations: tuple[tuple[int, ...], ...],
        columns: list[tuple[int, ...]],
        masks: list[int],
    ) -> bytearray | None:
        """Flags (by card code) of the cards that cannot go up before this pass ends; None if
        there are none. ``columns``: each column's cards in deal order this pass; ``masks``: the
        columns each suit can go up from.

        A column under a place holding suit s can give up only Aces, ``queen_any_depot`` Queens
        and the next cards of s, in rank order, each from its top. Dealing its cards in order and
        taking every such top card at once (every Ace and such Queen counted as always playable)
        takes up every card any line of play can take from it this pass: taking a card earlier
        never stops a later take. Its cards left are stuck.

        Under an empty place: a card whose suit cannot go up from the column is stuck. Then, to
        a fixed point: a card above a stuck card of its own suit is stuck (a suit goes up in rank
        order; a ``queen_any_depot`` Queen too waits for its Jack); in a depot under an empty
        place, a card under a stuck card, or under a higher card of its own suit, is stuck (a
        card leaves a depot only from its top, and only to a foundation).
        """
        level, top = self._level, self._top_level
        queen_any = self.queen_any_depot
        stuck = bytearray(52)
        found = False
        loose = []
        for c in self._range:
            column = columns[c]
            place = foundations[c]
            if place:
                suit, wanted = place[0] // 13, len(place)
                depot = depots[c]
                pile = list(depot)
                index, end = len(depot), len(column)
                while True:
                    while pile:
                        card = pile[-1]
                        card_level = level[card]
                        if card_level == wanted and card // 13 == suit:
                            wanted += 1
                        elif card_level and not (queen_any and card_level == top):
                            break
                        pile.pop()
                    if index == end:
                        break
                    pile.append(column[index])
                    index += 1
                for card in pile:
                    stuck[card] = 1
                    found = True
                continue
            loose.append(c)
            bit = 1 << c
            for card in column:
                card_level = level[card]
                if card_level and not masks[card // 13] & bit and not (queen_any and card_level == top):
                    stuck[card] = 1
                    found = True
            depot = depots[c]
            for index in range(len(depot) - 1):
                card = depot[index]
                suit, card_level = card // 13, level[card]
                for above in depot[index + 1 :]:
                    if above // 13 == suit and level[above] > card_level:
                        stuck[card] = 1
                        found = True
                        break
        if not found:
            return None
        while True:
            changed = False
            lowest = [99] * 4
            for column in columns:
                for card in column:
                    if stuck[card] and level[card] < lowest[card // 13]:
                        lowest[card // 13] = level[card]
            for column in columns:
                for card in column:
                    if not stuck[card] and level[card] > lowest[card // 13]:
                        stuck[card] = 1
            for c in loose:
                depot = depots[c]
                for index in range(len(depot) - 1, 0, -1):
                    if stuck[depot[index]]:
                        for card in depot[:index]:
                            if not stuck[card]:
                                stuck[card] = 1
                                changed = True
                        break
            if not changed:
                return stuck

    def _stuck_next_pass(self, columns: list[tuple[int, ...]], stuck: bytearray, masks: list[int]) -> bool:
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
        piles, level, top = self.piles, self._level, self._top_level
        queen_any = self.queen_any_depot
        full = (1 << piles) - 1
        back = piles - 1
        reach = 1
        for c in self._gather_order:
            for card in columns[c]:
                card_level = level[card]
                if card_level == 0 or (queen_any and card_level == top):
                    ok = reach
                else:
                    ok = reach & masks[card // 13]
                ok = ((ok << 1) | (ok >> back)) & full
                if stuck[card]:
                    if not ok:
                        return True
                    reach = ok
                else:
                    reach |= ok
        return False

    def _one_pass_bound(self, state: State) -> int:
        """0 or 1: 1 when some card provably cannot reach a foundation before this pass ends.

        Admissible because, with no redeal, cards leave a depot only for a foundation, and a
        win needs every card there. A card is stuck for the rest of the pass when (suits
        mattering) it lies in a depot under a higher card of its own suit (that card can go up
        only after it), or when it is not an Ace, can go only to the place above its depot
        (not a ``queen_any_depot`` Queen), and that place can never take it: it is complete or
        past the card's rank, or holds another suit, or is empty while the card's own Ace is
        already up elsewhere. Cards still in the stock are checked against the depot they
        will be dealt to, which is fixed unless ``skip_complete`` is on (then only cards already
        in the depots are checked).
        """
        depots, stock, foundations = state
        if not stock and not any(depots):
            return 0
        level, any_suit, blocked = self._level, self.any_suit, self._blocked
        for pile in self._range:
            depot = depots[pile]
            for index, card in enumerate(depot):
                if blocked(card, pile, foundations):
                    return 1
                if not any_suit:
                    suit, card_level = card // 13, level[card]
                    for above in depot[index + 1 :]:
                        if above // 13 == suit and level[above] > card_level:
                            return 1
        if not self.skip_complete:
            piles = self.piles
            for index, card in enumerate(stock):
                if blocked(card, index % piles, foundations):
                    return 1
        return 0

    # ----- notation ----------------------------------------------------------------------------

    def describe_move(self, state: State, move: Move) -> str:
        """``AS to F1`` (an Ace), ``8H from D3 to F3``, ``deal``, ``redeal``."""
        if move.kind == DEAL:
            return "deal"
        if move.kind == REDEAL:
            return "redeal"
        card = state.depots[move.source][-1]
        if self._level[card] == 0:
            return f"{CARDS[card]} to F{move.target + 1}"
        return f"{CARDS[card]} from D{move.source + 1} to F{move.target + 1}"

    def parse_move(self, state: State, text: str) -> Move:
        words = text.strip().lower()
        if words == "deal":
            return DEAL_MOVE
        if words == "redeal":
            return REDEAL_MOVE
        found = _PLAY_TEXT.match(text)
        if not found:
            raise MoveError(
                f"cannot read move {text.strip()!r}: write e.g. 'AS to F1', '8H from D3 to F3', 'deal' or 'redeal'"
            )
        try:
            card = parse_card(found.group(1)).code
        except CardError as error:
            raise MoveError(f"move {text.strip()!r}: {error}") from None
        target = int(found.group(3)) - 1
        if not 0 <= target < self.piles:
            raise MoveError(f"move {text.strip()!r}: there is no foundation place F{target + 1}")
        tops = [depot[-1] if depot else None for depot in state.depots]
        if found.group(2) is not None:
            source = int(found.group(2)) - 1
            if not 0 <= source < self.piles:
                raise MoveError(f"move {text.strip()!r}: there is no depot D{source + 1}")
            if tops[source] != card:
                raise MoveError(f"move {text.strip()!r}: {CARDS[card]} is not the top card of D{source + 1}")
        elif card in tops:
            source = tops.index(card)
        else:
            raise MoveError(f"move {text.strip()!r}: {CARDS[card]} is not the top card of a depot")
        return _PLAYS[source][target]

    def render(self, state: State) -> str:
        depots, stock, foundations = state
        places = " ".join(
            f"F{n}:{CARDS[place[-1]] if place else '--'}" for n, place in enumerate(foundations, 1)
        )
        piles = " ".join(
            f"D{n}:[{' '.join(str(CARDS[c]) for c in depot)}]" for n, depot in enumerate(depots, 1)
        )
        return f"{places} | {piles} | stock {len(stock)}"


_PLAY_TEXT = re.compile(r"^\s*(\S+)\s+(?:from\s+D(\d+)\s+)?to\s+F(\d+)\s*$", re.IGNORECASE)

_OPTIONS = (
    Option(
        "gather",
        LEFT_TO_RIGHT,
        "how a redeal gathers the depots into the new stock: left-to-right deals D1's cards first "
        "(bottom to top), then D2's, D3's, D4's (Parlett); right-to-left deals D4's first (Dick)",
        (LEFT_TO_RIGHT, RIGHT_TO_LEFT),
    ),
    Option(
        "queen_any_depot",
        False,
        "a Queen may go to its foundation from any depot (Morehead & Mott-Smith); "
        "with any_suit, to any foundation topped by a Jack",
    ),
    Option("compulsory", False, "deal only when no play is available (an Ace counts as a play)"),
    Option("any_suit", False, "foundations build by rank regardless of suit (PySolFC 406)"),
    Option("ace_any_place", False, "an Ace may go to any empty foundation place (PySolFC 406)"),
    Option(
        "skip_complete",
        False,
        "a deal gives one card to each depot whose foundation is not yet complete (all seven), "
        "left to right (PySolFC 406)",
    ),
)


def build(settings: Mapping[str, Any]) -> Amazons:
    return Amazons(**settings)


FAMILIES = (
    Family(
        name="amazons",
        summary="28 cards dealt in fours onto four depots; each depot feeds only the foundation above it",
        rules=(
            "Deck: 28 cards, A 7 8 9 T J Q of each suit; foundations build A,7,8,9,T,J,Q in suit.\n"
            "Four depots D1..D4 with foundation places F1..F4 directly above them. Deal one card\n"
            "from the stock onto each depot, left to right, covering what is there (fewer than four\n"
            "left: deal them left to right). The top card of a depot may be played: an Ace goes to\n"
            "the leftmost empty foundation place (Aces fill F1..F4 in the order they are played,\n"
            "when the player chooses); any other card goes from Di only to Fi, and only as the next\n"
            "card of Fi's suit. Plays are optional: deal at any time. When the stock is empty the\n"
            "player may redeal: the depots are gathered without shuffling into a new stock (left to\n"
            "right: D1's cards bottom to top first, then D2's, ...), as often as wanted; dealing\n"
            "from it is the next move. Won when all 28 cards are on the foundations. Score: cards\n"
            "not on the foundations. Moves read 'AS to F1', '8H from D3 to F3', 'deal', 'redeal'.\n"
            "--fewest-redeals finds the win with the fewest passes through the stock."
        ),
        options=_OPTIONS,
        variants=(
            Variant("amazons", "Parlett's rules: gather left to right"),
            Variant("amazons-dick", "Dick's rules: gather right to left", {"gather": RIGHT_TO_LEFT}),
            Variant(
                "amazons-mms", "Morehead & Mott-Smith: a Queen may go up from any depot", {"queen_any_depot": True}
            ),
            Variant(
                "amazons-pysol",
                "as PySolFC game 406",
                {
                    "any_suit": True,
                    "ace_any_place": True,
                    "queen_any_depot": True,
                    "skip_complete": True,
                    "gather": RIGHT_TO_LEFT,
                },
            ),
        ),
        build=build,
        ranks=STRIPPED_RANKS,
    ),
)
