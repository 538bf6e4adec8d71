"""One name and one version everywhere, complete metadata, and the installed ``congo`` command."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import congo
from tests.packaging_support import (
    DISTRIBUTION,
    ROOT,
    SUPPORTED_PYTHONS,
    cargo_version,
    metadata_problems,
)


def test_version_is_the_cargo_workspace_version() -> None:
    assert congo.__version__ == cargo_version()
    assert importlib.metadata.version(DISTRIBUTION) == congo.__version__


def test_version_from_the_command_line() -> None:
    expected = f"congo {congo.__version__}"
    module = subprocess.run(
        [sys.executable, "-m", "congo", "--version"], capture_output=True, text=True, check=True
    )
    assert module.stdout.strip() == expected
    # The console script pip installed beside the interpreter.
    scripts = Path(sysconfig.get_path("scripts"))
    script = next(p for p in (scripts / "congo", scripts / "congo.exe") if p.exists())
    command = subprocess.run([str(script), "--version"], capture_output=True, text=True, check=True)
    assert command.stdout.strip() == expected


def test_installed_metadata_is_complete() -> None:
    metadata = importlib.metadata.metadata(DISTRIBUTION)
    description = str(metadata.get_payload())  # type: ignore[attr-defined]
    assert metadata_problems(metadata, congo.__version__, description) == []
    files = [str(f) for f in importlib.metadata.files(DISTRIBUTION) or []]
    assert any(f.endswith("licenses/LICENSE-MIT") for f in files)
    assert any(f.endswith("licenses/LICENSE-APACHE") for f in files)


def test_changelog_starts_with_the_unreleased_section_then_this_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", changelog, re.M)
    assert headings[0] == ("Unreleased", "")
    version, date = headings[1]
    assert version == congo.__version__
    assert date, "a released version has its date"
    # Keep a Changelog: every heading's label is a link defined at the bottom.
    for label, _ in headings:
        assert re.search(rf"^\[{re.escape(label)}\]: https://", changelog, re.M), label


def test_readme_install_section_tells_the_supported_versions() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install = readme.split("## Install\n", 1)[1].split("\n## ", 1)[0]
    assert f"pip install {DISTRIBUTION}\n" in install
    assert f"CPython {SUPPORTED_PYTHONS[0]} to {SUPPORTED_PYTHONS[-1]}" in install
    rust_version = re.search(r'^rust-version = "([^"]+)"', (ROOT / "Cargo.toml").read_text(), re.M)
    assert rust_version is not None
    assert f"Rust toolchain ≥ {rust_version.group(1)}" in install
    assert readme.index("## Install") < readme.index("## Quickstart")


def test_pyproject_builds_the_distribution_the_readme_installs() -> None:
    if sys.version_info < (3, 11):
        pytest.skip("tomllib is Python 3.11's")
    import tomllib

    name = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]
    assert name == DISTRIBUTION
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [
        line.strip()
        for block in re.findall(r"^```sh\n(.*?)^```", readme, re.M | re.S)
        for line in block.splitlines()
        if line.strip().startswith("pip install")
    ]
    assert commands, "the README has no install command"
    for command in commands:
        # Each requirement after `pip install` (options and their values aside) is this distribution,
        # with or without extras, or a local path (`.`, `'.[test]'`).
        words = [w.strip("'\"") for w in command.split("&&")[0].split()[2:] if not w.startswith("-")]
        for word in words:
            project = re.split(r"[\[=<>!~; ]", word, maxsplit=1)[0]
            assert project in (name, "."), f"{command!r} installs {project!r}, not {name!r}"
