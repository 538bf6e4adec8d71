"""The examples in docs/api.md run and print what the page shows (doctest)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_api_tutorial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the tutorial writes board.svg and games.pgn
    failures, tried = doctest.testfile(
        str(DOCS / "api.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
        verbose=False,
    )
    assert tried > 30
    assert failures == 0
    assert (tmp_path / "board.svg").read_text().startswith("<svg")
