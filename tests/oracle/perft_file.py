"""Loader for ``.perft`` suite files (``tests/data/suite.perft``).

Format: one block per position, blocks separated by blank lines; ``#`` starts a comment line::

    # what this position exercises
    id monkey-loop-1
    fen 3l3/7/7/2M4/2pp3/7/4L2 w 10
    perft 1 12
    perft 2 140
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class PerftCase:
    """One position of a perft suite: its id, FEN, ``{depth: node count}`` and comment."""

    id: str
    fen: str
    counts: dict[int, int] = field(default_factory=dict)
    comment: str = ""

    @property
    def max_depth(self) -> int:
        """The deepest depth listed."""
        return max(self.counts)


def parse_perft_text(text: str) -> list[PerftCase]:
    """Parse the text of a perft suite; ValueError (with a line number) if malformed."""
    cases: list[PerftCase] = []
    current: dict[str, object] = {}
    comments: list[str] = []

    def finish(line_no: int) -> None:
        if not current:
            comments.clear()
            return
        if "id" not in current or "fen" not in current or not current.get("counts"):
            raise ValueError(f"perft block ending at line {line_no} needs id, fen and perft lines")
        counts = current["counts"]
        assert isinstance(counts, dict)
        cases.append(PerftCase(str(current["id"]), str(current["fen"]), dict(counts), " ".join(comments)))
        current.clear()
        comments.clear()

    lines = text.splitlines()
    for line_no, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            finish(line_no)
            continue
        if line.startswith("#"):
            comments.append(line.lstrip("#").strip())
            continue
        key, _, value = line.partition(" ")
        value = value.strip()
        if key in ("id", "fen"):
            if key in current:
                raise ValueError(f"line {line_no}: duplicate {key!r} in one block")
            current[key] = value
        elif key == "perft":
            parts = value.split()
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise ValueError(f"line {line_no}: expected 'perft <depth> <nodes>'")
            counts = current.setdefault("counts", {})
            assert isinstance(counts, dict)
            counts[int(parts[0])] = int(parts[1])
        else:
            raise ValueError(f"line {line_no}: unknown key {key!r}")
    finish(len(lines) + 1)
    ids = [case.id for case in cases]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise ValueError(f"duplicate perft ids: {sorted(duplicates)}")
    return cases


def load_perft_file(path: str | Path) -> list[PerftCase]:
    """Load a perft suite file (UTF-8)."""
    return parse_perft_text(Path(path).read_text(encoding="utf-8"))
