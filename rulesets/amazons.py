"""Amazons: a 28-card stripped deck dealt in fours onto four depots, each feeding only the
foundation place above it, with unlimited redeals gathered without shuffling.

A state (:class:`AmazonsState`) is the depots, the stock and the foundation places, all tuples
of card codes (see :mod:`rulesets.cards`): each depot bottom to top, the stock next-dealt first,
each foundation place bottom (its Ace) to top. Moves are a :class:`Play` (a depot's top card to
a foundation place), :data:`~rulesets.moves.DEAL`, or :data:`~rulesets.moves.REDEAL` (gathering
the depots into a new stock).

Unlimited redeals make the state graph cyclic; it is finite, and the engine's transposition
table makes the search terminate on it, so an exhausted search is a proof of loss. The key is
canonical: it holds only what decides the future (a foundation place is its top card, or just its
height when foundations build regardless of suit, when the cards' suits are also dropped; a
complete place is only "complete").

There are no move reductions: every play, deal and redeal the rules allow is searched. Two
admissible bounds prune the search: on the cards left (:meth:`Amazons.lower_bound`, the card
pinned to D1), and for ``--fewest-redeals`` on the redeals a win still needs
(:mod:`rulesets.amazons_redeals`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from rulesets.amazons_position import check_deck, check_foundation, check_places_fill_left_to_right, read_row
from rulesets.amazons_redeals import RedealBound
from rulesets.cards import NAME, RANK, SUIT, Card, CardError
from rulesets.deals import STRIPPED_RANKS
from rulesets.family import Costs, Family, Option, Variant
from rulesets.moves import DEAL, REDEAL, StockMove
from rulesets.notation import (
    MoveError,
    cannot_read,
    describe_deal,
    quoted_move,
    read_card,
    read_card_list,
    read_sections,
    write_card_list,
    write_piles,
    write_sections,
)
from rulesets.picture import Picture, Place
from rulesets.stock import StockInField

LEFT_TO_RIGHT, RIGHT_TO_LEFT = "left-to-right", "right-to-left"
_MAX_PILES = 8
_SEPARATOR = b"\xff"  # between the stock and each depot in a key (card codes are < 52)
_EMPTY_PLACE = 0xFE
_COMPLETE_PLACE = 0xFD
#: The compiled kernel's states (rulesets/_amazons.pyx): their size, an empty place's top, and the
#: codes of a deal and a redeal (a play is ``8 * source + target``).
_KERNEL_STATE, _NO_CARD, _DEAL_CODE, _REDEAL_CODE = 72, 0xFF, 64, 65

Piles = tuple[tuple[int, ...], ...]


class Play(NamedTuple):
    """Depot ``source``'s top card played to foundation place ``target`` (both 0-based)."""

    source: int
    target: int


AmazonsMove = Play | StockMove
_PLAYS = tuple(tuple(Play(s, t) for t in range(_MAX_PILES)) for s in range(_MAX_PILES))


class AmazonsState(NamedTuple):
    """Depots (each bottom to top), the stock (next dealt first), foundation places (each
    bottom to top). All hold card codes."""

    depots: Piles
    stock: tuple[int, ...]
    foundations: Piles


class Amazons(StockInField):
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
        self.top_level = self.height - 1  # the level of the last rank (the "Queen")
        self._range = range(piles)
        self.gather_order = tuple(range(piles)) if gather == LEFT_TO_RIGHT else tuple(range(piles - 1, -1, -1))
        #: level[c]: 0-based position of card c's rank in the foundation order (-1: not in the deck).
        self.level = tuple(ranks.index(RANK[code]) if RANK[code] in ranks else -1 for code in range(52))
        self._mark, self._need = self._acceptance(self.level)
        # Keys: card codes as they matter (ranks only when suits do not matter).
        table = bytearray(range(256))
        if any_suit:
            for code in range(52):
                table[code] = max(self.level[code], 0)
        self._translate = bytes(table)
        self._redeal_bounds = threading.local()  # each thread's RedealBound, see redeal_bound()

    def _acceptance(self, level: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(mark, need): a place topped by t accepts card c (not an Ace) iff mark[t] == need[c]."""
        if self.any_suit:
            return level, tuple(lv - 1 if lv > 0 else -2 for lv in level)
        need = [-2] * 52
        for code in range(52):
            if level[code] > 0:
                need[code] = code - RANK[code] + self.ranks[level[code] - 1]
        return tuple(range(52)), tuple(need)

    # ----- the search protocol ---------------------------------------------------------------

    def start(self, deal: Sequence[Card]) -> AmazonsState:
        """Depots empty, then the first deal of one card to each depot."""
        codes = tuple(card.code for card in deal)
        if len(set(codes)) != len(codes):
            raise CardError("a card is dealt twice")
        foreign = [str(card) for card in deal if card.rank not in self.ranks]
        if foreign:
            raise CardError("not in this game's deck: " + " ".join(foreign))
        empty: Piles = ((),) * self.piles
        return self._deal(AmazonsState(empty, codes, empty))

    def plays(self, state: AmazonsState) -> list[AmazonsMove]:
        """The plays the options allow (to foundations), before compulsion is considered."""
        depots, _, foundations = state
        found: list[AmazonsMove] = []
        aces: list[AmazonsMove] = []
        level, mark, need = self.level, self._mark, self._need
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
            elif self.queen_any_depot and card_level == self.top_level:
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

    def moves(self, state: AmazonsState) -> list[AmazonsMove]:
        """Plays first (Aces last among them), then the deal or redeal.

        With the pinned-card bound cutting the dead layouts, playing first finds wins in fewer
        states, with fewer redeals and shorter lines than dealing first (PySolFC deals 1..300:
        0.6 times the states for ``amazons``, 0.06 times for ``amazons-pysol``).
        """
        plays = self.plays(state)
        if state.stock:
            if not (plays and self.compulsory) and self._deal_targets(state.foundations):
                plays.append(DEAL)
        elif any(state.depots):
            plays.append(REDEAL)
        return plays

    def apply(self, state: AmazonsState, move: AmazonsMove) -> AmazonsState:
        if isinstance(move, Play):
            depots, stock, foundations = state
            source, target = move
            depot = depots[source]
            card = depot[-1]
            new_depots = depots[:source] + (depot[:-1],) + depots[source + 1 :]
            new_foundations = foundations[:target] + (foundations[target] + (card,),) + foundations[target + 1 :]
            return AmazonsState(new_depots, stock, new_foundations)
        if move is DEAL:
            return self._deal(state)
        gathered: tuple[int, ...] = ()
        for pile in self.gather_order:
            gathered += state.depots[pile]
        return AmazonsState(((),) * self.piles, gathered, state.foundations)

    def _deal_targets(self, foundations: Piles) -> Sequence[int]:
        if self.skip_complete:
            height = self.height
            return [pile for pile in self._range if len(foundations[pile]) < height]
        return self._range

    def _deal(self, state: AmazonsState) -> AmazonsState:
        depots, stock, foundations = state
        targets = self._deal_targets(foundations)
        new_depots = list(depots)
        for card, pile in zip(stock, targets):
            new_depots[pile] = new_depots[pile] + (card,)
        dealt = min(len(stock), len(targets))
        return AmazonsState(tuple(new_depots), stock[dealt:], foundations)

    def is_won(self, state: AmazonsState) -> bool:
        return not state.stock and not any(state.depots)

    def key(self, state: AmazonsState) -> bytes:
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
        cards = _SEPARATOR.join(parts)
        if self.any_suit:
            cards = cards.translate(self._translate)
        return bytes(places) + cards

    def score(self, state: AmazonsState) -> int:
        """Cards not on the foundations (0 = won)."""
        return len(state.stock) + sum(map(len, state.depots))

    def lower_bound(self, state: AmazonsState) -> int:
        """Cards that can never reach a foundation, from the card pinned to D1.

        Gathering left to right puts D1's bottom card first in the new stock, so the next deal
        returns it to the bottom of D1: it never leaves D1 except to a foundation (when
        ``skip_complete`` is off). If it can never go up from D1 (see :meth:`blocked`), it stays,
        and so do the higher cards of its suit when suits matter. This pins down most dead
        layouts of a few cards, the bulk of a long search.
        """
        if self.gather != LEFT_TO_RIGHT or self.skip_complete:
            return 0
        depots, stock, foundations = state
        pinned = depots[0][0] if depots[0] else stock[0] if stock else None
        if pinned is None or not self.blocked(pinned, 0, foundations):
            return 0
        return 1 if self.any_suit else 1 + self.top_level - self.level[pinned]

    def blocked(self, card: int, pile: int, foundations: Piles) -> bool:
        """Whether ``card`` can never go up from depot ``pile``: it is not an Ace, can go only
        to the place above its depot (not a ``queen_any_depot`` Queen), and that place can never
        take it: it is complete or past the card's rank, or holds another suit, or is empty while
        the card's own Ace is already up elsewhere."""
        level = self.level
        card_level = level[card]
        if card_level == 0 or (self.queen_any_depot and card_level == self.top_level):
            return False
        place = foundations[pile]
        if place and level[place[-1]] >= card_level:
            return True
        if self.any_suit:
            return False
        suit = SUIT[card]
        if not place:
            return any(other and SUIT[other[0]] == suit for other in foundations)
        return SUIT[place[-1]] != suit

    # ----- costs, for the fewest passes through the stock (IDA*) -----------------------------

    def move_cost(self, state: AmazonsState, move: AmazonsMove) -> int:
        """A redeal costs 1 (one more pass through the stock); plays and deals cost nothing."""
        return 1 if move is REDEAL else 0

    def cost_to_win_bound(self, state: AmazonsState) -> int:
        """A lower bound on the redeals any win from ``state`` still needs (see
        :mod:`rulesets.amazons_redeals`)."""
        return self.redeal_bound()(state)

    def cost_to_win_cap(self) -> int:
        """The most :meth:`cost_to_win_bound` gives (:attr:`RedealBound.most`)."""
        return self.redeal_bound().most

    def hold_bound_cache(self, max_bytes: int | None) -> Callable[[], int]:
        """Hold this thread's redeal bound cache to ``max_bytes`` (None: its default,
        :attr:`RedealBound.MAX_BYTES`, which is also the most it takes), so ``--max-memory``
        bounds it; returns its measure of the bytes it holds."""
        bound = self.redeal_bound()
        bound.hold(RedealBound.MAX_BYTES if max_bytes is None else min(max_bytes, RedealBound.MAX_BYTES))
        return bound.approximate_bytes

    def redeal_bound(self) -> RedealBound:
        """This thread's redeal bound: each thread has its own, so no thread reads a cache
        another is writing (a survey worker may solve deals in several threads)."""
        bounds = self._redeal_bounds
        try:
            bound: RedealBound = bounds.bound
        except AttributeError:
            bound = bounds.bound = RedealBound(self)
        return bound

    # ----- the compiled kernel (rulesets/_amazons.pyx) ------------------------------------------

    def kernel(self) -> Any:
        """The compiled twin of this ruleset and its redeal bound, with the same cap (its cache has
        a bound of its own, 1 MiB by default: see rulesets/_amazons.pyx); ImportError where not
        built."""
        from rulesets._amazons import AmazonsKernel

        return AmazonsKernel(
            self.ranks,
            self.piles,
            self.gather == LEFT_TO_RIGHT,
            self.queen_any_depot,
            self.compulsory,
            self.any_suit,
            self.ace_any_place,
            self.skip_complete,
            RedealBound.CAP,
        )

    def encode(self, state: AmazonsState) -> bytes:
        """The kernel's state: the stock's length, each depot's, each place's top card (0xFF:
        empty), then the stock and the depots (a place is read only by its top)."""
        depots, stock, foundations = state
        spare = _MAX_PILES - self.piles
        lengths = bytes((len(stock), *map(len, depots))) + bytes(spare)
        tops = bytes(place[-1] if place else _NO_CARD for place in foundations) + bytes((_NO_CARD,)) * spare
        cards = bytes(stock) + b"".join(map(bytes, depots))
        return (lengths + tops + cards).ljust(_KERNEL_STATE, b"\0")

    def decode(self, code: int) -> AmazonsMove:
        """The move a kernel numbers ``code``: ``8 * source + target`` a play, then the deal and redeal."""
        if code == _DEAL_CODE:
            return DEAL
        if code == _REDEAL_CODE:
            return REDEAL
        return _PLAYS[code >> 3][code & 7]

    def __getstate__(self) -> dict[str, Any]:
        """The ruleset without its threads' redeal-bound caches (a thread-local cannot be pickled,
        and a cache is only a cache), so that it, and a result holding it, crosses to another
        process."""
        state = self.__dict__.copy()
        del state["_redeal_bounds"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._redeal_bounds = threading.local()

    # ----- notation ----------------------------------------------------------------------------

    def describe_move(self, state: AmazonsState, move: AmazonsMove) -> str:
        """``AS to F1`` (an Ace), ``8H from D3 to F3``, ``deal``, ``redeal``."""
        if move is DEAL:
            return describe_deal()
        if move is REDEAL:
            return REDEAL.value
        assert isinstance(move, Play)
        card = state.depots[move.source][-1]
        if self.level[card] == 0:
            return f"{NAME[card]} to F{move.target + 1}"
        return f"{NAME[card]} from D{move.source + 1} to F{move.target + 1}"

    def parse_move(self, state: AmazonsState, text: str) -> AmazonsMove:
        words = text.strip().lower()
        if words == DEAL.value:
            return DEAL
        if words == REDEAL.value:
            return REDEAL
        found = _PLAY_TEXT.match(text)
        if not found:
            raise cannot_read(text, "'AS to F1', '8H from D3 to F3', 'deal' or 'redeal'")
        card = read_card(found.group(1), text)
        target = self._place_number(found.group(3), "foundation place F", text)
        tops = [depot[-1] if depot else None for depot in state.depots]
        if found.group(2) is not None:
            source = self._place_number(found.group(2), "depot D", text)
            if tops[source] != card:
                raise MoveError(f"move {quoted_move(text)}: {NAME[card]} is not the top card of D{source + 1}")
        elif card in tops:
            source = tops.index(card)
        else:
            raise MoveError(f"move {quoted_move(text)}: {NAME[card]} is not the top card of a depot")
        return _PLAYS[source][target]

    def _place_number(self, digits: str, place: str, text: str) -> int:
        """The 0-based index of the depot or foundation place numbered ``digits`` in a move."""
        index = int(digits) - 1
        if not 0 <= index < self.piles:
            raise MoveError(f"move {quoted_move(text)}: there is no {place}{index + 1}")
        return index

    # ----- positions ----------------------------------------------------------------------------

    def write_position(self, state: AmazonsState) -> str:
        """``foundations: AS 7S / - / AH / - | depots: 8H 9C / - / ... | stock: ...``: each
        foundation place and depot bottom card first, the stock next card first."""
        return write_sections(
            (
                ("foundations", write_piles(state.foundations)),
                ("depots", write_piles(state.depots)),
                ("stock", write_card_list(state.stock)),
            )
        )

    def read_position(self, text: str) -> AmazonsState:
        """A position as :meth:`write_position` writes it, checked (:mod:`rulesets.amazons_position`)."""
        sections = read_sections(text, "Amazons", ("foundations", "depots", "stock"))
        foundations = read_row(sections["foundations"], "foundations", "foundation places", self.piles)
        depots = read_row(sections["depots"], "depots", "depots", self.piles)
        stock = tuple(read_card_list(sections["stock"], "stock"))
        check_deck([*stock, *(card for pile in depots + foundations for card in pile)], self.level)
        for number, place in enumerate(foundations, 1):
            check_foundation(number, place, self.level, self.ranks, self.any_suit)
        if not self.ace_any_place:
            check_places_fill_left_to_right(foundations)
        return AmazonsState(depots, stock, foundations)

    # ----- the picture ---------------------------------------------------------------------------

    def picture(self, state: AmazonsState) -> Picture:
        """Foundation places F1.. in a row (their top cards), the depots D1.. fanned below,
        then the stock face down."""
        places = tuple(Place(f"F{n}", place) for n, place in enumerate(state.foundations, 1))
        depots = tuple(Place(f"D{n}", depot) for n, depot in enumerate(state.depots, 1))
        stock = (Place("stock", face_down=len(state.stock)),)
        return Picture((places, depots, stock), fanned=(False, True, False))

    def touched(self, state: AmazonsState, move: AmazonsMove) -> frozenset[str]:
        """A play: its depot and place; a deal: the depots dealt to and the stock; a redeal:
        the depots gathered and the stock."""
        if move is DEAL:
            dealt = self._deal_targets(state.foundations)[: len(state.stock)]
            return frozenset([*(f"D{pile + 1}" for pile in dealt), "stock"])
        if move is REDEAL:
            return frozenset([*(f"D{pile + 1}" for pile in self._range if state.depots[pile]), "stock"])
        assert isinstance(move, Play)
        return frozenset((f"D{move.source + 1}", f"F{move.target + 1}"))


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
    Option(
        "compulsory",
        False,
        "deal only when no play is available (an Ace counts as a play); a redeal, which only gathers,"
        " is not restricted",
    ),
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
            "Deck: 28 cards, A 7 8 9 T J Q of each suit; foundations build A,7,8,9,T,J,Q in\n"
            "suit. Four depots D1..D4 with foundation places F1..F4 directly above them.\n"
            "Deal one card from the stock onto each depot, left to right, covering what is\n"
            "there (fewer than four left: deal them left to right). The opening deal of one\n"
            "card per depot is part of the setup, so a line of play does not begin with\n"
            "'deal'. The top card of a depot may be played: an Ace goes to the leftmost\n"
            "empty foundation place (Aces fill F1..F4 in the order they are played, when\n"
            "the player chooses); any other card goes from Di only to Fi, and only as the\n"
            "next card of Fi's suit. Plays are optional: deal at any time (under the\n"
            "compulsory option a playable Ace counts as a play and so forbids dealing).\n"
            "When the stock is empty and cards are left on the depots the player may\n"
            "redeal: the depots are gathered without shuffling into a new stock (left to\n"
            "right: D1's cards bottom to top first, then D2's, ...), as often as wanted;\n"
            "dealing from it is the next move. Won when all 28 cards are on the\n"
            "foundations. Score: cards not on the foundations. Moves read 'AS to F1', '8H\n"
            "from D3 to F3', 'deal', 'redeal'. --fewest-redeals finds the win with the\n"
            "fewest passes through the stock (a redeal costs 1, every other move 0).\n"
            "Positions are written 'foundations: F1 / F2 / F3 / F4 | depots: D1 / D2 / D3 /\n"
            "D4 | stock: ...', each place and depot bottom card first ('-' when empty), the\n"
            "stock next card first: e.g. foundations 'AS 7S / - / AH / -' and depots\n"
            "'8H 9C / - / QD / JS 7C'. Redeals are unlimited, so a position needs no count\n"
            "of passes."
        ),
        options=_OPTIONS,
        variants=(
            Variant(
                "amazons",
                "Parlett's rules: gather left to right",
                {},
                costs=Costs(search_rate=3_400_000, move_us=15, exact_reach=4, walk_rate=5_600_000),
            ),
            Variant(
                "amazons-dick",
                "Dick's rules: gather right to left",
                {"gather": RIGHT_TO_LEFT},
                costs=Costs(search_rate=2_600_000, move_us=16, exact_reach=4, walk_rate=6_800_000),
            ),
            Variant(
                "amazons-mms",
                "Morehead & Mott-Smith: a Queen may go up from any depot",
                {"queen_any_depot": True},
                costs=Costs(search_rate=870_000, move_us=16, exact_reach=4, walk_rate=5_800_000),
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
                costs=Costs(search_rate=340_000, move_us=21, exact_reach=8, walk_rate=3_800_000),
            ),
        ),
        build=build,
        ranks=STRIPPED_RANKS,
    ),
)
