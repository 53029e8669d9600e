"""Every random draw the program makes, from the user's ``--rng-seed``: one independent stream per
purpose, and the generator each stream runs.

A stream's start is a 64-bit key hashed (xxh3, already a dependency) from its purpose, the user's
seed and, where one purpose draws afresh each time (the sampling player's turns), an index: so
the streams of one seed are no functions of each other, as those of an affine step of the seed
(the bitwise complement of the seed once drew a position's order) are. The generator is
SplitMix64 (Steele, Lea and Flood, 2014): a Weyl sequence through a strong 64-bit output mixer,
whose every output is a full 64-bit word; a draw below a bound rejects the few words above the
last whole multiple of it, so no value is likelier than another. solver/_chance.pyx spells the
generator, the bounded draw and the shuffle again in C, held equal by tests/test_draws.py; the
keys are made here alone. Not for secrets: for draws that a seed repeats on either engine (see
docs/face-down.md, "How the orders are drawn").
"""

from __future__ import annotations

from collections.abc import Sequence

import xxhash

#: The largest seed (a 64-bit word).
MOST_SEED = 2**64 - 1
#: The name of the draws in a survey file (``draws``): a survey played with other draws (before
#: this generator, none was named) is not resumed, as its games would not be the ones it holds.
SCHEME = "splitmix64"

#: The purposes, one stream each: a position's face-down order (``play --position``), the
#: random player's moves, the sampling player's orders (one stream per turn), and the orders
#: ``solve`` and ``hint`` sample for the clairvoyant share.
FACE_DOWN_ORDER = "face-down order"
RANDOM_PLAYER = "random player"
SAMPLING_PLAYER = "sampling player"
CLAIRVOYANT = "clairvoyant"

_GAMMA = 0x9E3779B97F4A7C15
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_MASK = MOST_SEED


def stream(purpose: str, seed: int, *index: int) -> int:
    """The start of the stream that draws for ``purpose`` from the user's ``seed`` (and, for a
    purpose that draws afresh each turn, the turn's ``index``): the xxh3 hash of their bytes."""
    key = purpose.encode() + b"\0" + b"".join(number.to_bytes(8, "little") for number in (seed, *index))
    return xxhash.xxh3_64_intdigest(key)


class Draw:
    """SplitMix64 from ``start`` (a :func:`stream`), and the draws made of its words."""

    def __init__(self, start: int) -> None:
        self.state = start & _MASK

    def word(self) -> int:
        """The next 64-bit word."""
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A whole number from 0 to ``bound`` - 1, each equally likely: a word below 2**64 mod
        ``bound`` is drawn again (with 64 cards or moves at most, less than once in 2**58 draws)."""
        rejected = (1 << 64) % bound
        while True:
            word = self.word()
            if word >= rejected:
                return word % bound

    def shuffled(self, cards: Sequence[int]) -> tuple[int, ...]:
        """``cards`` in a uniformly drawn order: Fisher-Yates from the last card down."""
        order = list(cards)
        for i in range(len(order) - 1, 0, -1):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return tuple(order)
