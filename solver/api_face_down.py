"""The Python API's answers of a position whose stock lies face down (braces: ``stock: 2S {TS 9H}``):
a chance to win, not a line (docs/face-down.md). :func:`solver.solve` gives :class:`Chances`, and
:func:`solver.hint` a :class:`ChanceHint` for each legal move, best first; both are named by
:mod:`solver.api` too, which imports this module when such a position is judged or they are asked
for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from rulesets.cards import Card

if TYPE_CHECKING:
    from solver.service.chances import Judged, Worth


class Chances(NamedTuple):
    """What :func:`solver.solve` finds of a position whose stock lies face down, filled once from
    its judgement (:meth:`of`): the fields of ``patience solve --json``'s record, each below.
    ``record()`` and ``to_json()`` give that record back. See docs/face-down.md."""

    #: The family, its preset and its options, as ``solve --json`` names them.
    game: str
    variant: str
    options: dict[str, Any]
    #: The position judged, its face-down cards in braces (in the order of their codes).
    position: str
    #: The face-down cards.
    unseen: frozenset[Card]
    #: The best chance to win of a player who cannot see the stock: exact, or None where
    #: ``chance_limit`` stopped its search (``budget``: beyond the exact search's reach by default).
    chance: float | None
    chance_limit: str | None
    #: The share of the stock's orders that can be won with every card known (an upper bound of
    #: the chance; None where some order was left undecided), and its 95% interval.
    clairvoyant: float | None
    clairvoyant_low: float
    clairvoyant_high: float
    #: How many orders were counted, the limit that stopped them short of those asked for (None:
    #: none did), and whether they were every order (else a uniform sample).
    orders: int
    orders_limit: str | None
    exact: bool
    #: Where the chance was not found: the share of ``played_orders`` games (on the clairvoyant's
    #: own orders) that ``player`` (with ``player_settings``), who cannot see the stock, won from
    #: here, and its 95% interval (a range that counts the orders not played either way where
    #: every order was counted and the games stopped first); the limit that stopped the games.
    #: All None where the chance was found.
    played: float | None
    played_low: float | None
    played_high: float | None
    played_orders: int | None
    played_limit: str | None
    player: str | None
    player_settings: dict[str, Any] | None
    #: Where asked for, the information relaxation bound (an upper bound of the chance on the
    #: same orders, V exact within ``relaxed_reach`` face-down cards), its 95% interval, the
    #: orders walked and the limit that stopped the walk; all None where not asked for.
    relaxed: float | None
    relaxed_low: float | None
    relaxed_high: float | None
    relaxed_orders: int | None
    relaxed_reach: int | None
    relaxed_limit: str | None
    #: The states and CPU seconds of the exact search, and the engine that judged.
    nodes: int
    seconds: float
    engine: str

    @classmethod
    def of(cls, judged: Judged) -> Chances:
        """The answer of a judged position, from its record."""
        from rulesets.cards import CARDS, parse_card

        record = judged.record()
        unseen = frozenset(CARDS[parse_card(name).code] for name in record["unseen"])
        return cls(**{**record, "unseen": unseen})

    def record(self) -> dict[str, Any]:
        """The JSON record as a dict (``unseen`` as the cards' names, in the order of their codes)."""
        return {**self._asdict(), "unseen": [str(card) for card in sorted(self.unseen, key=lambda card: card.code)]}

    def to_json(self) -> str:
        """The record exactly as ``patience solve --json`` prints it."""
        import json

        return json.dumps(self.record())

    def __repr__(self) -> str:
        chance = "unknown" if self.chance is None else f"{self.chance:.4f}"
        return f"<Chances {self.variant}: chance {chance}, {len(self.unseen)} cards face down>"


class ChanceHint(NamedTuple):
    """One legal move of a position whose stock lies face down, as :func:`solver.hint` lists it: its
    text (``deal`` for a deal that turns up a face-down card) and the fields of :class:`Chances`
    after it. ``record()`` is ``hint --json``'s line for it."""

    move: str
    chance: float | None
    chance_limit: str | None
    clairvoyant: float | None
    clairvoyant_low: float
    clairvoyant_high: float
    orders: int
    orders_limit: str | None
    exact: bool
    played: float | None
    played_low: float | None
    played_high: float | None
    played_orders: int | None
    played_limit: str | None
    player: str | None
    player_settings: dict[str, Any] | None

    @classmethod
    def of(cls, move: str, worth: Worth) -> ChanceHint:
        fields = worth.fields()
        return cls(move, *(fields[name] for name in cls._fields[1:]))

    def record(self) -> dict[str, Any]:
        """The move as ``hint --json`` prints it in its ``moves`` list."""
        return self._asdict()


def chance_hints(judgement: Judged) -> list[ChanceHint]:
    """Each move of a judged position, best first."""
    return [ChanceHint.of(move.move, move.worth) for move in judgement.moves]
