"""The win/draw/loss model: one definition in the core, used by ``Score.wdl()``, ``UCI_ShowWDL``, the
protocol client and ``congo analyse``."""

from __future__ import annotations

import subprocess
import sys

import pytest

import congo
from congo import _core
from congo._uci_protocol import _merge, _parse_info
from congo.engine import Cp, Mate, MateGiven, PovScore, Score, Wdl

MONKEY_MATE = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"
WIN = Wdl(1000, 0, 0)
LOSS = Wdl(0, 0, 1000)


def test_wdl_is_exported_where_score_is() -> None:
    assert congo.Wdl is Wdl
    assert congo.Score is Score


@pytest.mark.parametrize("ply", [0, 1, 30, 90, 200, 10_000])
def test_a_score_has_the_cores_chances_summing_to_a_thousand(ply: int) -> None:
    last = Cp(-3000).wdl(ply=ply)
    for cp in range(-3000, 3001, 25):
        wdl = Cp(cp).wdl(ply=ply)
        assert (wdl.wins, wdl.draws, wdl.losses) == _core.wdl(cp, ply)
        assert wdl.total() == 1000
        assert Cp(-cp).wdl(ply=ply) == -wdl  # a score and its negation swap wins and losses
        assert wdl.wins >= last.wins
        assert wdl.losses <= last.losses
        last = wdl
    even = Cp(0).wdl(ply=ply)
    assert even.wins == even.losses
    assert even.draws > 0
    assert Cp(2500).wdl(ply=ply).wins > 900


def test_the_default_ply_is_documented_and_used() -> None:
    assert congo.engine.Score.wdl.__kwdefaults__ == {"ply": 30}
    assert Cp(120).wdl() == Cp(120).wdl(ply=30) == Wdl(*_core.wdl(120))


def test_forced_results_are_certain() -> None:
    assert Mate(3).wdl() == MateGiven.wdl() == WIN
    assert Mate(-2).wdl(ply=7) == Mate(0).wdl() == LOSS


def test_pov_score_gives_the_side_to_moves_chances() -> None:
    score = PovScore(Cp(80), False)  # Black to move, 80 up
    assert score.wdl(ply=41) == Cp(80).wdl(ply=41)
    assert score.white().wdl(ply=41) == -score.wdl(ply=41)
    assert PovScore(Mate(1), True).wdl() == WIN


@pytest.mark.parametrize("ply", [-1, 1.5, True, "30", None])
def test_a_bad_ply_is_a_value_error(ply: object) -> None:
    with pytest.raises(ValueError, match="ply must be a non-negative int"):
        Cp(10).wdl(ply=ply)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ply must be a non-negative int"):
        MateGiven.wdl(ply=ply)  # type: ignore[arg-type]


def test_wdl_record() -> None:
    wdl = Wdl(600, 300, 100)
    assert wdl.expectation() == 0.75
    assert (wdl.winning_chance(), wdl.drawing_chance(), wdl.losing_chance()) == (0.6, 0.3, 0.1)
    assert -wdl == Wdl(100, 300, 600)
    assert +wdl is wdl
    with pytest.raises(AttributeError):
        wdl.wins = 1  # type: ignore[misc]


def test_the_client_parses_wdl_into_the_info() -> None:
    board = congo.Board()
    info = _parse_info("info depth 3 score cp 25 wdl 412 200 388 nodes 900 pv d2e3", board)
    assert info["wdl"] == Wdl(412, 200, 388)
    assert info["score"] == PovScore(Cp(25), True)
    assert info["nodes"] == 900
    # A malformed wdl is left out; the rest of the line is kept.
    for bad in ("wdl 1 2", "wdl 1 -2 3", "wdl a b c"):
        info = _parse_info(f"info depth 3 score cp 25 {bad}", board)
        assert "wdl" not in info
        assert info["score"] == PovScore(Cp(25), True)
    # A new score without chances drops the old score's.
    line = _parse_info("info depth 3 score cp 25 wdl 412 200 388", board)
    _merge(line, _parse_info("info depth 4 score cp 40", board))
    assert "wdl" not in line
    assert line["depth"] == 4


def _uci(script: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "congo", "uci"], input=script, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_uci_show_wdl_on_and_off_over_a_pipe() -> None:
    search = "position startpos moves c2c3 c6c5\ngo depth 3\n"
    assert "option name UCI_ShowWDL type check default false" in _uci("uci\n")
    off = _uci(search)
    assert [line for line in off if line.startswith("info depth")]
    assert not [line for line in off if " wdl " in line]
    on = _uci("setoption name UCI_ShowWDL value true\n" + search)
    infos = [line for line in on if line.startswith("info depth")]
    assert len(infos) == 3
    board = congo.Board()
    board.push_uci("c2c3")
    board.push_uci("c6c5")
    for line in infos:
        info = _parse_info(line, board)
        # The chances the server gives are the model's for its score at the position's ply (2).
        assert info["wdl"] == info["score"].wdl(ply=2), line
    mate = _uci(f"setoption name UCI_ShowWDL value true\nposition fen {MONKEY_MATE}\ngo depth 2\n")
    assert any(" score mate 1 wdl 1000 0 0 " in line for line in mate), mate
    again = _uci("setoption name UCI_ShowWDL value true\nsetoption name UCI_ShowWDL value false\n" + search)
    assert not [line for line in again if " wdl " in line]


def test_congo_analyse_shows_the_chances_on_each_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "congo", "analyse", "--depth", "3"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].split()[:3] == ["depth", "score", "wdl"]
    depth_lines = [line.split() for line in lines[2:] if line.split()[0].isdigit()]
    assert [fields[0] for fields in depth_lines] == ["1", "2", "3"]
    for fields in depth_lines:
        cp = round(float(fields[1]) * 100)
        wdl = Cp(cp).wdl(ply=0)
        assert fields[2] == f"{wdl.wins}/{wdl.draws}/{wdl.losses}"
    mate = subprocess.run(
        [sys.executable, "-m", "congo", "analyse", "--fen", MONKEY_MATE, "--depth", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "#1    1000/0/0" in mate.stdout
