"""The README's promises: its Python example runs and its quickstart commands are the documented ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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
