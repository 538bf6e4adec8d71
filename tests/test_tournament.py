"""Tournaments (round-robin, gauntlet) on the scheduler that also runs congo match, and outside
engines kept alive across games: one process per player and worker, told ``ucinewgame`` between
games, started anew after a crash; ``recover`` for an engine that cannot be started."""

from __future__ import annotations

import argparse
import math
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from congo import match, stats, tournament
from congo.board import Board
from congo.engine import EngineError

CONGO = [sys.executable, "-m", "congo"]
FOREIGN = Path(__file__).with_name("foreign_engine.py")
START = [Board().fen()]

# Logs the engine's process id and every command it is sent, then passes them on: how many
# processes a match started, and what each was told.
PROXY = """\
import os, subprocess, sys, threading
log = open(os.path.join({directory!r}, "engine-%d.log" % os.getpid()), "w", buffering=1)
child = subprocess.Popen({command!r}, stdin=subprocess.PIPE, stdout=sys.stdout, text=True, bufsize=1)
for line in sys.stdin:
    log.write(line)
    child.stdin.write(line)
    child.stdin.flush()
child.stdin.close()
child.wait()
"""


def _proxy(tmp_path: Path, name: str, command: list[str]) -> str:
    directory = tmp_path / name
    directory.mkdir()
    script = tmp_path / f"{name}.py"
    script.write_text(PROXY.format(directory=str(directory), command=command))
    return f"{sys.executable} {script}"


def _logs(tmp_path: Path, name: str) -> list[list[str]]:
    return [path.read_text().splitlines() for path in sorted((tmp_path / name).glob("engine-*.log"))]


def test_a_round_robin_plays_every_pairing_and_counts_every_game(tmp_path: Path) -> None:
    players = ["random", "greedy", "alphabeta:depth=1"]
    result = match.run_tournament(players, games=4, opening_plies=2, seed=3)
    assert result.pairings == [(0, 1), (0, 2), (1, 2)]
    assert result.played == 12
    assert sorted(result.numbers) == list(range(12))
    for (a, b), counted in zip(result.pairings, result.matches):
        assert (counted.first, counted.second) == (players[a], players[b])
        assert counted.played == 4
        assert counted.pairs == 2
    standings = {s.player: s for s in result.standings()}
    assert sum(s.points for s in standings.values()) == 12
    assert all(s.games == 8 for s in standings.values())
    # Each player's points are the sum of its pairings' from its side.
    greedy = (
        result.matches[0].losses
        + result.matches[2].wins
        + 0.5 * (result.matches[0].draws + result.matches[2].draws)
    )
    assert standings["greedy"].points == greedy
    # The cross-table holds each pairing's points from both sides.
    table = result.cross_table()
    first = result.matches[1]
    assert f"{first.wins + 0.5 * first.draws:g}/4" in table
    assert f"{first.losses + 0.5 * first.draws:g}/4" in table
    # One record file, every game once, numbered by its place in the tournament.
    path = tmp_path / "all.pgn"
    result.write_records(path)
    rounds = re.findall(r'\[Round "(\d+)"\]', path.read_text())
    assert sorted(map(int, rounds)) == list(range(1, 13))


def test_a_gauntlet_plays_the_first_player_against_each_of_the_others() -> None:
    result = match.run_tournament(
        ["greedy", "random", "alphabeta:depth=1", "random"], format="gauntlet", games=2, opening_plies=2
    )
    assert result.players == ["greedy", "random", "alphabeta:depth=1", "random #2"]
    assert result.pairings == [(0, 1), (0, 2), (0, 3)]
    assert [(m.first, m.second) for m in result.matches] == [
        ("greedy", "random"),
        ("greedy", "alphabeta:depth=1"),
        ("greedy", "random #2"),
    ]
    assert result.played == 6
    with pytest.raises(ValueError, match="format"):
        match.run_tournament(["random", "greedy"], format="swiss", games=2)
    with pytest.raises(ValueError, match="at least two players"):
        match.run_tournament(["random"], games=2)


def test_a_match_is_the_first_pairing_of_a_tournament() -> None:
    """One scheduler: run_match's games are those of a tournament's first pairing, game by game."""
    first, second = match.parse_player("greedy"), match.parse_player("alphabeta:depth=1")
    alone = match.run_match(first, second, games=6, opening_plies=3, seed=5)
    together = match.run_tournament(
        [first, second, match.parse_player("random")], games=6, opening_plies=3, seed=5
    )
    games = [g for g, p in zip(together.games, together.pairing_of) if p == 0]
    assert [g.board.move_stack for g in games] == [g.board.move_stack for g in alone.games]
    assert together.matches[0].pentanomial == alone.pentanomial


def test_the_standings_rate_the_players_by_the_fit_over_all_pairings() -> None:
    result = match.run_tournament(["random", "random", "greedy"], games=20, opening_plies=2, seed=2)
    measured = []
    for (a, b), counted in zip(result.pairings, result.matches):
        counts = list(counted.pentanomial)
        names = result.players[a], result.players[b]
        if sum(k * c for k, c in enumerate(counts)) < 2 * sum(counts):
            names, counts = names[::-1], counts[::-1]
        measured.append(stats.measure_match(*names, counts))
    expected = {r.key: r for r in stats.fit_ratings(result.players, measured, "random")}
    lines = {s.player: s for s in result.standings()}
    assert lines["random"].elo == 0
    for name, rating in expected.items():
        assert lines[name].elo == pytest.approx(rating.elo)
        assert lines[name].error == (None if rating.error is None else pytest.approx(rating.error))
    assert "Elo (vs random)" in result.table()


def test_outside_engines_live_across_games_one_process_per_player_and_worker(tmp_path: Path) -> None:
    engine = _proxy(tmp_path, "deep", [*CONGO, "uci"])
    other = _proxy(tmp_path, "shallow", [*CONGO, "uci"])
    result = match.run_match(
        match.parse_player(f"uci[depth=2]:{engine}"),
        match.parse_player(f"uci[depth=1]:{other}"),
        games=6,
        opening_plies=4,
        concurrency=2,
        allow_repeats=True,
    )
    assert result.played == 6
    assert not any(isinstance(game.outcome, match.Adjudicated) for game in result.games)
    for name in ("deep", "shallow"):
        logs = _logs(tmp_path, name)
        assert 1 <= len(logs) <= 2, name  # one process per worker at most, not one per game
        # Each process: one handshake, then ucinewgame before each of its games; 6 games in all.
        assert all(log.count("uci") == 1 for log in logs)
        assert sum(log.count("ucinewgame") for log in logs) == 6
        assert all(log[-1] == "quit" for log in logs)  # closed once the match is over


def test_the_built_in_engine_kept_across_games_plays_as_a_fresh_one() -> None:
    """Its table is cleared before each game: a kept engine plays each game as a new one would."""
    first, second = match.parse_player("engine:depth=3"), match.parse_player("engine:nodes=2000")
    openings = match.make_openings(3, 4, 3)
    fresh = [match.play_match_game(first, second, i, openings[i // 2], max_plies=60) for i in range(6)]
    for concurrency in (1, 2):
        kept = match.run_match(
            first, second, games=6, opening_plies=4, seed=3, max_plies=60, concurrency=concurrency
        )
        assert [g.board.move_stack for g in kept.games] == [g.board.move_stack for g in fresh]


def test_the_standings_name_outside_engines_by_their_id_name() -> None:
    players = [f"uci[time=0.02]:{sys.executable} {FOREIGN}", "random", f"uci[depth=1]:{' '.join(CONGO)} uci"]
    result = match.run_tournament(players, games=2, openings=START)
    assert {s.player for s in result.standings()} == {"Foreign Table Engine", "random", "congo 0.1.0"}
    assert "Elo (vs Foreign Table Engine)" in result.table()
    assert "Foreign Table Engine" in result.cross_table()
    # Two engines with one id name keep their descriptions, to be told apart.
    twins = [f"uci[depth=1]:{' '.join(CONGO)} uci", f"uci[depth=2]:{' '.join(CONGO)} uci"]
    result = match.run_tournament(twins, games=2, opening_plies=4)
    name = match.parse_player(twins[0])[0]
    assert sorted(s.player for s in result.standings()) == [name, f"{name} #2"]


def test_a_tournament_keeps_one_process_per_player(tmp_path: Path) -> None:
    commands = [_proxy(tmp_path, name, [*CONGO, "uci"]) for name in ("a", "b", "c")]
    players = [f"uci[depth=1]:{command}" for command in commands]
    result = match.run_tournament(players, games=2, opening_plies=4)
    assert result.played == 6
    for name in ("a", "b", "c"):
        (log,) = _logs(tmp_path, name)  # one process for the whole tournament
        assert log.count("ucinewgame") == 4  # two pairings of two games each


def test_a_crashed_engine_loses_its_game_and_is_started_anew(tmp_path: Path) -> None:
    crasher = _proxy(tmp_path, "crash", [sys.executable, str(FOREIGN), "--mode", "crash"])
    result = match.run_match(
        match.parse_player(f"uci[time=0.05]:{crasher}"),
        match.parse_player("random"),
        games=3,
        openings=START,
    )
    assert result.losses == 3
    for game in result.games:
        assert isinstance(game.outcome, match.Adjudicated)
        assert game.outcome.termination is match.Adjudication.ENGINE_FAILURE
    assert len(_logs(tmp_path, "crash")) == 3  # a new process for each game after a crash
    assert not any(event.kind == "restart" for game in result.games for event in game.events)
    # With recover, the restart is said, as it happens and in the record of the game it plays.
    events: list[match.MatchEvent] = []
    again = match.run_match(
        match.parse_player(f"uci[time=0.05]:{crasher}"),
        match.parse_player("random"),
        games=3,
        openings=START,
        recover=True,
        on_event=events.append,
    )
    assert [(event.kind, event.game) for event in events if event.kind == "restart"] == [
        ("restart", 1),
        ("restart", 2),
    ]
    for game in again.games[1:]:
        assert [event.kind for event in game.events][:1] == ["restart"]
        assert "a new process plays this one" in game.record()


def test_an_engine_that_stops_answering_is_replaced_for_its_next_game(tmp_path: Path) -> None:
    hanging = _proxy(tmp_path, "hang", [sys.executable, str(FOREIGN), "--mode", "hang"])
    result = match.run_match(
        match.parse_player(f"uci[time=0.05]:{hanging}"), match.parse_player("random"), games=2, openings=START
    )
    assert result.losses == 2
    assert all(isinstance(game.outcome, match.Adjudicated) for game in result.games)
    logs = _logs(tmp_path, "hang")
    assert len(logs) == 2  # the one that hung was not asked to play again
    assert all(any(line.startswith("go") for line in log) for log in logs)


def _flaky(tmp_path: Path) -> str:
    """An engine that crashes in each game, and whose second start fails outright."""
    script = tmp_path / "flaky.py"
    counter = tmp_path / "starts"
    script.write_text(
        "import os, sys\n"
        f"counter = {str(counter)!r}\n"
        "starts = (int(open(counter).read()) if os.path.exists(counter) else 0) + 1\n"
        "open(counter, 'w').write(str(starts))\n"
        "if starts == 2:\n"
        "    sys.exit(3)\n"
        f"os.execv(sys.executable, [sys.executable, {str(FOREIGN)!r}, '--mode', 'crash'])\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return f"uci[time=0.05]:{sys.executable} {script}"


def test_recover_lets_a_match_go_on_past_an_engine_that_cannot_start(tmp_path: Path) -> None:
    flaky = match.parse_player(_flaky(tmp_path))
    result = match.run_match(flaky, match.parse_player("random"), games=3, openings=START, recover=True)
    assert result.losses == 3
    reasons = [game.outcome.reason for game in result.games if isinstance(game.outcome, match.Adjudicated)]
    assert len(reasons) == 3
    assert "could not be started" in reasons[1]
    assert "engine_failure" in [event.kind for event in result.games[1].events]
    assert "could not be started" not in reasons[0] + reasons[2]
    assert (tmp_path / "starts").read_text() == "3"


def test_without_recover_an_engine_that_cannot_start_stops_the_match(tmp_path: Path) -> None:
    flaky = match.parse_player(_flaky(tmp_path))
    with pytest.raises(EngineError):
        match.run_match(flaky, match.parse_player("random"), games=3, openings=START)


def test_congo_tournament_prints_standings_and_saves_every_game(tmp_path: Path) -> None:
    save = tmp_path / "t.pgn"
    run = subprocess.run(
        [
            *CONGO,
            "tournament",
            "random",
            "greedy",
            "alphabeta:depth=1",
            "--format",
            "gauntlet",
            "--games",
            "4",
            "--opening-plies",
            "2",
            "--save",
            str(save),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith(" #  player")
    assert any(line.strip().startswith("1  ") for line in lines)
    assert "Elo (vs random)" in lines[0]
    assert "8 games saved to" in run.stdout
    assert "after 4 games:\n #  player" in run.stderr  # the standings after the first round
    assert save.read_text().count("[Event ") == 8
    assert not os.path.exists(f"{save}.partial")
    bad = subprocess.run([*CONGO, "tournament", "random"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    assert "at least two players" in bad.stderr
    assert bad.stderr.count("\n") == 1


def test_a_tournament_state_has_no_nan() -> None:
    # The Elo of a pairing won outright is a bound, never a NaN in the table.
    result = match.run_tournament(["greedy", "random"], games=6, opening_plies=2)
    for line in result.standings():
        assert line.elo is None or not math.isnan(line.elo)
    assert tournament.FORMATS == ("round-robin", "gauntlet")


def test_congo_tournament_resumes_from_its_state(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    command = [*CONGO, "tournament", "random", "greedy", "--games", "2", "--opening-plies", "2"]
    first = subprocess.run([*command, "--resume", str(state)], capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert "taken from" not in first.stdout
    again = subprocess.run([*command, "--resume", str(state)], capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"2 finished games taken from {state}" in again.stdout
    assert [line for line in again.stdout.splitlines()[1:] if not line.startswith("time ")] == [
        line for line in first.stdout.splitlines() if not line.startswith("time ")
    ]


# -- each player on its own clock --------------------------------------------------------------------


def _own_clock_of(game: match.GameRecord, white: bool) -> match.TimeControl | None:
    if game.time_control is not None:
        return game.time_control
    return game.white_time_control if white else game.black_time_control


def test_each_player_is_timed_by_its_own_clock(tmp_path: Path) -> None:
    players = ["engine:tc=2+0.05,hash=1", "engine:tc=1,hash=1", "random"]
    own = {players[0]: match.TimeControl(2, 0.05), players[1]: match.TimeControl(1), "random": None}
    result = match.run_tournament(
        players,
        games=2,
        opening_plies=2,
        max_plies=14,
        time_control=match.TimeControl(0.5, 0.01),  # for the player without a clock of its own
        time_margin=1000.0,  # a loaded machine's late move is reported, not lost, and not counted here
    )
    own["random"] = match.TimeControl(0.5, 0.01)
    assert result.played == 6
    for game in result.games:
        assert {game.white, game.black} <= set(own)
        for white, name in ((True, game.white), (False, game.black)):
            control = own[name]
            assert _own_clock_of(game, white) == control
            assert control is not None
            # The side's clock after each of its moves: its base, plus its increment a move, less
            # the time its moves took (no move was late: a late one would show in the events).
            spent, made = 0.0, 0
            for ply, (clock, info) in enumerate(zip(game.clocks, game.infos)):
                if info is None or (ply % 2 == 0) != white:
                    continue
                made += 1
                spent += info.elapsed
                if not any(e.kind == "late_move" for e in game.events):
                    assert clock == pytest.approx(control.base + made * control.increment - spent, abs=1e-9)
            assert made >= 1
        text = game.record()
        if game.time_control is None:
            white_tc, black_tc = own[game.white], own[game.black]
            assert f'[WhiteTimeControl "{white_tc}"]' in text
            assert f'[BlackTimeControl "{black_tc}"]' in text
            assert "[TimeControl " not in text
        else:
            assert f'[TimeControl "{game.time_control}"]' in text


def test_an_outside_engine_is_told_each_sides_own_clock(tmp_path: Path) -> None:
    engine = _proxy(tmp_path, "clocked", [*CONGO, "uci"])
    result = match.run_match(
        match.parse_player(f"uci[tc=2+0.05]:{engine}"),
        match.parse_player("engine:tc=1,hash=1"),
        games=2,
        opening_plies=2,
        max_plies=8,
        time_margin=1000.0,
    )
    assert result.played == 2
    goes = [line.split() for log in _logs(tmp_path, "clocked") for line in log if line.startswith("go ")]
    assert len(goes) >= 2
    for words in goes:
        fields = dict(zip(words[1::2], words[2::2]))
        # Its own increment and the opponent's (none): 50 ms and 0.
        increments = {fields.get("winc", "0"), fields.get("binc", "0")}
        assert increments == {"50", "0"}, words
    assert 'WhiteTimeControl "2+0.05"' in result.games[0].record()


def test_a_bad_clock_in_a_player_string_is_an_error_naming_the_player() -> None:
    for spec in ("engine:tc=1+x", "uci[tc=fast]:congo uci", "random:tc=0"):
        with pytest.raises(ValueError, match=re.escape(f"player {spec!r}")):
            match.parse_player(spec)
    bad = subprocess.run(
        [*CONGO, "tournament", "engine:tc=1+x", "random"], capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2
    assert "engine:tc=1+x" in bad.stderr
    assert "time control" in bad.stderr
    assert bad.stderr.count("\n") == 1


def test_a_players_own_clock_is_part_of_what_resume_compares(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    options = {"games": 2, "opening_plies": 2, "max_plies": 6, "resume": state}
    match.run_tournament(["engine:tc=1,hash=1", "random"], **options)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="run the same command"):
        match.run_tournament(["engine:tc=2,hash=1", "random"], **options)  # type: ignore[arg-type]
    assert not match.is_deterministic(match.parse_player("engine:depth=2,tc=1")[1])
    assert match.is_deterministic(match.parse_player("engine:depth=2")[1])


# -- kept engines are closed at the end -----------------------------------------------------------------

# Logs its own process id and that of the engine it starts, then passes the commands on.
PID_PROXY = """\
import os, subprocess, sys
child = subprocess.Popen({command!r}, stdin=subprocess.PIPE, stdout=sys.stdout, text=True, bufsize=1)
with open(os.path.join({directory!r}, "pids-%d.log" % os.getpid()), "w", buffering=1) as log:
    log.write("%d %d\\n" % (os.getpid(), child.pid))
    for line in sys.stdin:
        log.write(line)
        child.stdin.write(line)
        child.stdin.flush()
        if line.strip() == "quit":
            break
    child.stdin.close()
    child.wait()
    log.write("exited\\n")
"""


def pid_proxy(tmp_path: Path, name: str) -> str:
    directory = tmp_path / name
    directory.mkdir()
    script = tmp_path / f"{name}.py"
    script.write_text(PID_PROXY.format(directory=str(directory), command=[*CONGO, "uci"]))
    return f"{sys.executable} {script}"


def _running(pid: int) -> bool:
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat_line.rsplit(")", 1)[-1].split()[0] != "Z"


def engines_left_running(tmp_path: Path, name: str) -> list[int]:
    """The engine processes (proxy and engine) logged under ``name`` still running after a bounded
    wait for them to end (a killed process takes a moment to go)."""
    import time

    pids = [
        int(pid)
        for path in (tmp_path / name).glob("pids-*.log")
        for pid in path.read_text().splitlines()[0].split()
    ]
    assert pids
    deadline = time.monotonic() + 30
    while any(_running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if _running(pid)]


def quit_logs(tmp_path: Path, name: str) -> list[list[str]]:
    return [path.read_text().splitlines() for path in sorted((tmp_path / name).glob("pids-*.log"))]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_every_kept_engine_has_exited_when_a_match_returns(tmp_path: Path) -> None:
    result = match.run_match(
        match.parse_player(f"uci[depth=1]:{pid_proxy(tmp_path, 'a')}"),
        match.parse_player(f"uci[nodes=200]:{pid_proxy(tmp_path, 'b')}"),
        games=4,
        opening_plies=2,
        max_plies=10,
        concurrency=2,
        allow_repeats=True,
    )
    assert result.played == 4
    for name in ("a", "b"):
        assert engines_left_running(tmp_path, name) == []
        assert all(log[-2:] == ["quit", "exited"] for log in quit_logs(tmp_path, name))


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_every_kept_engine_has_exited_after_an_interrupted_match(tmp_path: Path) -> None:
    def stop(result: match.MatchResult, game: match.GameRecord) -> None:
        raise KeyboardInterrupt

    with pytest.raises(match.MatchInterrupted) as interrupted:
        match.run_match(
            match.parse_player(f"uci[depth=1]:{pid_proxy(tmp_path, 'a')}"),
            match.parse_player(f"uci[nodes=200]:{pid_proxy(tmp_path, 'b')}"),
            games=8,
            opening_plies=2,
            max_plies=10,
            concurrency=2,
            on_game=stop,
        )
    assert interrupted.value.result.played == 1
    for name in ("a", "b"):
        assert engines_left_running(tmp_path, name) == []


def test_a_player_that_lost_every_pair_to_a_placed_one_is_placed_below_it() -> None:
    # A gauntlet's bot (the anchor) won every pair against one rung: the rung is at most the
    # bound below the bot, not left out of the standings.
    measured = [
        stats.measure_match("bot", "weak", [0, 0, 0, 0, 6]),
        stats.measure_match("strong", "bot", [0, 0, 0, 0, 6]),
    ]
    ratings = {r.key: r for r in stats.fit_ratings(["bot", "weak", "strong"], measured, "bot")}
    bound = stats.elo_lower_bound([0, 0, 0, 0, 6])
    assert ratings["weak"].at_most
    assert not ratings["weak"].at_least
    assert ratings["weak"].elo == pytest.approx(-bound)
    assert ratings["strong"].at_least
    assert ratings["strong"].elo == pytest.approx(bound)
    result = match.run_tournament(["greedy", "random"], games=6, opening_plies=2, seed=1)
    assert result.matches[0].pentanomial == [0, 0, 0, 0, 3]  # greedy won every pair
    (line,) = [s for s in result.standings() if s.player == "random"]
    assert line.elo_text() == f"<= {-stats.elo_lower_bound([0, 0, 0, 0, 3]):+.0f}"
    # The pairing's line says the bound as congo match does.
    bound = stats.elo_lower_bound([0, 0, 0, 0, 3])
    assert f"at least {bound:+.0f} (one-sided 95 %)" in result.summary()


def test_a_tournaments_events_and_lines_tell_its_games_and_players_apart(tmp_path: Path) -> None:
    crash = f"uci:{sys.executable} {FOREIGN} --mode crash"
    illegal = f"uci:{sys.executable} {FOREIGN} --mode illegal"
    told: list[match.MatchEvent] = []
    result = match.run_tournament(
        ["random", crash, illegal], format="gauntlet", games=2, recover=True, on_event=told.append
    )
    # Game 3 of the tournament is game 1 of its second pairing: its events say 3, as the progress
    # line and the records' Round do.
    rounds = [re.search(r'\[Round "(\d+)"\]', text) for text in result.records()]
    failing = [event for event in told if event.kind in ("engine_failure", "illegal_move")]
    assert {event.player for event in failing} == {"Foreign Table Engine"}
    assert any(event.game is not None and event.game >= 2 for event in failing)  # the second pairing's
    for event in failing:
        assert event.game is not None
        place = result.numbers.index(event.game)
        assert event.message in [e.message for e in result.games[place].events]
        found = rounds[place]
        assert found is not None
        assert found.group(1) == str(event.game + 1)
    # Both engines answer to one id name: the pairing lines name them as the standings do.
    summary = result.summary()
    assert f"random vs {crash}:" in summary
    assert f"random vs {illegal}:" in summary
    assert "vs Foreign Table Engine" not in summary


def test_pairings_is_public_and_gives_each_format_its_pairs() -> None:
    assert "pairings" in tournament.__all__
    assert tournament.pairings(4, "round-robin") == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert tournament.pairings(4, "gauntlet") == [(0, 1), (0, 2), (0, 3)]
    with pytest.raises(ValueError, match="round-robin or gauntlet"):
        tournament.pairings(4, "swiss")


def test_the_format_choices_of_congo_tournament_are_the_formats(monkeypatch: pytest.MonkeyPatch) -> None:
    from congo.cli import build_parser

    # A format added to FORMATS is a choice of the command without a second list to edit.
    monkeypatch.setattr(tournament, "FORMATS", (*tournament.FORMATS, "swiss"))
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command = subparsers.choices["tournament"]
    choices = next(a.choices for a in command._actions if a.dest == "format")
    assert tuple(choices or ()) == ("round-robin", "gauntlet", "swiss")
