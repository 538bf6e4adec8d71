"""The ``pip install`` command that adds an optional extra, naming the distribution that is
installed (``pyproject.toml``'s ``[project] name``), so that error messages stay right when the
distribution is renamed."""

from __future__ import annotations

import functools

FALLBACK = "congo"
"""The distribution named when the installed one cannot be found (running from a source tree)."""


@functools.lru_cache(maxsize=1)
def distribution_name() -> str:
    """The name of the installed distribution whose ``congo`` command runs this package: found from
    the console script's entry point (only on an error path: it reads every distribution's metadata).
    :data:`FALLBACK` when there is none."""
    try:
        from importlib.metadata import entry_points

        for point in entry_points(group="console_scripts"):
            dist = getattr(point, "dist", None)
            if point.value.split(":", 1)[0].split(".", 1)[0] == "congo" and dist is not None:
                return str(dist.name)
    except Exception:  # Python 3.9 (no group=), broken metadata: the fallback
        pass
    return FALLBACK


def pip_install(extra: str) -> str:
    """``pip install 'DIST[extra]'`` for the installed distribution (:func:`distribution_name`)."""
    return f"pip install '{distribution_name()}[{extra}]'"
