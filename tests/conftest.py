"""Shared test settings: every test runs on both engines, and hypothesis runs without deadlines
(the machines are shared and noisy)."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from solver.engine import NO_EXTENSIONS, compiled_core

settings.register_profile("default", deadline=None, max_examples=60)
settings.load_profile("default")


@pytest.fixture(scope="session", autouse=True, params=["native", "python"])
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """The engine the tests run on, as multidict runs each test on its C and its Python
    implementation: the compiled core, or the Python engine forced by PATIENCE_NO_EXTENSIONS
    (read at every search, and inherited by the commands a test starts). Session-scoped, so the
    whole suite runs on one engine, then on the other, and a module's fixtures that search
    (they ask for ``engine``) are made again for each."""
    before = os.environ.get(NO_EXTENSIONS)
    if request.param == "python":
        os.environ[NO_EXTENSIONS] = "1"
    else:
        os.environ.pop(NO_EXTENSIONS, None)
        if compiled_core() is None:
            pytest.skip("the compiled core is not built here")
    yield str(request.param)
    if before is None:
        os.environ.pop(NO_EXTENSIONS, None)
    else:
        os.environ[NO_EXTENSIONS] = before
