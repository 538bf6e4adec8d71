"""Temporary and partial files are created exclusively, never over an input or through a link, and
a leftover from a killed run is kept; every output is checked before the work; caches are named
by what they depend on, completeness included (``congo match --save``, ``congo tablebase
generate``, ``benches/tuning``)."""

from __future__ import annotations

import codecs
import importlib.util
import inspect
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import congo
from congo import match
from congo._files import SameFileError, check_outputs
from congo.cli import main

ROOT = Path(__file__).resolve().parent.parent
RECORD = '[Event "an earlier match"]\n[Round "{n}"]\n[Result "1-0"]\n\n1-0\n\n'


def _exit_code(args: list[str]) -> int:
    try:
        return main(args)
    except SystemExit as stop:
        return int(stop.code or 0)


def _match(save: Path, *extra: str) -> list[str]:
    return ["match", "random", "random", "--games", "2", "--save", str(save), *extra]


# ================================================================================ congo match --save


def test_match_refuses_openings_named_like_its_partial_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--openings F.partial --save F` truncated the openings, played them, then deleted them."""
    save = tmp_path / "games.pgn"
    suite = tmp_path / "games.pgn.partial"
    suite.write_text(congo.STARTING_FEN + "\n", encoding="utf-8")
    assert _exit_code(_match(save, "--openings", str(suite))) == 2
    assert "is the input" in capsys.readouterr().err
    assert suite.read_text(encoding="utf-8") == congo.STARTING_FEN + "\n"
    assert not save.exists()


def test_match_keeps_the_partial_file_a_killed_run_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Running the same command again after a kill truncated FILE.partial: its games were lost."""
    save = tmp_path / "games.pgn"
    partial = tmp_path / "games.pgn.partial"
    left = RECORD.format(n=1) + RECORD.format(n=2) + RECORD.format(n=3)
    partial.write_text(left, encoding="utf-8")
    assert _exit_code(_match(save)) == 2
    err = capsys.readouterr().err
    assert "games.pgn.partial" in err
    assert "3 finished games" in err
    assert "rename it" in err
    assert partial.read_text(encoding="utf-8") == left
    assert not save.exists()
    # Once it is moved aside, the same command runs and removes only its own partial file.
    partial.rename(tmp_path / "kept.pgn")
    assert _exit_code(_match(save)) == 0
    assert save.read_text(encoding="utf-8").count("[Event ") == 2
    assert not partial.exists()
    assert (tmp_path / "kept.pgn").read_text(encoding="utf-8") == left


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges on Windows")
@pytest.mark.parametrize("dangling", [False, True], ids=["to-a-file", "to-nothing"])
def test_match_never_writes_through_a_link_at_the_partial_name(tmp_path: Path, dangling: bool) -> None:
    """A symbolic link at FILE.partial had its target replaced by the games (exit 0)."""
    save = tmp_path / "games.pgn"
    victim = tmp_path / "victim.txt"
    if not dangling:
        victim.write_text("keep me\n", encoding="utf-8")
    link = tmp_path / "games.pgn.partial"
    link.symlink_to(victim)
    assert _exit_code(_match(save)) == 2
    assert link.is_symlink()
    if dangling:
        assert not victim.exists()
    else:
        assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert not save.exists()


def test_match_reads_openings_with_a_byte_order_mark(tmp_path: Path) -> None:
    """An openings file saved with a UTF-8 byte-order mark was refused (a bad FEN on line 1)."""
    fen = "2l4/7/7/7/7/7/3LE2 w 1"
    suite = tmp_path / "suite.txt"
    suite.write_bytes(codecs.BOM_UTF8 + f"{congo.STARTING_FEN}\n{fen}\n".encode())
    assert match.read_openings(str(suite)) == [congo.STARTING_FEN, fen]
    assert match.parse_openings(f"\ufeff{fen}\n") == [fen]  # a file read as plain UTF-8
    save = tmp_path / "games.pgn"
    assert _exit_code(_match(save, "--openings", str(suite))) == 0
    assert save.read_text(encoding="utf-8").count("[Event ") == 2


def _refused_twice(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Runs a command that is refused, twice: the same one-line error each time."""
    assert _exit_code(args) == 2
    first = capsys.readouterr().err
    assert _exit_code(args) == 2
    assert capsys.readouterr().err == first
    return first


@pytest.mark.parametrize("command", ["match", "tournament"])
@pytest.mark.parametrize("refusal", ["repeats", "bad-opening", "engine", "resume"])
def test_a_run_refused_before_its_first_game_leaves_no_partial_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, refusal: str
) -> None:
    """A refusal found once FILE.partial was made (too few distinct openings for deterministic
    players, ...) left an empty FILE.partial, and the next run was refused for that file."""
    save = tmp_path / "games.pgn"
    players = ["engine:depth=1", "engine:depth=1"]
    extra = ["--games", "4"]
    if refusal == "repeats":
        extra += ["--opening-plies", "0"]
    elif refusal == "bad-opening":
        suite = tmp_path / "suite.txt"
        suite.write_text("not a position\n", encoding="utf-8")
        extra += ["--openings", str(suite)]
    elif refusal == "engine":
        players = ["random", f"uci:{tmp_path / 'no-such-engine'}"]
    else:
        state = tmp_path / "other.state"
        assert _exit_code([command, "random", "random", "--games", "2", "--resume", str(state)]) == 0
        capsys.readouterr()
        extra += ["--resume", str(state)]
    err = _refused_twice([command, *players, *extra, "--save", str(save)], capsys)
    assert "partial" not in err
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("games")) == []


@pytest.mark.parametrize("command", ["match", "tournament"])
@pytest.mark.parametrize("clash", ["save", "openings", "book"])
def test_resume_is_never_the_save_file_or_an_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, clash: str
) -> None:
    """`--resume F --save F`: the records written at the end replaced the state (the next run was
    refused: not a match state); `--resume` naming the openings or the book is refused as an
    output that is an input, the file untouched."""
    args = [command, "random", "random", "--games", "2"]
    suite = tmp_path / "suite.txt"
    suite.write_text(congo.STARTING_FEN + "\n", encoding="utf-8")
    book = tmp_path / "book.cbk"
    if clash == "save":
        state = tmp_path / "games.pgn"
        args += ["--save", str(state), "--resume", str(tmp_path / "." / "games.pgn")]
    elif clash == "openings":
        state = suite
        args += ["--openings", str(suite), "--resume", str(suite)]
    else:
        records = tmp_path / "records.pgn"
        made = ["match", "random", "random", "--games", "2", "--opening-plies", "0", "--save", str(records)]
        assert _exit_code(made) == 0
        assert _exit_code(["book", "make", str(records), "-o", str(book)]) == 0
        state = book
        args += ["--book", str(book), "--resume", str(book)]
    before = state.read_bytes() if state.exists() else None
    capsys.readouterr()
    err = _refused_twice(args, capsys)
    assert err.count("\n") == 1
    assert ("--save file" if clash == "save" else "is the input") in err
    assert (state.read_bytes() if state.exists() else None) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
@pytest.mark.parametrize("command", ["match", "tournament"])
def test_resume_from_a_fifo_is_refused_not_waited_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """`--resume FIFO` blocked for ever reading the state (until Ctrl-C)."""
    fifo = tmp_path / "state"
    os.mkfifo(fifo)
    assert _exit_code([command, "random", "random", "--games", "2", "--resume", str(fifo)]) == 2
    assert f"--resume {fifo} is not a regular file" in capsys.readouterr().err


def test_a_resume_state_of_another_congo_version_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state's fingerprint left out the engine's version: a match resumed after an upgrade
    mixed the games of two engines into one result, said to be the uninterrupted match's."""
    state = tmp_path / "state"
    args = ["match", "engine:depth=1", "engine:nodes=50", "--games", "2", "--resume", str(state)]
    assert _exit_code(args) == 0
    kept = state.read_bytes()
    monkeypatch.setattr(congo._core, "__version__", "0.0.0-another")
    capsys.readouterr()
    assert _exit_code(args) == 2
    assert "differs in: congo_version" in capsys.readouterr().err
    assert state.read_bytes() == kept


# ================================================================================ tablebase generate


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges on Windows")
def test_tablebase_generate_never_writes_through_a_link_at_a_partial_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link at X.ctb.partial had its target overwritten and was renamed to X.ctb."""
    tables = tmp_path / "tables"
    tables.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    link = tables / "LvL.ctb.partial"
    link.symlink_to(victim)
    assert _exit_code(["tablebase", "generate", "--men", "2", "--dir", str(tables)]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert link.is_symlink()
    assert not (tables / "LvL.ctb").exists()
    # A regular file a killed run left there is half a table: it is replaced, and the run succeeds.
    link.unlink()
    link.write_bytes(b"half a table")
    assert _exit_code(["tablebase", "generate", "--men", "2", "--dir", str(tables)]) == 0
    assert sorted(p.name for p in tables.iterdir()) == ["LvL.ctb"]


# ================================================================================ outputs checked first


def test_check_outputs_refuses_two_outputs_that_are_one_file(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    link = tmp_path / "link.txt"
    link.symlink_to(report)
    with pytest.raises(SameFileError, match="are the same file"):
        check_outputs([report, tmp_path / "other.txt", link])
    with pytest.raises(SameFileError, match="are the same file"):
        check_outputs([report, report])
    check_outputs([os.devnull, os.devnull, report])  # a device may be named twice
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt"]


np = pytest.importorskip("numpy")


@pytest.fixture
def tuning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "benches" / "tuning"))


def _texel_cache(path: Path, meta: str | None = None) -> None:
    fens = [congo.STARTING_FEN] * 20
    columns = {
        "fens_sp": np.array(fens),
        "y_sp": np.array([0.5] * 20),
        "g_sp": np.arange(20),
        "fens_tb": np.array([], dtype=str),
        "y_tb": np.array([], dtype=float),
    }
    if meta is not None:
        columns["meta"] = np.array(meta)
    np.savez_compressed(path, **columns)


@pytest.mark.usefixtures("tuning")
@pytest.mark.parametrize("which", ["data", "out", "missing-dir"])
def test_nnue_checks_its_report_before_training(tmp_path: Path, which: str) -> None:
    """`--report` equal to the data file turned the .npz into text; equal to --out it replaced the
    network just written; in a missing directory it failed with a traceback after training."""
    import nnue

    data, out = tmp_path / "data.npz", tmp_path / "net.bin"
    _texel_cache(data)
    before = data.read_bytes()
    report = {"data": data, "out": out, "missing-dir": tmp_path / "nowhere" / "r.txt"}[which]
    args = ["--data", str(data), "--hidden", "2", "--epochs", "1", "--out", str(out)]
    with pytest.raises(SystemExit) as stop:
        nnue.main([*args, "--report", str(report)])
    assert stop.value.code == 2
    assert data.read_bytes() == before
    assert not out.exists()


@pytest.mark.usefixtures("tuning")
@pytest.mark.parametrize("which", ["cache", "weights", "missing-dir"])
def test_texel_checks_its_report_before_self_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, which: str
) -> None:
    """`--report` pointing at texel's cache destroyed it; a missing directory failed after the work."""
    import texel

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started before the outputs were checked")

    monkeypatch.setattr(texel, "play_games", no_work)
    monkeypatch.setattr(texel, "tablebase_data", no_work)
    monkeypatch.setattr(texel, "features", no_work)
    work = tmp_path / "work"
    work.mkdir()
    (work / "tablebases").mkdir()
    (work / "tablebases" / "LvL.ctb").write_bytes(b"a table")
    args = ["--games", "3", "--nodes", "50", "--tb-positions", "10", "--work", str(work)]
    cache = work / "data-g3-n50-t10-s1.npz"
    monkeypatch.setattr(texel, "WEIGHTS_RS", tmp_path / "weights.rs")  # not the repository's
    if which == "cache":
        _texel_cache(cache)
        report = cache
    elif which == "weights":
        report = tmp_path / "weights.rs"
    else:
        report = tmp_path / "nowhere" / "report.txt"
    before = cache.read_bytes() if cache.exists() else None
    with pytest.raises(SystemExit) as stop:
        texel.main([*args, "--report", str(report)])
    assert stop.value.code == 2
    assert (cache.read_bytes() if cache.exists() else None) == before
    assert not report.exists() or report == cache


@pytest.mark.usefixtures("tuning")
def test_texel_never_caches_a_cut_short_run_under_the_full_runs_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run cut short by --minutes was cached as the full run (195 of 200 games) and reused by
    later runs and by nnue.py's default data."""
    import nnue
    import texel

    def two_games(games: int, *args: object, **kwargs: object) -> Iterator[dict[str, list[object]]]:
        for game in range(games):
            if game == 2:  # the clock of --minutes 0 has run out after the first game
                raise AssertionError("a third game was played")
            yield {
                "fen": [congo.STARTING_FEN] * 4,
                "ply": [6, 7, 8, 9],
                "score_mate": [0] * 4,
                "value": [0] * 4,
                "game": [game] * 4,
            }

    monkeypatch.setattr(texel, "play_games", two_games)
    ending = "2l4/7/7/7/7/7/3LE2 w 1"
    monkeypatch.setattr(texel, "tablebase_data", lambda *args: ([ending] * 20, [1.0] * 20))
    work = tmp_path / "work"
    (work / "tablebases").mkdir(parents=True)
    (work / "tablebases" / "LvL.ctb").write_bytes(b"a table")
    args = ["--games", "5", "--nodes", "50", "--tb-positions", "0", "--work", str(work)]
    assert texel.main([*args, "--minutes", "0", "--dry-run", "--steps", "2", "--l2", "1e-6"]) == 0
    full = work / "data-g5-n50-t0-s1.npz"
    partial = work / "data-g5-n50-t0-s1-partial1.npz"
    assert not full.exists()
    assert partial.exists()
    meta = texel.read_meta(np.load(partial))
    assert meta is not None
    assert meta["complete"] is False
    assert meta["played"] == 1
    # nnue.py refuses it unless asked, and then says so.
    net_args = ["--data", str(partial), "--hidden", "2", "--epochs", "1", "--batch", "2", "--dry-run"]
    with pytest.raises(SystemExit, match="cut short"):
        nnue.main(net_args)
    report = tmp_path / "report.txt"
    assert nnue.main([*net_args, "--allow-partial", "--report", str(report)]) == 0
    assert "(partial: 1 of 5 games)" in report.read_text(encoding="utf-8")
    # A cache whose record disagrees with its name (renamed by hand) is refused, not reused.
    partial.rename(full)
    with pytest.raises(SystemExit, match="made by another run"):
        texel.main([*args, "--dry-run"])


# ================================================================================ every bench's outputs


def _script(relative: str) -> Any:
    """A bench or example script, imported under a name of its own, with its folder on the path as
    when it runs (an example imports its sibling ``_output``)."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(f"script_{path.stem}", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def _no_work(*args: object, **kwargs: object) -> None:
    raise AssertionError("the work started before the outputs were checked")


BENCHES = {
    # script: (the option naming an output, the function where its work starts)
    "benches/run.py": ("--json", "load_positions"),
    "benches/worst_case.py": ("--json", "load_perft_file"),
    "benches/uci.py": ("--json", "round_trips"),
    "benches/learning.py": ("--out", "bench_encoding"),
    "benches/make_openings.py": ("--out", "match.make_openings"),
    "benches/tablebase_facts.py": ("--docs", "tablebase.stats"),
    "benches/time_losses.py": ("--out", "run"),
    "benches/make_book.py": ("--out", "play_game"),
}


@pytest.mark.parametrize("script", sorted(BENCHES))
@pytest.mark.parametrize("bad", ["missing-dir", "a-directory"])
def test_every_bench_checks_its_output_before_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str, bad: str
) -> None:
    """The benches wrote their figures at the end: a bad path failed with a traceback after minutes."""
    option, work = BENCHES[script]
    module = _script(script)
    owner, _, name = work.rpartition(".")
    monkeypatch.setattr(getattr(module, owner) if owner else module, name, _no_work)
    output = tmp_path / "nowhere" / "out.txt" if bad == "missing-dir" else tmp_path
    argv = [script, option, str(output)]
    if script.endswith("tablebase_facts.py"):
        argv += ["--dir", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as stop:
        module.main(argv[1:]) if "argv" in inspect.signature(module.main).parameters else module.main()
    assert stop.value.code == 2


@pytest.mark.parametrize("script", ["benches/ladder.py", "benches/feature_matches.py"])
def test_the_match_benches_check_their_records_before_the_first_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    module = _script(script)
    missing = tmp_path / "nowhere" / "results.txt"
    if script.endswith("ladder.py"):
        monkeypatch.setattr(module, "REPORT", missing)
        monkeypatch.setattr(module, "RAW", tmp_path / "raw.txt")  # not the repository's files
        monkeypatch.setattr(module, "DOCS", tmp_path / "engine.md")
        monkeypatch.setattr(module, "read_raw", _no_work)
        monkeypatch.setattr(module, "play", _no_work)
        argv: list[str] | None = ["--only", "n1k-n100"]
    else:
        monkeypatch.setattr(module, "RESULTS", tmp_path / "results")  # a directory: not writable as a file
        (tmp_path / "results").mkdir()
        monkeypatch.setattr(module.match, "run_match", _no_work)
        monkeypatch.setattr(sys, "argv", [script, "--games", "2"])
        argv = None
    with pytest.raises(SystemExit) as stop:
        module.main() if argv is None else module.main(argv)
    assert stop.value.code == 2


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges on Windows")
def test_spsa_never_creates_its_log_through_a_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A link to nothing at --log passed the exists() check and the log was written at its target."""
    module = _script("benches/tuning/spsa.py")
    monkeypatch.setattr(module.match, "run_match", _no_work)
    log, target = tmp_path / "spsa.jsonl", tmp_path / "elsewhere.jsonl"
    log.symlink_to(target)
    monkeypatch.setattr(sys, "argv", ["spsa.py", "--iterations", "1", "--log", str(log)])
    with pytest.raises(SystemExit) as stop:
        module.main()
    assert stop.value.code == 2
    assert not target.exists()
    assert log.is_symlink()


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges on Windows")
@pytest.mark.parametrize(
    ("script", "args"),
    [("examples/random_game.py", ["--plies", "10"]), ("examples/render_svg.py", [])],
)
def test_the_examples_never_write_through_a_link(tmp_path: Path, script: str, args: list[str]) -> None:
    """`--output` opened with open(..., 'w'): a link there had its target replaced."""
    module = _script(script)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    output = tmp_path / "out.txt"
    output.symlink_to(victim)
    assert module.main([*args, "--output", str(output)]) == 0
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert not output.is_symlink()
    assert output.read_text(encoding="utf-8").strip()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "victim.txt"]
