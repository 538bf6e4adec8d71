"""``congo uci-check``: the built-in engine and the example bot comply; broken engines (the foreign
engine's modes, and small bots written here) are each named for what they do wrong, with the lines
exchanged."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from congo.uci_check import check_engine, split_command

ROOT = Path(__file__).resolve().parent.parent
CONGO = [sys.executable, "-m", "congo"]
FOREIGN = [sys.executable, str(ROOT / "tests" / "foreign_engine.py")]


def uci_check(*engine: str, timeout: float = 10.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CONGO, "uci-check", "--timeout", str(timeout), *engine],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def result_lines(out: str) -> dict[str, str]:
    """Each check's line of the report, by the check's name."""
    lines = {}
    for line in out.splitlines():
        words = line.split(None, 1)
        if words and words[0] in ("OK", "FAIL", "SKIP") and ":" in words[1]:
            name, _, detail = words[1].partition(": ")
            lines[name] = f"{words[0]} {detail}"
    return lines


def test_the_built_in_engine_complies() -> None:
    run = uci_check(*CONGO, "uci")
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[0].startswith("congo ")  # its id name
    lines = result_lines(run.stdout)
    assert len(lines) == 12
    assert all(line.startswith("OK") for line in lines.values()), run.stdout
    assert run.stdout.rstrip().endswith("12 checks: 12 passed, 0 failed, 0 skipped")
    assert lines["stop with no search, isready"] == "OK a stop with no search ignored; readyok after it"


def test_the_example_bot_complies_and_ponder_is_skipped_without_the_option() -> None:
    run = uci_check(sys.executable, str(ROOT / "examples" / "uci_bot.py"))
    assert run.returncode == 0, run.stdout
    lines = result_lines(run.stdout)
    assert lines["ponder"] == "SKIP the engine announces no Ponder option"
    assert lines["go infinite, isready during a search, stop"].startswith("OK readyok during the search")


def test_an_illegal_move_is_named_with_the_position_and_the_lines_exchanged() -> None:
    run = uci_check(*FOREIGN, "--mode", "illegal")
    assert run.returncode == 1
    lines = result_lines(run.stdout)
    start = "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1"
    assert lines["position forms"] == f"FAIL bestmove a1a7 is not a legal move in {start}"
    assert lines["decided position"].startswith("FAIL bestmove a1a7 in a decided position")
    exchange = re.split(r"\n  (?=OK|FAIL|SKIP)", run.stdout.split("FAIL  position forms:", 1)[1])[0]
    assert "> position startpos" in run.stdout
    assert "> go depth 1" in exchange
    assert "< bestmove a1a7" in exchange
    assert lines["handshake"].startswith("OK id name 'Foreign Table Engine'")


def test_a_crash_says_the_exit_status_and_the_engines_last_words() -> None:
    report = check_engine([*FOREIGN, "--mode", "crash"])
    assert not report.ok
    failure = next(r for r in report.failures if r.name == "position forms")
    assert "exit code 3" in failure.detail
    assert "foreign engine: simulated crash" in failure.detail
    assert report.engine_name == "Foreign Table Engine"


def test_a_malformed_handshake_fails_first_and_nothing_else_is_tried() -> None:
    report = check_engine([*FOREIGN, "--mode", "nonsense"])
    assert [r.status for r in report.results] == ["fail"] + ["skip"] * (len(report.results) - 1)
    assert report.results[0].detail == "a malformed option line: 'option name Broken'"
    assert all(r.detail == "the handshake failed" for r in report.results[1:])


def test_an_engine_that_never_answers_go_is_bounded_by_the_timeout() -> None:
    # 3 s: ample for the handshake of a small script on a busy machine.
    report = check_engine([*FOREIGN, "--mode", "hang"], timeout=3.0)
    failure = next(r for r in report.failures if r.name == "go forms")
    assert failure.detail == "no bestmove after 'go depth 2' within 3 s"
    assert next(r for r in report.results if r.name == "isready").status == "ok"


def bot(tmp_path: Path, go_handler: str) -> list[str]:
    """A bot that plays the first legal move, with ``go_handler`` (Python, with ``words``, ``board``,
    ``move`` in scope) deciding what it prints for ``go``."""
    script = tmp_path / "bot.py"
    script.write_text(
        textwrap.dedent(
            """\
            import sys
            import congo

            board = congo.Board()
            for line in sys.stdin:
                words = line.split()
                if not words:
                    continue
                if words[0] == "uci":
                    print("id name test bot")
                    print("uciok")
                elif words[0] == "isready":
                    print("readyok")
                elif words[0] == "position":
                    board = congo.Board()
                    if words[1] == "fen":
                        end = words.index("moves") if "moves" in words else len(words)
                        board = congo.Board(" ".join(words[2:end]))
                    if "moves" in words:
                        for text in words[words.index("moves") + 1 :]:
                            board.push_uci(text)
                elif words[0] == "go":
                    moves = [] if board.is_game_over() else [m.uci() for m in board.legal_moves]
                    if "searchmoves" in words:
                        moves = words[words.index("searchmoves") + 1 :]
                    move = moves[0] if moves else "(none)"
            {handler}
                elif words[0] == "quit":
                    break
                sys.stdout.flush()
            """
        ).format(handler=textwrap.indent(go_handler, " " * 8)),
        encoding="utf-8",
    )
    return [sys.executable, str(script)]


def test_a_bot_answering_go_infinite_at_once_fails_that_check(tmp_path: Path) -> None:
    report = check_engine(bot(tmp_path, 'print("bestmove", move)'))
    failed = {r.name: r.detail for r in report.failures}
    assert failed == {
        "go infinite, isready during a search, stop": "a bestmove before stop or ponderhit, after go infinite"
    }


def test_a_malformed_info_line_is_named(tmp_path: Path) -> None:
    report = check_engine(bot(tmp_path, 'print("info depth one score cp 3")\nprint("bestmove", move)'))
    failure = next(r for r in report.failures if r.name == "position forms")
    assert (
        failure.detail
        == "a malformed info line (depth 'one' is not a non-negative integer): 'info depth one score cp 3'"
    )
    assert "< info depth one score cp 3" in failure.exchange


def test_a_principal_variation_with_an_illegal_move_is_named(tmp_path: Path) -> None:
    report = check_engine(
        bot(tmp_path, 'print("info depth 1 score cp 3 pv", move, "a1a7")\nprint("bestmove", move)')
    )
    failure = next(r for r in report.failures if r.name == "position forms")
    assert "pv move 'a1a7' is not legal after" in failure.detail


def test_bad_command_lines_are_user_errors() -> None:
    none = subprocess.run([*CONGO, "uci-check"], capture_output=True, text=True, timeout=60, check=False)
    assert none.returncode == 2
    assert "give the engine's command line" in none.stderr
    missing = uci_check("/nonexistent/engine")
    assert missing.returncode == 2
    assert "/nonexistent/engine" in missing.stderr
    with pytest.raises(ValueError, match="timeout must be a positive"):
        check_engine([*CONGO, "uci"], timeout=0)


def test_one_quoted_word_is_split_as_a_shell_would() -> None:
    assert split_command(["python3 my bot.py"]) == ["python3", "my", "bot.py"]
    assert split_command(["python3", "bot.py"]) == ["python3", "bot.py"]
    assert split_command([]) == []


LATE_STOP_ANSWER = """
import sys
def say(text):
    sys.stdout.write(text + "\\n")
    sys.stdout.flush()
owed = False
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("id name late\\nuciok")
    elif words[0] == "isready":
        say("readyok")
        if owed:  # "late": the answer to the stop comes after the readyok that followed it
            say("bestmove a1c3")
            owed = False
    elif words[0] == "go":
        say("bestmove a1c3")
    elif words[0] == "stop":  # answered even with no search
        if MODE == "early":
            say("bestmove a1c3")
        else:
            owed = True
    elif words[0] == "quit":
        break
"""


@pytest.mark.parametrize("mode", ["early", "late"])
def test_an_answer_to_a_stop_with_no_search_must_come_before_the_next_readyok(
    tmp_path: Path, mode: str
) -> None:
    """The engine client follows every stop with isready and drops what comes before its readyok:
    an engine's answer to a stop that crossed the end of its search. One that comes later would be
    taken for the next search's answer."""
    script = tmp_path / "late.py"
    script.write_text(f"MODE = {mode!r}\n" + LATE_STOP_ANSWER, encoding="utf-8")
    report = check_engine([sys.executable, str(script)])
    result = next(r for r in report.results if r.name == "stop with no search, isready")
    if mode == "early":
        assert result.status == "ok"
        assert result.detail == "a stop with no search answered with a bestmove, before the readyok after it"
    else:
        assert result.status == "fail"
        assert result.detail == "a bestmove with no go pending, after a stop with no search and its readyok"
