"""The ``congo`` command line as one pattern, its exit codes, and files written whole or
not at all, never over an input: ``congo.cli`` and ``congo._files``."""

from __future__ import annotations

import argparse
import ast
import errno
import importlib
import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import congo
from congo import match, tablebase
from congo._files import SameFileError, atomic_output, check_writable
from congo.cli import COMMANDS, build_parser, main, module_name
from congo.cli._progress import Progress

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(congo.__file__).resolve().parent
CONGO = [sys.executable, "-m", "congo"]
#: A FEN beyond the 14-pieces bound (docs/worst-case.md): about 6.3e9 monkey chains, 30 Black pieces.
MONKEY_BOMB = "3l3/eeeeeee/1e1e1e1/eeeeeee/1e1e1e1/eeeeeee/Me1L1e1 w 1"
GAMES = '[Event "one"]\n[White "a"]\n[Black "b"]\n\n1. Zf3 Zf5 *\n\n[Event "two"]\n\n1. Zf3 *\n'


def _exit_code(args: list[str]) -> int:
    """main()'s status, or argparse's when it exits."""
    try:
        return main(args)
    except SystemExit as stop:
        return int(stop.code or 0)


def _numpy() -> None:
    pytest.importorskip("numpy")


# ================================================================================ one pattern


def test_every_command_is_a_module_with_register_and_run() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert tuple(subparsers.choices) == COMMANDS
    for name in COMMANDS:
        module = importlib.import_module(module_name(name))
        fresh = argparse.ArgumentParser().add_subparsers()
        registered = module.register(fresh)
        assert isinstance(registered, argparse.ArgumentParser)
        assert registered.get_default("run") is module.run
        with pytest.raises(SystemExit) as stop:
            main([name, "--help"])
        assert stop.value.code == 0


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_no_module_imports_from_main_and_commands_import_heavy_modules_lazily() -> None:
    for path in PACKAGE.rglob("*.py"):
        assert "congo.__main__" not in _imports(path), path
    heavy = {"congo.match", "congo.annotate", "congo.selfplay", "congo.analysis", "numpy", "pyarrow"}
    for name in COMMANDS:
        module = module_name(name).rsplit(".", 1)[1]
        tree = ast.parse((PACKAGE / "cli" / f"{module}.py").read_text(encoding="utf-8"))
        top = {n.module for n in tree.body if isinstance(n, ast.ImportFrom) and n.module}
        top |= {a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names}
        assert not top & heavy, (name, top & heavy)
    done = subprocess.run(
        [sys.executable, "-c", "import sys, congo.cli; print(sorted(m for m in sys.modules if m.startswith("
         "('congo.match', 'congo.annotate', 'congo.selfplay', 'numpy'))))"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.strip() == "[]"


def test_the_module_entry_point_is_the_package_main() -> None:
    import congo.__main__ as shim

    assert shim.main is main


def test_docs_cli_md_names_every_command_and_option() -> None:
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in subparsers.choices.items():
        assert f"## congo {name}" in page, name
        parsers = [command]
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers += list(action.choices.values())
        for sub in parsers:
            for action in sub._actions:
                for option in action.option_strings:
                    if option.startswith("--") and option != "--help":
                        assert f"`{option}" in page, (sub.prog, option)
    for code in ("0", "1", "2", "3", "130", "141"):
        assert f"| {code} |" in page


# ================================================================================= exit codes


def test_user_errors_exit_2_in_every_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    source = tmp_path / "in.pgn"
    source.write_text(GAMES, encoding="utf-8")
    cases = {
        "perft": [["perft", "--fen", "nonsense", "1"], ["perft", "-1"]],
        "bench": [["bench", "0"], ["bench", "--threads", "0"]],
        "analyse": [["analyse", "--fen", "nonsense", "--depth", "1"], ["analyse", "--depth", "0"]],
        "match": [["match", "random", "nobody"], ["match", "random", "random", "--save", f"{a_file}/x.pgn"]],
        "tournament": [
            ["tournament", "random"],
            ["tournament", "random", "greedy", "nobody"],
            ["tournament", "random", "greedy", "--format", "swiss"],
            ["tournament", "random", "greedy", "--resume", str(a_file)],
            ["tournament", "random", "greedy", "--save", f"{a_file}/x.pgn"],
        ],
        "uci": [["uci", "extra"]],
        "uci-check": [
            ["uci-check"],
            ["uci-check", str(tmp_path / "no-engine")],
            ["uci-check", "--timeout", "0", "x"],
        ],
        "options": [["options", "--bogus"]],
        "tablebase": [
            ["tablebase", "probe", "--dir", str(tmp_path / "none"), congo.STARTING_FEN],
            ["tablebase", "generate", "--men", "3", "--dir", str(a_file / "tables")],
            ["tablebase", "verify", "--dir", str(tmp_path / "none")],
            ["tablebase", "generate", "--men", "9"],
        ],
        "annotate": [
            ["annotate", str(tmp_path / "none.pgn")],
            ["annotate", str(source), "-o", str(tmp_path / "no" / "out.pgn")],
            ["annotate", str(source), "-o", str(source)],
        ],
        "selfplay": [
            ["selfplay", "--games", "1", "--nodes", "10", "-o", str(tmp_path / "x.csv")],
            ["selfplay", "--games", "1", "--nodes", "10", "-o", str(tmp_path / "no" / "x.npz")],
            ["selfplay", "--games", "1", "--nodes", "10", "-o", str(a_file / "x.parquet")],
        ],
        "serve": [["serve", "--port", "70000"], ["serve", "--no-browser", "--tc", "1+0"]],
        "datagen": [
            ["datagen", "-o", str(tmp_path / "no" / "d.bin"), "--positions", "5"],
            ["datagen", "-o", str(tmp_path / "d.bin"), "--positions", "5", "--after", str(a_file)],
        ],
        "book": [
            ["book", "make", str(tmp_path / "none.pgn"), "-o", str(tmp_path / "b.cbk")],
            ["book", "make", str(source), "-o", str(source)],
            ["book", "make", str(source), "-o", str(tmp_path / "b.cbk"), "--min-games", "0"],
            ["book", "dump", str(a_file)],
            ["book", "merge", str(a_file), "-o", str(tmp_path / "c.cbk")],
        ],
    }
    assert set(cases) == set(COMMANDS)
    for runs in cases.values():
        for args in runs:
            assert _exit_code(args) == 2, args
            err = capsys.readouterr().err
            assert "Traceback" not in err
            assert err.strip(), args


def test_an_error_without_a_message_still_says_what_happened(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review: a MemoryError (`match --openings /dev/zero` under a memory limit) printed
    'congo match: error: ' and nothing else."""

    def exhausted(path: str, **options: object) -> list[str]:
        raise MemoryError

    monkeypatch.setattr(match, "read_openings", exhausted)
    assert main(["match", "random", "random", "--openings", "x"]) == 2
    assert capsys.readouterr().err.strip() == "congo match: error: out of memory"


def test_a_missing_extra_exits_2_naming_the_distribution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pip command names this library's distribution (congo-chess), never 'congo[...]', which
    is an unrelated project on the package index."""
    for module, output in (("numpy", "x.npz"), ("pyarrow", "x.parquet")):
        monkeypatch.setitem(sys.modules, module, None)  # import fails
        assert main(["selfplay", "--games", "1", "--nodes", "10", "-o", str(tmp_path / output)]) == 2
        err = capsys.readouterr().err
        assert f"pip install 'congo-chess[{module}]'" in err, err
        assert err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_the_distribution_name_is_pyprojects() -> None:
    tomllib = pytest.importorskip("tomllib")
    from congo import _extras

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("no pyproject.toml beside the tests")
    with pyproject.open("rb") as file:
        assert tomllib.load(file)["project"]["name"] == _extras.DISTRIBUTION


def test_a_tablebase_directory_without_tables_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review: `analyse --tablebase EMPTY` and `annotate --tablebase EMPTY` (or /proc) searched
    without tables, silently, exit 0."""
    source = tmp_path / "g.pgn"
    source.write_text(GAMES, encoding="utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    for args in (
        ["analyse", "--depth", "1", "--tablebase", str(empty)],
        ["annotate", str(source), "--nodes", "10", "--workers", "1", "--tablebase", str(empty)],
    ):
        assert main(args) == 2, args
        captured = capsys.readouterr()
        assert f"{empty} holds no tables" in captured.err
        assert "congo tablebase generate" in captured.err
        assert "position" not in captured.out  # nothing was searched


def test_a_looping_link_or_an_overlong_name_as_output_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review: ELOOP and ENAMETOOLONG exited 1 (a failing disk) rather than 2 (a bad path)."""
    _numpy()  # selfplay writes .npz with numpy: without it, that is the first error
    (tmp_path / "a.npz").symlink_to(tmp_path / "b.npz")
    (tmp_path / "b.npz").symlink_to(tmp_path / "a.npz")
    for output in (tmp_path / "a.npz", tmp_path / ("n" * 300 + ".npz")):
        assert main(["selfplay", "--games", "1", "--nodes", "10", "-o", str(output)]) == 2
        assert "cannot write" in capsys.readouterr().err


def test_an_outside_engine_that_dies_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    false = "/bin/false" if Path("/bin/false").exists() else "false"
    assert main(["match", f"uci:{false}", "random", "--games", "2"]) == 1
    assert "died" in capsys.readouterr().err
    assert main(["match", "uci:/nonexistent/engine", "random", "--games", "2"]) == 2  # a bad path


def test_a_failing_disk_exits_1_and_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _numpy()
    import numpy as np

    output = tmp_path / "x.npz"
    assert main(["selfplay", "--games", "1", "--nodes", "10", "-o", str(output)]) == 0
    before = output.read_bytes()

    def full(file: object, **arrays: object) -> None:
        file.write(b"PK\x03\x04 half a zip")  # type: ignore[attr-defined]
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(np, "savez_compressed", full)
    assert main(["selfplay", "--games", "2", "--nodes", "10", "-o", str(output)]) == 1
    assert output.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.npz"]


def test_a_full_tmpfs_keeps_the_valid_file(tmp_path: Path) -> None:
    """Before the fix: on a full disk selfplay left a truncated file where a valid one had been."""
    _numpy()
    import numpy as np

    if os.geteuid() != 0 or sys.platform != "linux":
        pytest.skip("mounting a tmpfs needs root on Linux")
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], check=False).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        output = disk / "x.npz"
        assert main(["selfplay", "--games", "1", "--nodes", "10", "-o", str(output)]) == 0
        rows = len(np.load(output)["fen"])
        assert main(["selfplay", "--games", "40", "--nodes", "50", "-o", str(output)]) == 1
        assert len(np.load(output)["fen"]) == rows
        assert [p.name for p in disk.iterdir()] == ["x.npz"]
    finally:
        subprocess.run(["umount", str(disk)], check=True)


# ============================================================================= atomic output


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
def test_tablebase_generate_checks_its_directory_before_any_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tablebase", "generate", "--men", "3", "--dir", "/proc/self"]) == 2
    captured = capsys.readouterr()
    assert "cannot write tables to /proc/self" in captured.err
    assert "generating" not in captured.err


def test_atomic_output_replaces_only_on_success(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")

    def interrupted() -> None:
        with atomic_output(target) as out:
            out.write("new, half")
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    with atomic_output(target) as out:
        out.write("new")
    assert target.read_text() == "new"
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    with atomic_output(link) as out:
        out.write("through the link")
    assert link.is_symlink()
    assert target.read_text() == "through the link"
    with atomic_output(os.devnull) as out:  # a device is written, never replaced
        out.write("x")
    assert Path(os.devnull).is_char_device()


def test_atomic_output_checks_before_the_work(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(FileNotFoundError, match="directory does not exist"):
        check_writable(tmp_path / "no" / "x")
    with pytest.raises(NotADirectoryError):
        check_writable(a_file / "x")
    with pytest.raises(IsADirectoryError):
        check_writable(tmp_path)
    with pytest.raises(SameFileError):
        check_writable(a_file, inputs=[a_file])
    if Path("/proc/self").exists():
        with pytest.raises(OSError, match="/proc/x"):
            check_writable("/proc/x")
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


def test_check_writable_leaves_what_is_there(tmp_path: Path) -> None:
    """Review: check_writable replaced an existing file by an empty one (match --save emptied the
    user's file before the match; tablebase generate left an empty LvL.ctb.check behind)."""
    target = tmp_path / "games.pgn"
    target.write_text("precious")
    target.chmod(0o640)
    check_writable(target)
    assert target.read_text() == "precious"
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)
    check_writable(tmp_path / "new.pgn")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pgn"]


def test_atomic_output_refuses_a_read_only_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review: a rename replaces a file its owner made read-only (chmod 444), which open() would
    refuse. (os.access is faked for the file: as root every file is writable.)"""
    target = tmp_path / "keep.pgn"
    target.write_text("keep")
    target.chmod(0o444)
    real_access = os.access

    def access(path: str, mode: int, **kwargs: bool) -> bool:
        if str(path) == str(target) and mode & os.W_OK:
            return False
        return real_access(path, mode, **kwargs)

    monkeypatch.setattr(os, "access", access)
    with pytest.raises(PermissionError, match="read-only"):
        check_writable(target)
    with pytest.raises(PermissionError, match="read-only"), atomic_output(target) as out:
        out.write("new")
    assert target.read_text() == "keep"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.pgn"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_check_writable_does_not_open_a_fifo(tmp_path: Path) -> None:
    """Opening a FIFO to check it waited for a reader forever (and a reader took the check's close
    for the end of the output)."""

    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    done = threading.Event()

    def check() -> None:
        check_writable(fifo)
        done.set()

    threading.Thread(target=check, daemon=True).start()
    if not done.wait(10):
        with open(fifo, "rb"):  # release the blocked open so that the thread ends
            pass
        pytest.fail("check_writable blocked on a FIFO")


def test_match_save_keeps_the_old_file_when_the_match_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from congo.engine import EngineError

    save = tmp_path / "games.pgn"
    save.write_text("old games\n")

    def dies(*args: object, **kwargs: object) -> None:
        assert save.read_text() == "old games\n"  # still there while the match runs
        raise EngineError("the engine died")

    monkeypatch.setattr(match, "run_match", dies)
    assert main(["match", "random", "greedy", "--games", "2", "--save", str(save)]) == 1
    assert save.read_text() == "old games\n"


def test_match_save_is_never_its_openings_file(tmp_path: Path) -> None:
    """`match --openings f --save f` replaced the user's openings with the games."""
    suite = tmp_path / "suite.txt"
    text = congo.STARTING_FEN + "\n"
    suite.write_text(text)
    link = tmp_path / "link.pgn"
    link.symlink_to(suite)
    for save in (suite, link):
        args = ["match", "random", "random", "--games", "2", "--openings", str(suite), "--save", str(save)]
        assert _exit_code(args) == 2
        assert suite.read_text() == text


def test_match_save_dash_is_refused_not_a_file_named_dash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review: `--save -` ('-' is standard output for annotate) wrote files named '-' and '-.partial'."""
    monkeypatch.chdir(tmp_path)
    assert main(["match", "random", "random", "--games", "2", "--save", "-"]) == 2
    assert "--save needs a file name" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_tablebase_generate_leaves_no_check_file(tmp_path: Path) -> None:
    assert main(["tablebase", "generate", "--men", "2", "--dir", str(tmp_path)]) == 0
    assert all(p.suffix == ".ctb" for p in tmp_path.iterdir()), sorted(p.name for p in tmp_path.iterdir())


@pytest.mark.parametrize("how", ["same", "symlink", "stdin"])
def test_annotate_never_writes_over_its_input(tmp_path: Path, how: str) -> None:
    """Before the fix: `annotate g.pgn -o g.pgn` (or a symlink, or `- -o g.pgn < g.pgn`) emptied g.pgn."""
    source = tmp_path / "g.pgn"
    source.write_text(GAMES, encoding="utf-8")
    output = source
    if how == "symlink":
        output = tmp_path / "link.pgn"
        output.symlink_to(source)
    args = ["-" if how == "stdin" else str(source), "-o", str(output), "--nodes", "100"]
    with source.open("rb") as stdin:
        run = subprocess.run([*CONGO, "annotate", *args], stdin=stdin, capture_output=True, text=True)
    assert run.returncode == 2, run.stderr
    assert "is the input" in run.stderr
    assert source.read_text(encoding="utf-8") == GAMES


@pytest.mark.skipif(not Path("/dev/stdin").exists(), reason="needs /dev/stdin")
def test_annotate_reads_a_pipe_named_as_a_file(tmp_path: Path) -> None:
    """`congo annotate <(cat g.pgn)` (or /dev/stdin from a pipe) read the pipe once to count the
    games, then found it empty: "0 games annotated", exit 0."""
    run = subprocess.run(
        [*CONGO, "annotate", "/dev/stdin", "--nodes", "100", "--workers", "1"],
        input=GAMES,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("[Event ") == 2
    assert "2 games annotated" in run.stderr


def test_annotate_output_appears_whole(tmp_path: Path) -> None:
    source = tmp_path / "g.pgn"
    source.write_text(GAMES, encoding="utf-8")
    output = tmp_path / "out.pgn"
    output.write_text("old")
    assert main(["annotate", str(source), "-o", str(output), "--nodes", "100", "--workers", "1"]) == 0
    assert output.read_text(encoding="utf-8").count("[Event ") == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.pgn", "out.pgn"]


def test_selfplay_checks_its_output_before_playing(tmp_path: Path) -> None:
    """Before the fix: a bad -o path failed only after every game was played."""
    _numpy()  # selfplay writes .npz with numpy: without it, that is the first error
    for output in ("/nonexistent/dir/x.npz", str(tmp_path / "f" / "x.npz"), "/proc/x.npz"):
        (tmp_path / "f").write_text("a file")
        run = subprocess.run(
            [*CONGO, "selfplay", "--games", "50", "--nodes", "100000", "-o", output],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 2, run.stderr
        assert run.stdout == ""
        assert "games" not in run.stderr  # no progress: nothing was played
        assert output in run.stderr


def test_selfplay_from_a_finished_position_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review: `selfplay --fen <a finished game>` wrote a file of 0 rows and exited 0."""
    _numpy()  # selfplay writes .npz with numpy: without it, that is the first error
    output = tmp_path / "x.npz"
    args = ["selfplay", "--games", "2", "--nodes", "10", "--fen", "7/7/7/3l3/7/7/7 w 1", "-o", str(output)]
    assert main(args) == 2
    assert "already over" in capsys.readouterr().err
    assert not output.exists()


def test_selfplay_writes_the_name_it_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before the fix: `-o x.NPZ` wrote x.NPZ.npz and reported x.NPZ."""
    _numpy()
    output = tmp_path / "x.NPZ"
    assert main(["selfplay", "--games", "1", "--nodes", "10", "-o", str(output)]) == 0
    assert f"to {output}" in capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir()] == ["x.NPZ"]


def test_match_save_is_written_whole_and_checked_first(tmp_path: Path) -> None:
    save = tmp_path / "games.pgn"
    save.write_text("old games\n")
    assert main(["match", "random", "greedy", "--games", "2", "--save", str(save)]) == 0
    assert save.read_text().count("[Event ") == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pgn"]
    a_file = tmp_path / "games.pgn"
    assert _exit_code(["match", "random", "random", "--save", f"{a_file}/x.pgn"]) == 2


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="needs SIGTERM")
def test_sigterm_ends_a_command_as_ctrl_c_does_leaving_no_temporary_file(tmp_path: Path) -> None:
    """Review: `kill` (or `timeout`) of `congo selfplay -o x.npz` left `.x.npz.XXXX.partial` behind."""
    _numpy()  # selfplay writes .npz with numpy: without it, that is the first error
    process = subprocess.Popen(
        [*CONGO, "selfplay", "--games", "500", "--nodes", "20000", "--workers", "1", "-o", "x.npz"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not any(p.name.endswith(".partial") for p in tmp_path.iterdir()):
            assert process.poll() is None
            assert time.monotonic() < deadline
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 143, err
    assert "Traceback" not in err
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_perft_divide_prints_each_root_move_as_it_finishes_and_says_what_ctrl_c_kept(tmp_path: Path) -> None:
    """Before the fix: `congo perft --divide 7 > file` stopped with Ctrl-C left a 0-byte file."""
    out = tmp_path / "out.txt"
    with out.open("w") as stdout:
        process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys, congo.cli as c; sys.exit(c.main())",
                "perft",
                "--divide",
                "7",
            ],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while not out.read_text():
            assert process.poll() is None
            assert time.monotonic() < deadline
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    lines = out.read_text().splitlines()
    if process.returncode == 0:  # every root move finished first (a very fast machine)
        return
    assert process.returncode == 130, err
    assert lines
    first, count = lines[0].split(": ")
    board = congo.Board()
    board.push_uci(first)
    assert int(count) == congo.perft(board, 6)
    assert re.search(rf"interrupted after {len(lines)} of 24 root moves", err), err


# ================================================================================= progress


def test_progress_off_a_terminal_prints_tenths_and_a_heartbeat() -> None:
    stream = io.StringIO()
    with Progress(100, stream=stream, interval=3600) as progress:
        for done in range(1, 101):
            progress.update(done, f"step {done}")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 11  # the first step, each tenth, the end
    assert lines[-1].endswith("100/100 step 100")
    stream = io.StringIO()
    with Progress(stream=stream, interval=0.05, text="waiting") as progress:
        time.sleep(0.5)
    assert "waiting" in stream.getvalue()
    assert stream.getvalue().count("\n") >= 2


def test_perft_shows_progress_when_piped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before the fix: a long `congo perft 7 | cat` printed nothing for minutes."""
    import congo.cli.perft as perft

    monkeypatch.setattr(perft, "QUIET_SECONDS", 0.0)
    assert main(["perft", "4"]) == 0
    err = capsys.readouterr().err
    assert "24/24" in err


# ============================================================================ what is printed


def test_analyse_labels_a_move_from_an_unfinished_iteration(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before the fix: the summary mixed the unfinished iteration's score with the finished one's depth."""
    from congo.engine import Score, SearchInfo, SearchResult

    board = congo.Board()
    a, b = (congo.Move.from_uci(m) for m in ("a1c3", "e2e3"))

    def search(
        self: object, board: object, limit: object, callback: object = None, **_: object
    ) -> SearchResult:
        info = SearchInfo(
            depth=2, seldepth=2, score=Score(cp=12), pv=[b], nodes=10, time=0.1, nps=100, hashfull=0
        )
        callback(info)  # type: ignore[operator]
        bound = SearchInfo(3, 3, Score(cp=-4), [a], 20, 0.2, 100, 0, bound="upper")
        callback(bound)  # type: ignore[operator]
        return SearchResult(move=a, score=Score(cp=-4), pv=[a], depth=2, nodes=20, time=0.2, nps=100)

    monkeypatch.setattr(congo.Engine, "search", search)
    assert main(["analyse", "--time", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "<=-0.04" in out[-3]
    assert out[-2].startswith("last finished depth 2: e2e3 score +0.12")
    assert out[-1].startswith("bestmove a1c3 score -0.04 depth 2")
    assert "unfinished depth 3" in out[-1]
    del board


def test_annotate_reads_latin_1_with_a_warning(tmp_path: Path) -> None:
    """Before the fix: a Latin-1 `café` came out as `caf\ufffd` with no warning."""
    source = tmp_path / "g.pgn"
    source.write_bytes(GAMES.replace('"one"', '"caf\xe9"').replace('"two"', '"deux"').encode("latin-1"))
    output = tmp_path / "out.pgn"
    run = subprocess.run(
        [*CONGO, "annotate", str(source), "-o", str(output), "--nodes", "100"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert '[Event "café"]' in output.read_text(encoding="utf-8")
    assert "\ufffd" not in output.read_text(encoding="utf-8")
    assert re.search(r"game 1: line 1 of .*g\.pgn is not UTF-8: read as Latin-1", run.stderr), run.stderr
    assert "game 2" not in run.stderr


def test_tablebase_help_shows_the_real_default_directory(tmp_path: Path) -> None:
    """Before the fix: `--dir DIR … (default: None)`."""
    run = subprocess.run(
        [*CONGO, "tablebase", "generate", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "CONGO_TABLEBASES": str(tmp_path / "tables"), "COLUMNS": "300"},
        check=True,
    )
    assert "None" not in run.stdout
    assert str(tmp_path / "tables") in run.stdout
    assert "$CONGO_TABLEBASES" in run.stdout


def test_generate_reports_the_longest_win_that_stats_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before the fix: generate said "the longest mate 74 plies" where stats says the longest win is 73."""
    assert main(["tablebase", "generate", "--men", "3", "--dir", str(tmp_path)]) == 0
    said = re.search(r"the longest win (\d+) plies", capsys.readouterr().out)
    assert said is not None
    stats = tablebase.stats(tmp_path)
    longest = max(max(s.white_to_move.longest_win, s.black_to_move.longest_win) for s in stats)
    assert int(said.group(1)) == longest


def test_cli_analyse(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--depth", "4"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") >= 6
    assert "bestmove" in out
    assert main(["analyse", "--fen", "7/4l2/7/4c2/7/2p4/1M1L3 w 1", "--nodes", "1000", "--threads", "2"]) == 0
    assert "bestmove b1d3f5d7 score #1" in capsys.readouterr().out
    assert main(["analyse", "--fen", "7/7/7/7/7/7/3L3 b 1", "--depth", "2"]) == 0
    assert "no move: the game is over (lion captured, 1-0)" in capsys.readouterr().out


def test_cli_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--fen", "nonsense", "--depth", "2"]) == 2
    assert "error" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["analyse", "--depth", "0"])
    with pytest.raises(SystemExit):
        main(["analyse", "--time", "-1"])
    assert main(["match", "engine:depth=1", "nobody", "--games", "2"]) == 2
    assert "unknown player" in capsys.readouterr().err


def test_cli_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["options"]) == 0
    assert "null_move" in capsys.readouterr().out


def test_module_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "congo", "analyse", "--depth", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert "bestmove" in done.stdout


#: Runs the command line's main() after saying, on stderr, that the imports are done (a Ctrl-C
#: during Python's own start-up is not the command's to answer).
READY = "import sys, congo.__main__ as cli; print('ready', file=sys.stderr, flush=True); sys.exit(cli.main())"


def _congo(
    *args: str, interrupt_after: float | None = None, once_printed: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Runs the CLI; with ``interrupt_after``, sends it SIGINT that many seconds after it is ready
    (and, with ``once_printed``, after it has printed a line starting so: on a loaded machine a fixed
    delay alone may end before the first result)."""
    command = [sys.executable, "-m", "congo", *args]
    if interrupt_after is None:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    command = [sys.executable, "-c", READY, *args]
    environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment
    ) as process:
        assert process.stderr is not None
        assert process.stdout is not None
        assert process.stderr.readline() == "ready\n"
        seen = ""
        if once_printed is not None:
            while not (line := process.stdout.readline()).lstrip().startswith(once_printed):
                assert line, f"the command ended before printing {once_printed!r}: {seen}"
                seen += line
            seen += line
        time.sleep(interrupt_after)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=timeout)
        return subprocess.CompletedProcess(command, process.returncode, seen + out, err)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["perft", "99999999999999999999999"], "depth must be from 0 to 255"),
        (["perft", "4294967296"], "depth must be from 0 to 255"),
        (["analyse", "--hash", "1048576"], "hash_mb 1048576 is more than half of this machine's memory"),
        (["analyse", "--hash", "99999999999999999999999"], "hash_mb must be from 1 to"),
        (["analyse", "--threads", "100000"], "threads must be from 1 to 256"),
        (["analyse", "--depth", "500"], "depth must be from 1 to"),
        (["perft", "--fen", MONKEY_BOMB, "2"], "black has 30 pieces"),
    ],
)
def test_command_line_user_errors_are_one_line(args: list[str], message: str) -> None:
    # Before the fix: tracebacks for user errors, and an attempt at a 1 TiB table.
    done = _congo(*args)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stdout == ""  # checked before any work


def test_command_line_ctrl_c() -> None:
    # Before the fix: `congo analyse` ended in an IndexError traceback on Ctrl-C; `congo perft` ignored it.
    analysed = _congo("analyse", "--depth", "99", once_printed="1 ", interrupt_after=0.5)
    assert analysed.returncode == 130, analysed.stderr
    assert "Traceback" not in analysed.stderr
    last = analysed.stdout.strip().splitlines()[-1]
    assert last.startswith("bestmove ")
    assert "(interrupted)" in last
    assert " pv " in last
    for args in (["perft", "9"], ["perft", "--divide", "9"]):
        counted = _congo(*args, interrupt_after=1.0)
        assert counted.returncode == 130
        assert counted.stderr.strip().splitlines() == ["congo perft: interrupted"]


def test_command_line_survives_a_closed_pipe() -> None:
    # Before the fix: `congo perft --divide 2 | head -5` ended in a BrokenPipeError traceback.
    with subprocess.Popen(
        [sys.executable, "-m", "congo", "perft", "--divide", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        process.stdout.read(10)
        process.stdout.close()  # the reader goes away, as `head` does
        err = process.stderr.read().decode()
        process.wait(timeout=60)
    assert "Traceback" not in err
    assert "BrokenPipe" not in err
    assert process.returncode in (0, 141)


def test_cli_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "3"]) == 0
    out = capsys.readouterr().out
    assert "nodes 14332" in out
    assert "nps" in out


def test_cli_perft_divide_and_fen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--divide", "--fen", "7/4l2/7/4c2/7/2p4/1M1L3 w 1", "1"]) == 0
    out = capsys.readouterr().out
    assert "b1d3f5d7: 1" in out


def test_cli_reports_bad_input_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--fen", "7/7/7/7/7/7/7 w 1", "1"]) == 2
    assert "neither lion" in capsys.readouterr().err


def test_cli_runs_as_a_module() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "congo", "perft", "2"], capture_output=True, text=True, check=True
    )
    assert "nodes 576" in result.stdout
