"""``congo bench`` and ``congo.bench``: the fixed search suite whose node count is the signature of
the search's behaviour, checked here against the committed ``benches/bench-signature.txt``."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

import congo
import congo.bench
import congo.engine
from congo.cli import main

ROOT = Path(__file__).resolve().parent.parent
SIGNATURE_FILE = ROOT / "benches" / "bench-signature.txt"


def committed_signature() -> int:
    lines = [line for line in SIGNATURE_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]
    return int(lines[-1])


def test_the_builds_signature_is_the_committed_one() -> None:
    # One thread, a depth limit and a fresh state per position: no clock and no thread timing can
    # change the count, so a difference is a change in what the search does.
    result = congo.bench.run()
    assert (result.depth, result.hash_mb, result.threads) == (
        congo.bench.DEFAULT_DEPTH,
        congo.bench.DEFAULT_HASH_MB,
        congo.bench.DEFAULT_THREADS,
    )
    assert result.nodes == committed_signature(), (
        f"the bench signature is {result.nodes}, benches/bench-signature.txt says "
        f"{committed_signature()}: the search's behaviour changed. If that is meant, put the new "
        "signature in benches/bench-signature.txt and in the commit message (CONTRIBUTING.md)."
    )


def test_the_suite_is_varied_valid_and_named_once() -> None:
    suite = congo.bench.positions()
    assert 30 <= len(suite) <= 50
    names = [name for name, _ in suite]
    assert len(set(names)) == len(names)
    assert congo.STARTING_FEN in {fen for _, fen in suite}
    for name, fen in suite:
        board = congo.Board(fen)
        assert board.outcome() is None, name
        assert board.legal_moves.count() > 0, name
    # Both sides to move, and endgames as well as full boards.
    assert {fen.split()[1] for _, fen in suite} == {"w", "b"}
    men = [sum(ch.isalpha() for ch in fen.split()[0]) for _, fen in suite]
    assert min(men) <= 6
    assert max(men) == 28


def test_a_run_reports_each_position_in_order_and_adds_up() -> None:
    seen: list[congo.bench.BenchEntry] = []
    result = congo.bench.run(3, callback=seen.append)
    assert seen == result.entries
    assert [(e.name, e.fen) for e in result.entries] == congo.bench.positions()
    assert [e.index for e in result.entries] == list(range(len(congo.bench.positions())))
    assert result.nodes == sum(e.nodes for e in result.entries)
    for entry in result.entries:
        assert entry.depth == 3, entry.name
        assert entry.nodes > 0, entry.name
        assert entry.move is not None, entry.name
        assert entry.move in congo.Board(entry.fen).legal_moves, entry.name
    again = congo.bench.run(3)
    assert [e.nodes for e in again.entries] == [e.nodes for e in result.entries]
    assert congo.bench.run(4).nodes > result.nodes


def test_more_threads_and_another_table_run_the_whole_suite() -> None:
    result = congo.bench.run(2, hash_mb=1, threads=2)
    assert (result.hash_mb, result.threads) == (1, 2)
    assert len(result.entries) == len(congo.bench.positions())


def test_a_callback_that_raises_stops_the_run() -> None:
    calls = 0

    def fail(entry: congo.bench.BenchEntry) -> None:
        nonlocal calls
        calls += 1
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        congo.bench.run(3, callback=fail)
    assert calls == 1


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"depth": 0}, "depth must be from 1 to"),
        ({"depth": congo.engine.MAX_DEPTH + 1}, "depth must be from 1 to"),
        ({"threads": 0}, "threads must be from 1 to"),
        ({"hash_mb": 0}, "hash_mb must be from 1 to"),
    ],
)
def test_bad_settings_are_value_errors(arguments: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        congo.bench.run(
            arguments.get("depth", congo.bench.DEFAULT_DEPTH),
            hash_mb=arguments.get("hash_mb", congo.bench.DEFAULT_HASH_MB),
            threads=arguments.get("threads", congo.bench.DEFAULT_THREADS),
        )


def test_the_command_ends_with_the_totals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    count = len(congo.bench.positions())
    assert lines[0].startswith(f"Bench: {count} positions, depth 3,")
    assert sum(line.startswith("Position ") for line in lines) == count
    assert lines[-2] == f"Nodes searched: {congo.bench.run(3).nodes}"
    assert lines[-1].startswith("Nodes/second: ")
    assert int(lines[-1].split(": ")[1]) > 0


def test_the_commands_options_reach_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "2", "--hash", "1", "--threads", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("depth 2, hash 1 MiB, threads 2")


@pytest.mark.parametrize("arguments", [["0"], ["1000"], ["--hash", "0"], ["--threads", "100000"], ["x"]])
def test_bad_arguments_exit_2_with_one_line(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(["bench", *arguments])
    except SystemExit as stop:
        status = int(stop.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip()


def test_ctrl_c_stops_a_long_bench() -> None:
    # Depth 60 takes far longer than the test waits: only the interrupt can end it.
    process = subprocess.Popen(
        [sys.executable, "-m", "congo", "bench", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("Bench: ")
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130, (out, err)
    assert "congo bench: interrupted" in err
    assert "Traceback" not in err


def test_the_uci_server_answers_bench_with_the_same_count() -> None:
    # The server's bench uses the signature's table and one thread whatever the options say.
    script = "setoption name Threads value 2\nsetoption name Hash value 1\nbench 3\nbench 0\nisready\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "congo", "uci"], input=script, capture_output=True, text=True, timeout=120
    )
    lines = done.stdout.splitlines()
    count = len(congo.bench.positions())
    assert sum(line.startswith("info string bench position ") for line in lines) == count
    assert f"Nodes searched: {congo.bench.run(3).nodes}" in lines
    searched = lines.index(f"Nodes searched: {congo.bench.run(3).nodes}")
    assert lines[searched + 1].startswith("Nodes/second: ")
    assert any(line.startswith("info string error: bench: expected a depth") for line in lines)
    assert lines[-1] == "readyok"
