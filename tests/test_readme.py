"""The README's promises: its Python example runs and its quickstart commands are the documented ones."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests import extras

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def test_python_example_runs_and_prints_what_its_comments_say(capsys: pytest.CaptureFixture[str]) -> None:
    block = re.search(r"## Use it from Python\n\n```python\n(.*?)```", README, re.S)
    assert block is not None
    exec(compile(block.group(1), "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[:4] == [
        "24",
        "gmelecz/ppppppp/7/7/2E4/PPPPPPP/GM1LECZ b 1",
        "Outcome(termination=<Termination.LION_CAPTURED: 1>, winner=True)",
        "9404326",
    ]


def test_quickstart_has_exactly_the_two_commands() -> None:
    block = re.search(r"## Quickstart\n\n```sh\n(.*?)```", README, re.S)
    assert block is not None
    commands = block.group(1).splitlines()
    assert commands == ["pip install . && congo analyse", "pip install '.[test]' && pytest"]


def test_ci_runs_the_test_command_as_written_in_a_fresh_venv() -> None:
    """The README's test command is run as written, in a venv with the test extra alone (so every test
    needing another extra must skip), and what it skipped runs again with every extra installed."""
    run = Path(__file__).parent.parent / ".ci" / "run"
    if not run.exists():
        pytest.skip("not a checkout: the sdist has no .ci/")
    ci = run.read_text(encoding="utf-8")
    step = re.search(r"^step_test\(\) \{\n(.*?)^\}", ci, re.S | re.M)
    assert step is not None
    assert "python3 -m venv" in step.group(1)
    assert "pip install '.[test]' && pytest\n" in step.group(1)
    extras_step = re.search(r"^step_test_extras\(\) \{\n(.*?)^\}", ci, re.S | re.M)
    assert extras_step is not None
    assert "CONGO_TEST_REQUIRE_EXTRAS=1" in extras_step.group(1)


def test_a_skip_for_a_missing_module_names_an_extra_that_exists() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    pyproject = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    declared = set(pyproject["project"]["optional-dependencies"])
    assert set(extras.EXTRA_OF_MODULE.values()) <= declared
    assert extras.missing_module("could not import 'pyarrow.parquet': No module named 'pyarrow'") == "pyarrow"
    assert extras.missing_module("starlette is not installed (pip install -e '.[serve,test]')") == "starlette"
    assert extras.missing_module("no Chromium at /usr/bin/chromium") is None
    assert extras.missing_module("could not import 'hypothesis'") is None  # not optional: a real failure
    reason = extras.reason_for("pyspiel")
    assert reason.startswith("needs the 'openspiel' extra (pip install 'congo-chess[openspiel]')")


def command_line_block() -> list[str]:
    block = re.search(r"## The command line\n\n.*?```sh\n(.*?)```", README, re.S)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_command_line_lines_run_as_written() -> None:
    # No placeholder (FEN, DIR, N, [--option]) in a line a reader copies: those are in the patterns
    # paragraph below the block. Each line is a `congo` command that the real parser accepts.
    from congo.cli import build_parser

    lines = command_line_block()
    assert len(lines) >= 8
    for line in lines:
        command = line.split("  #", 1)[0].strip()
        words = shlex.split(command)
        assert words[0] == "congo", line
        placeholders = [w for w in words if re.fullmatch(r"[A-Z][A-Z_]*", w) or w.startswith("[")]
        assert placeholders == [], line
        build_parser().parse_args(words[1:])  # argparse exits on an unknown option or a bad value


def test_first_screen_says_who_it_is_for_and_links_the_site() -> None:
    first_screen = README.split("## Install", 1)[0]
    assert "https://congo-chess.github.io/congo/" in first_screen
    for first_command in (
        "`congo analyse`",
        '`congo match "uci:congo uci" greedy --games 2`',
        "`pip install 'congo-chess[envs]'`",
    ):
        assert first_command in first_screen
    assert len(first_screen.splitlines()) <= 30
