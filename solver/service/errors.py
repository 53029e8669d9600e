"""The service's own errors, defined with every other in :mod:`solver.errors` (one place to
import them from) and named here too, where the service raises them (the survey's are
:mod:`solver.surveys.errors`)."""

from __future__ import annotations

from solver.errors import InputError, OutputError, SurveyError

__all__ = ["InputError", "OutputError", "SurveyError"]
