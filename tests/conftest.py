"""Shared pytest configuration.

Hypothesis profiles (select with ``HYPOTHESIS_PROFILE=<name>``; ``ci`` is the default when the
``CI`` environment variable is set, ``dev`` otherwise):

* ``dev`` - hypothesis' defaults, without the per-example deadline (the first example of a test
  may be slow, and the differential tests replay whole games).
* ``ci`` - reproducible: derandomized, no example database, bounded example counts, no deadline.
* ``thorough`` - ten times the examples, for a long local run.

A test that skips because an optional extra is missing says which extra (``tests/extras.py``: the
README's test command installs only the ``test`` extra); with ``CONGO_TEST_REQUIRE_EXTRAS=1`` such a
skip fails instead, and ``CONGO_TEST_SKIPPED_EXTRAS=FILE`` lists the tests it skipped in FILE.

With ``CONGO_TEST_INSTALLED=1`` (set by .ci/wheel-test), the session refuses to start unless ``congo``
is imported from an installed wheel in site-packages, never from a source tree's ``python/congo``.
The header of every run says which ``congo`` is under test.
"""

from __future__ import annotations

import os
import sysconfig
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import congo
from tests import extras

SOURCE_PACKAGE = Path(__file__).resolve().parent.parent / "python" / "congo"

settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=100,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def pytest_report_header() -> str:
    return f"congo {congo.__version__} from {Path(congo.__file__).resolve().parent}"


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("CONGO_TEST_INSTALLED") != "1":
        return
    package = Path(congo.__file__).resolve().parent
    site_packages = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    if package == SOURCE_PACKAGE or not any(base in package.parents for base in site_packages):
        raise pytest.UsageError(
            f"CONGO_TEST_INSTALLED=1 but congo is imported from {package}, not from an installed wheel"
        )


def _missing_extra(report: pytest.CollectReport | pytest.TestReport) -> None:
    """Name the extra in the reason of a skip for a missing optional module; under
    ``CONGO_TEST_REQUIRE_EXTRAS=1`` make it a failure; log its id where asked."""
    if not report.skipped or not isinstance(report.longrepr, tuple):
        return
    path, line, message = report.longrepr
    module = extras.missing_module(message)
    if module is None:
        return
    reason = extras.reason_for(module)
    if extras.REQUIRED:
        report.outcome = "failed"
        report.longrepr = f"{path}:{line}: {reason}, and CONGO_TEST_REQUIRE_EXTRAS=1 says every extra is"
        return
    report.longrepr = (path, line, f"Skipped: {reason}")
    if extras.SKIPPED_LOG is not None:
        with open(extras.SKIPPED_LOG, "a", encoding="utf-8") as log:
            log.write(report.nodeid + "\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    _missing_extra(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    _missing_extra(outcome.get_result())
