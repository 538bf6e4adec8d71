"""The distribution's name and the ``pip install`` command that adds one of its optional extras: the
one place error messages take them from (``pyproject.toml``'s ``[project] name``; a test holds the
two together)."""

from __future__ import annotations

DISTRIBUTION = "congo-chess"
"""The name of this library on the package index (``congo`` there is an unrelated project)."""


def pip_install(extra: str) -> str:
    """``pip install 'congo-chess[extra]'``: the command that adds ``extra``."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"
