"""Shared pytest configuration.

Hypothesis profiles (select with ``HYPOTHESIS_PROFILE=<name>``; ``ci`` is the default when the
``CI`` environment variable is set, ``dev`` otherwise):

* ``dev`` - hypothesis' defaults, without the per-example deadline (the first example of a test
  may be slow, and the differential tests replay whole games).
* ``ci`` - reproducible: derandomized, no example database, bounded example counts, no deadline.
* ``thorough`` - ten times the examples, for a long local run.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
