"""The survey's own errors, defined with every other in :mod:`solver.errors` (one place to
import them from) and named here too, where the survey raises them."""

from __future__ import annotations

from solver.errors import RunLost, SchedulerLost, StoreFault, SurveyBusy, SurveyError, WorkerLost

__all__ = ["RunLost", "SchedulerLost", "StoreFault", "SurveyBusy", "SurveyError", "WorkerLost"]
