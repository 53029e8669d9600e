"""Shared test settings: every test runs on both engines, and hypothesis runs without deadlines
(the machines are shared and noisy)."""

import pytest
from hypothesis import HealthCheck, settings

from solver.engine import NO_EXTENSIONS, compiled_core

# The engine fixture is function-scoped and sets one environment variable that every example of
# a hypothesis test shares, so the check against function-scoped fixtures does not apply.
settings.register_profile("default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
settings.load_profile("default")


@pytest.fixture(autouse=True, params=["native", "python"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The engine the test runs on, as multidict runs each test on its C and its Python
    implementation: the compiled core, or the Python engine forced by PATIENCE_NO_EXTENSIONS
    (read at every search, and inherited by the commands a test starts)."""
    if request.param == "python":
        monkeypatch.setenv(NO_EXTENSIONS, "1")
    else:
        monkeypatch.delenv(NO_EXTENSIONS, raising=False)
        if compiled_core() is None:
            pytest.skip("the compiled core is not built here")
    return str(request.param)
