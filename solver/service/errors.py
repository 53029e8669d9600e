"""The service's own user error: a survey that cannot run or be read."""

from __future__ import annotations

from solver.errors import UserError


class SurveyError(UserError):
    """A survey that cannot run or be read: bad seed ranges, a foreign or mismatched file, a
    missing extra (Dask, matplotlib), an unreachable scheduler."""
