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
    from solver.chance import Concealed
    from solver.service.chances import Judged, Worth
    from solver.service.setup import Setup


class Chances(NamedTuple):
    """What :func:`solver.solve` finds of a position whose stock lies face down: ``chance``, the best
    chance to win of a player who cannot see it (exact; None where ``chance_limit`` stopped its
    search); ``clairvoyant``, the share of the stock's orders that can be won with every card
    known (an upper bound of the chance; None where some order was left undecided), with its 95%
    interval ``clairvoyant_low`` to ``clairvoyant_high``; ``orders``, how many orders were
    counted (``orders_limit``: the limit that stopped them short of those asked for, or None),
    and ``exact``, whether they were every order (else a sample); where the chance was not
    found, ``played``, the share of ``played_orders`` drawn orders that ``player`` (with
    ``player_settings``), who cannot see the stock, won from here, with its 95% interval
    ``played_low`` to ``played_high`` (an estimate from below of the chance: all None where the
    chance was found); where asked for, ``relaxed``, the information relaxation bound (an upper
    bound of the chance, on the same orders, with V exact within ``relaxed_reach`` face-down
    cards), its 95% interval ``relaxed_low`` to ``relaxed_high``, the ``relaxed_orders`` walked
    and ``relaxed_limit`` (all None where not asked for); ``unseen``, the face-down cards;
    ``nodes`` and ``seconds`` (CPU) of the exact search, and the ``engine``. ``record()`` and
    ``to_json()`` are ``patience solve --json``'s record."""

    judged: Judged

    @property
    def chance(self) -> float | None:
        return self.judged.worth.chance

    @property
    def chance_limit(self) -> str | None:
        return self.judged.worth.limit

    @property
    def clairvoyant(self) -> float | None:
        return self.judged.worth.clairvoyant()[0]

    @property
    def clairvoyant_low(self) -> float:
        return self.judged.worth.clairvoyant()[1]

    @property
    def clairvoyant_high(self) -> float:
        return self.judged.worth.clairvoyant()[2]

    @property
    def orders(self) -> int:
        return self.judged.worth.orders

    @property
    def orders_limit(self) -> str | None:
        return self.judged.worth.orders_limit

    @property
    def exact(self) -> bool:
        return bool(self.judged.worth.fields()["exact"])

    @property
    def played(self) -> float | None:
        return self.judged.worth.fields()["played"]

    @property
    def played_low(self) -> float | None:
        return self.judged.worth.fields()["played_low"]

    @property
    def played_high(self) -> float | None:
        return self.judged.worth.fields()["played_high"]

    @property
    def played_orders(self) -> int | None:
        return self.judged.worth.fields()["played_orders"]

    @property
    def player(self) -> str | None:
        return self.judged.worth.player

    @property
    def player_settings(self) -> dict[str, Any] | None:
        return self.judged.worth.player_settings

    @property
    def relaxed(self) -> float | None:
        return self.judged.relaxed_bound()[0]

    @property
    def relaxed_low(self) -> float | None:
        return self.judged.relaxed_bound()[1]

    @property
    def relaxed_high(self) -> float | None:
        return self.judged.relaxed_bound()[2]

    @property
    def relaxed_orders(self) -> int | None:
        return self.record()["relaxed_orders"]

    @property
    def relaxed_reach(self) -> int | None:
        return self.record()["relaxed_reach"]

    @property
    def relaxed_limit(self) -> str | None:
        return self.record()["relaxed_limit"]

    @property
    def unseen(self) -> frozenset[Card]:
        """The face-down cards."""
        from rulesets.cards import CARDS
        from solver.chance import unseen

        rules: Any = self.judged.setup.legal  # a game whose stock may lie face down
        return frozenset(CARDS[code] for code in unseen(rules, self.judged.position))

    @property
    def position(self) -> str:
        """The position judged, its face-down cards in braces (sorted)."""
        return str(self.record()["position"])

    @property
    def nodes(self) -> int:
        return self.judged.nodes

    @property
    def seconds(self) -> float:
        return self.judged.seconds

    @property
    def engine(self) -> str:
        return str(self.record()["engine"])

    def record(self) -> dict[str, Any]:
        """The JSON record as a dict."""
        return self.judged.record()

    def to_json(self) -> str:
        """The record exactly as ``patience solve --json`` prints it."""
        import json

        return json.dumps(self.record())

    def __repr__(self) -> str:
        chance = "unknown" if self.chance is None else f"{self.chance:.4f}"
        return f"<Chances {self.judged.setup.variant}: chance {chance}, {len(self.unseen)} cards face down>"


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


def judge_position(
    setup: Setup,
    position: Concealed,
    bounds: Any,
    *,
    samples: int | None,
    rng_seed: int | None,
    with_moves: bool,
    relaxed: int | None = None,
) -> Judged:
    """A face-down position judged as ``solve`` and ``hint`` judge it (the defaults theirs)."""
    from solver.service.chances import judge

    return judge(
        setup, position, bounds, samples=samples, rng_seed=rng_seed, with_moves=with_moves, relaxed_reach=relaxed
    )


def chance_hints(judgement: Judged) -> list[ChanceHint]:
    """Each move of a judged position, best first."""
    return [ChanceHint.of(move.move, move.worth) for move in judgement.moves]
