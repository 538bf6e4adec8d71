"""Tests that need an optional extra: skipped with the extra's name where it is missing, required where
the run says so.

The README's test command, ``pip install '.[test]' && pytest``, installs no other extra, so every test
that imports numpy, Ray, a learning framework, Starlette or Playwright must skip there, and say which
extra would run it. ``tests/conftest.py`` rewrites each such skip's reason through :func:`reason_for`
(``pytest.importorskip``'s "could not import 'numpy'" becomes "needs the 'numpy' extra (pip install
'congo-chess[numpy]')"), so a test file needs nothing more than ``pytest.importorskip``.

Two environment variables, set by ``.ci/run``:

* ``CONGO_TEST_REQUIRE_EXTRAS=1``: a skip for a missing extra is a failure (CI's run with every extra
  installed must not skip silently what the README's run skipped).
* ``CONGO_TEST_SKIPPED_EXTRAS=FILE``: the node ids skipped for a missing extra are appended to FILE,
  one a line, so that a second run can execute exactly those.
"""

from __future__ import annotations

import os
import re

REQUIRED = os.environ.get("CONGO_TEST_REQUIRE_EXTRAS") == "1"
"""Whether a test skipped for a missing extra fails instead (``CONGO_TEST_REQUIRE_EXTRAS=1``)."""

SKIPPED_LOG = os.environ.get("CONGO_TEST_SKIPPED_EXTRAS") or None
"""Where the ids of the tests skipped for a missing extra are appended, if anywhere."""

EXTRA_OF_MODULE = {
    "numpy": "numpy",
    "pyarrow": "pyarrow",
    "gymnasium": "gymnasium",
    "pettingzoo": "pettingzoo",
    "pyspiel": "openspiel",
    "ray": "ray",
    "starlette": "serve",
    "uvicorn": "serve",
    "playwright": "browser",
    "torch": "training",
}
"""The extra of pyproject.toml that installs each optional module a test may import."""

_MISSING_MODULE = re.compile(r"could not import '([\w.]+)'|\b([\w.]+) is not installed")


def missing_module(reason: str) -> str | None:
    """The optional module a skip's reason says is missing (its top-level name), or None."""
    for match in _MISSING_MODULE.finditer(reason):
        module = (match[1] or match[2]).split(".")[0]
        if module in EXTRA_OF_MODULE:
            return module
    return None


def reason_for(module: str) -> str:
    """The skip reason for a test that needs ``module``: which extra to install."""
    extra = EXTRA_OF_MODULE[module]
    return f"needs the '{extra}' extra (pip install 'congo-chess[{extra}]'): {module} is not installed"
