"""Comments, docstrings and the documentation point at what a reader can open: files of the
repository (``docs/rules.md §N``; in docs/, a link to ``rules.md``), never an issue number of a
tracker the reader cannot see, nor ``RULES.md`` or a bare ``RULES §N``, which name no file of the
repository (the rules are ``docs/rules.md``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("rust", "python", "tests", "benches", "examples", "fuzz", ".ci")
SUFFIXES = {".py", ".pyi", ".rs", ".js", ".sh", ".toml"}

# This file names both patterns, so it is left out of the scan.
ISSUE_NUMBER = re.compile(r"\b[Ii]ssues? #?\d+")
RULES_FILE = re.compile(r"(?<![\w/])RULES\.md")
RULES_SECTION = re.compile(r"\bRULES §")


def source_files() -> list[Path]:
    files = []
    for top in SOURCES:
        base = ROOT / top
        if base.is_dir():
            files += [
                p
                for p in base.rglob("*")
                if p.suffix in SUFFIXES
                and p.is_file()
                and p.resolve() != Path(__file__).resolve()
                and "target" not in p.parts
                and "corpus" not in p.parts
            ]
    return files


def doc_files() -> list[Path]:
    return sorted((ROOT / "docs").rglob("*.md"))


def test_there_are_sources_to_read() -> None:
    if not (ROOT / "rust").is_dir():
        pytest.skip("not a source tree")
    assert len(source_files()) > 100
    assert len(doc_files()) > 20


@pytest.mark.parametrize(
    ("pattern", "what"),
    [(ISSUE_NUMBER, "an issue number"), (RULES_FILE, "RULES.md"), (RULES_SECTION, "RULES §N")],
)
def test_no_pointer_leads_outside_the_repository(pattern: re.Pattern[str], what: str) -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in source_files()
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == [], f"{what} in the sources (point at a file of the repository instead):\n" + "\n".join(
        found
    )


@pytest.mark.parametrize(
    ("pattern", "what"),
    [(ISSUE_NUMBER, "an issue number"), (RULES_FILE, "RULES.md"), (RULES_SECTION, "RULES §N")],
)
def test_no_pointer_in_the_docs_leads_outside_the_repository(pattern: re.Pattern[str], what: str) -> None:
    if not (ROOT / "docs").is_dir():
        pytest.skip("not a source tree")
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in doc_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    advice = "link to a page of docs/, e.g. [rules.md §9](rules.md#9-notation)"
    assert found == [], f"{what} in docs/ ({advice}):\n" + "\n".join(found)
