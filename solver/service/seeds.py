"""Seed ranges: PySolFC game numbers written as ``1-1000,2000-2100``, read into merged spans."""

from __future__ import annotations

import re
from collections.abc import Sequence

from solver.errors import SurveyError

#: Seeds are SQLite integers (signed 64-bit), so a survey covers game numbers up to this one.
MAX_SURVEY_SEED = 2**63 - 1

Span = tuple[int, int]


def parse_seeds(text: str) -> list[Span]:
    """Seed ranges such as ``1-1000,2000-2100`` or ``7`` as sorted, merged, inclusive (low, high) pairs."""
    spans = [_span(part) for part in text.replace(" ", "").split(",") if part]
    if not spans:
        raise SurveyError("no seeds given: write e.g. --seeds 1-1000")
    spans.sort()
    merged = [spans[0]]
    for low, high in spans[1:]:
        last_low, last_high = merged[-1]
        if low <= last_high + 1:
            merged[-1] = (last_low, max(last_high, high))
        else:
            merged.append((low, high))
    return merged


#: A seed as every number is written (the digits 0-9: ``int`` alone takes ``+5``, ``1_000`` and
#: other scripts' digits), of no more digits than the largest seed a survey stores.
_SEED = re.compile(r"[0-9]{1,19}", re.ASCII)


def _span(part: str) -> Span:
    """One range, ``low-high`` or a single seed."""
    low_text, dash, high_text = part.partition("-")
    for text in (low_text, high_text) if dash else (low_text,):
        if len(text) > 19 and text.isascii() and text.isdigit():
            shown = text if len(text) <= 30 else f"{text[:20]}... ({len(text)} digits)"
            raise SurveyError(f"seed {shown} is too large for a survey file (seeds are stored up to {MAX_SURVEY_SEED})")
        if not _SEED.fullmatch(text):
            shown = repr(part) if len(part) <= 40 else f"'{part[:20]}...' ({len(part)} characters)"
            raise SurveyError(f"cannot read seed range {shown}: write e.g. 1-1000,2000-2100 in the digits 0-9")
    low = int(low_text)
    high = int(high_text) if dash else low
    if low < 1 or high < low:
        raise SurveyError(f"seed range {part!r} is empty or starts below 1")
    if high > MAX_SURVEY_SEED:
        raise SurveyError(f"seed {high} is too large for a survey file (seeds are stored up to {MAX_SURVEY_SEED})")
    return low, high


def count_seeds(spans: Sequence[Span]) -> int:
    """How many seeds the spans hold."""
    return sum(high - low + 1 for low, high in spans)
