"""The scripts in examples/ run and do what their docstrings say."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import congo.pgn

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(script: str, *args: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_random_game_saves_a_record_that_reads_back(tmp_path: Path) -> None:
    out = run("random_game.py", "--seed", "5", "--plies", "60", "--output", "game.pgn", cwd=tmp_path)
    assert out.startswith("1. ")
    with (tmp_path / "game.pgn").open(encoding="utf-8") as handle:
        game = congo.pgn.read_game(handle)
    assert game is not None
    assert game.errors == []
    assert game.headers["White"] == "random (seed 5)"
    assert 0 < len(game.mainline_moves()) <= 60
    assert out.splitlines()[0] == game.board().variation_san(game.mainline_moves())


def test_render_svg_writes_an_svg(tmp_path: Path) -> None:
    out = run("render_svg.py", "--output", "board.svg", "--size", "300", cwd=tmp_path)
    assert "wrote board.svg" in out
    root = ET.parse(tmp_path / "board.svg").getroot()
    assert root.get("width") == "300"
    assert root.find(".//{http://www.w3.org/2000/svg}g[@class='chain']") is not None
    assert root.find(".//{http://www.w3.org/2000/svg}g[@class='arrow']") is not None


def test_read_games_summarises_the_sample_and_a_file(tmp_path: Path) -> None:
    out = run("read_games.py", cwd=tmp_path)
    lines = out.splitlines()
    assert lines[0].startswith("1. Ada - Bert 1-0: 6 moves")
    assert "1. Mxd3xf5xd7#" in out
    assert "problem: line 22: move 2. Zf9" in out
    (tmp_path / "one.pgn").write_text('[White "X"]\n\n1. Zf3 *\n', encoding="utf-8")
    assert run("read_games.py", "one.pgn", cwd=tmp_path).startswith("1. X - ? *: 1 moves")


def test_train_policy_reproduces_the_figures_of_the_learning_guide(tmp_path: Path) -> None:
    """The documented run, as documented: self-play with a node limit on one thread is a pure function
    of the seed, so the script prints the guide's figures (to a tenth of a point, which leaves room
    for the last bit of a BLAS sum) and its policy beats chance twice over."""
    import pytest

    pytest.importorskip("numpy")
    out = run("train_policy.py", cwd=tmp_path)
    line = out.splitlines()[-1]
    policy, chance = (float(part.split()[-1].rstrip("%")) for part in line.split(":")[1].split(","))
    assert policy > 2 * chance, line
    guide = (EXAMPLES.parent / "docs" / "learning.md").read_text(encoding="utf-8")
    documented = re.search(r"predicts the engine's move ([\d.]+) % of the time, against ([\d.]+) %", guide)
    assert documented is not None, "docs/learning.md no longer states the example's figures"
    assert abs(float(documented[1]) - policy) <= 0.1, (documented[0], line)
    assert abs(float(documented[2]) - chance) <= 0.1, (documented[0], line)


def test_uci_bot_answers_the_protocol_with_legal_moves(tmp_path: Path) -> None:
    session = "uci\nisready\nucinewgame\nposition startpos moves c2c3\ngo movetime 100\nquit\n"
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "uci_bot.py")],
        input=session,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "uciok" in lines
    assert "readyok" in lines
    (answer,) = [line for line in lines if line.startswith("bestmove ")]
    board = congo.Board()
    board.push_uci("c2c3")
    assert board.is_legal(board.parse_uci(answer.split()[1]))


def test_uci_bot_plays_a_match_as_the_readme_shows(tmp_path: Path) -> None:
    # The README's first command for a bot author, with this interpreter for `python`.
    bot = "uci:" + shlex.join([sys.executable, str(EXAMPLES / "uci_bot.py")])  # quoted for Windows paths
    done = subprocess.run(
        [sys.executable, "-m", "congo", "match", bot, "random", "--games", "2"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "(2 games)" in done.stdout
