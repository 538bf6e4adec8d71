"""What a release of congo must say about itself: its name, one version, complete metadata.

Shared by tests/test_packaging.py (the installed package) and .ci/check_dist.py (the built sdist and
wheels), so that both hold the artefacts to the same rules.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Protocol

ROOT = Path(__file__).resolve().parent.parent
# The distribution's name on the package index (pyproject.toml's [project] name): `congo` there is an
# unrelated project. The import name and the command are `congo`. Artefact file names and the
# .dist-info directory spell it normalised (PEP 427, PEP 625): congo_chess-VERSION.
DISTRIBUTION = "congo-chess"
FILE_PREFIX = "congo_chess"
SUPPORTED_PYTHONS = [f"3.{minor}" for minor in range(9, 15)]
PROJECT_URLS = ("Homepage", "Documentation", "Repository", "Issues", "Changelog")


class Metadata(Protocol):
    """The part of core metadata read here: ``email.message.Message`` and ``importlib.metadata``'s."""

    def get_all(self, name: str, failobj: None = None) -> list[str] | None: ...


def cargo_version(root: Path = ROOT) -> str:
    """The version of the Cargo workspace (``[workspace.package]``): the one version of the project."""
    text = (root / "Cargo.toml").read_text(encoding="utf-8")
    section = re.search(r"^\[workspace\.package\]\n(.*?)(?:^\[|\Z)", text, re.M | re.S)
    assert section is not None, "Cargo.toml has no [workspace.package]"
    version = re.search(r'^version\s*=\s*"([^"]+)"', section.group(1), re.M)
    assert version is not None, "[workspace.package] has no version"
    return version.group(1)


def metadata_problems(metadata: Metadata, version: str, description: str) -> list[str]:
    """What is missing or wrong in a distribution's core metadata (PKG-INFO or METADATA)."""

    def field(name: str) -> str | None:
        values = metadata.get_all(name) or []
        return values[0] if len(values) == 1 else None

    problems = []
    expected = {
        "Name": DISTRIBUTION,
        "Version": version,
        "Requires-Python": ">=3.9",
        "License-Expression": "MIT OR Apache-2.0",
        "Description-Content-Type": "text/markdown; charset=UTF-8; variant=GFM",
    }
    for name, value in expected.items():
        if field(name) != value:
            problems.append(f"{name} is {metadata.get_all(name)!r}, expected {value!r}")
    if sorted(metadata.get_all("License-File") or []) != ["LICENSE-APACHE", "LICENSE-MIT"]:
        problems.append(f"License-File lists {metadata.get_all('License-File')}")
    problems += [f"no {name}" for name in ("Summary", "Keywords") if not field(name)]
    labels = {url.split(",")[0].strip() for url in metadata.get_all("Project-URL") or []}
    problems += [f"no Project-URL {label}" for label in PROJECT_URLS if label not in labels]
    classifiers = metadata.get_all("Classifier") or []
    for python in SUPPORTED_PYTHONS:
        if f"Programming Language :: Python :: {python}" not in classifiers:
            problems.append(f"no classifier for Python {python}")
    if "## Quickstart" not in description:
        problems.append("the long description is not the README")
    runtime = [r for r in metadata.get_all("Requires-Dist") or [] if "extra ==" not in r]
    if runtime:
        problems.append(f"runtime dependencies {runtime}: `import congo` must need none")
    return problems
