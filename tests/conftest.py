"""Shared test settings: a test runs on both engines where the engine matters, once where it
does not (``one_engine``), and hypothesis runs without deadlines (the machines are shared and
noisy)."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from solver.engine import NATIVE, NO_EXTENSIONS, PYTHON, compiled_core

settings.register_profile("default", deadline=None, max_examples=60)
settings.load_profile("default")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "one_engine: a test of the command line, a file, a build or a kernel, not of what a search answers: "
        "run on one engine only (the compiled core where it is built, else the Python engine)",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test on both engines, as multidict runs each test on its C and its Python
    implementation; a test marked ``one_engine`` on the one this installation searches with."""
    if "engine" in metafunc.fixturenames:
        both = metafunc.definition.get_closest_marker("one_engine") is None
        engines = [NATIVE, PYTHON] if both else [PYTHON if compiled_core() is None else NATIVE]
        metafunc.parametrize("engine", engines, indirect=True, scope="session")


@pytest.fixture(scope="session", autouse=True)
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """The engine a test runs on: the compiled core, or the Python engine forced by
    PATIENCE_NO_EXTENSIONS (read at every search, and inherited by the commands a test starts).
    Session-scoped, so the whole suite runs on one engine, then on the other, and a module's
    fixtures that search (they ask for ``engine``) are made again for each."""
    before = os.environ.get(NO_EXTENSIONS)
    if request.param == PYTHON:
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
