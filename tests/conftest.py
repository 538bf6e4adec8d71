"""Shared pytest configuration.

Hypothesis profiles (select with ``HYPOTHESIS_PROFILE=<name>``; ``ci`` is the default when the
``CI`` environment variable is set, ``dev`` otherwise):

* ``dev`` - hypothesis' defaults, without the per-example deadline (the first example of a test
  may be slow, and the differential tests replay whole games).
* ``ci`` - reproducible: derandomized, no example database, bounded example counts, no deadline.
* ``thorough`` - ten times the examples, for a long local run.

With ``CONGO_TEST_INSTALLED=1`` (set by .ci/wheel-test), the session refuses to start unless ``congo``
is imported from an installed wheel in site-packages, never from a source tree's ``python/congo``.
The header of every run says which ``congo`` is under test.
"""

from __future__ import annotations

import os
import sysconfig
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import congo

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
