"""The service's own errors, defined with every other in :mod:`solver.errors` (one place to
import them from) and named here too, where the service raises them."""

from __future__ import annotations

from solver.errors import (
    InputError,
    OutputError,
    RunLost,
    SchedulerLost,
    StoreFault,
    SurveyBusy,
    SurveyError,
    WorkerLost,
)

__all__ = [
    "InputError",
    "OutputError",
    "RunLost",
    "SchedulerLost",
    "StoreFault",
    "SurveyBusy",
    "SurveyError",
    "WorkerLost",
]
