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

import re
from typing import Any, Mapping, NamedTuple, Sequence

from rulesets.cards import CARDS, Card, CardError, parse_card
from rulesets.deals import STRIPPED_RANKS
from rulesets.family import Family, MoveError, Option, Variant

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

    def cost_to_win_bound(self, state: State) -> int:
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
