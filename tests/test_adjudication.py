"""Adjudication in congo.match and ``congo match``: resignation and draws by the players' scores
(cutechess's and fastchess's ``-resign`` and ``-draw``), and endgame tables, whose results must be
exactly those of perfect play."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import congo
import congo.tablebase as tablebase
from congo import match
from congo.__main__ import main
from congo.engine import Limit, PlayResult, PovScore, Score
from tests.tablebase_support import random_fen

CONGO = [sys.executable, "-m", "congo"]


class Reporter(match.Player):
    """Random moves (seeded), with a score from its own point of view given by ``score(ply)``."""

    def __init__(self, name: str, score: Callable[[int], int | None], seed: int = 0) -> None:
        self.name = name
        self.score = score
        self.random = random.Random(seed)

    def choose(self, board: congo.Board) -> congo.Move:
        return self.random.choice(list(board.legal_moves))

    def play(self, board: congo.Board, limit: Limit | None) -> PlayResult:
        cp = self.score(board.ply())
        info = {} if cp is None else {"score": PovScore(Score(cp=cp), board.turn), "depth": 3}
        return PlayResult(self.choose(board), None, info)  # type: ignore[arg-type]


# A quiet position (lions and a few pieces each, far apart) where random moves rarely end the game.
QUIET = "2l4/3e3/7/7/7/3E3/3L3 w 1"


def test_rules_parse_as_cutechess_writes_them() -> None:
    assert match.ResignRule.parse("movecount=3 score=600") == match.ResignRule(3, 600)
    assert match.ResignRule.parse(["movecount=3", "score=600", "twosided=true"]) == match.ResignRule(
        3, 600, True
    )
    assert match.DrawRule.parse("movenumber=40,movecount=8,score=10") == match.DrawRule(40, 8, 10)
    for bad, message in [
        ("movecount=3", "score is missing"),
        ("movecount=x score=1", "movecount must be an integer"),
        ("movecount=0 score=1", "at least 1"),
        ("movecount=1 score=1 twosided=maybe", "twosided must be true or false"),
        ("moves=1 score=1", r"expected movecount=N score=CP twosided=true\|false, got 'moves=1'"),
        ("movecount=1 movecount=2 score=1", "movecount twice"),
    ]:
        with pytest.raises(ValueError, match=message):
            match.ResignRule.parse(bad)
    with pytest.raises(ValueError, match="movenumber is missing"):
        match.DrawRule.parse("movecount=2 score=5")


def test_a_side_whose_own_score_says_lost_resigns() -> None:
    rules = match.Adjudicator(resign=match.ResignRule(3, 500))
    white = Reporter("hopeless", lambda ply: -600)
    black = Reporter("silent", lambda ply: None, seed=1)
    game = match.play_game(white, black, QUIET, adjudicator=rules)
    assert isinstance(game.outcome, match.Adjudicated)
    assert game.outcome.termination is match.Adjudication.RESIGN
    assert game.outcome.winner is congo.BLACK
    assert len(game.board.move_stack) == 5  # White's third move, after two of Black's
    assert "hopeless (White) resigned" in game.record()
    assert '[Termination "resign"]' in game.record()
    # A score above the threshold once breaks the run: -600, -600, -400, -600, -600, -600.
    scores = iter([-600, -600, -400, -600, -600, -600])
    game = match.play_game(Reporter("w", lambda ply: next(scores)), black, QUIET, adjudicator=rules)
    assert isinstance(game.outcome, match.Adjudicated)
    assert len(game.board.move_stack) == 11
    # Two-sided: the winner's score must agree.
    two = match.Adjudicator(resign=match.ResignRule(2, 500, twosided=True))
    game = match.play_game(white, black, QUIET, adjudicator=two, max_plies=30)
    assert game.outcome.termination is not match.Adjudication.RESIGN
    game = match.play_game(white, Reporter("confident", lambda ply: 700), QUIET, adjudicator=two)
    assert isinstance(game.outcome, match.Adjudicated)
    assert game.outcome.termination is match.Adjudication.RESIGN
    assert game.outcome.winner is congo.BLACK
    assert len(game.board.move_stack) == 4  # two moves each


def test_a_draw_is_adjudicated_after_the_move_number_when_both_scores_stay_near_zero() -> None:
    rules = match.Adjudicator(draw=match.DrawRule(movenumber=6, movecount=2, score=10))
    game = match.play_game(
        Reporter("a", lambda ply: 5), Reporter("b", lambda ply: -10, seed=1), QUIET, adjudicator=rules
    )
    assert isinstance(game.outcome, match.Adjudicated)
    assert game.outcome.termination is match.Adjudication.DRAW
    assert game.result() == "1/2-1/2"
    assert game.board.fullmove_number == 7  # after move 6, with four quiet plies long done
    # One side's score beyond the bound: no draw.
    game = match.play_game(
        Reporter("a", lambda ply: 5),
        Reporter("b", lambda ply: 50, seed=1),
        QUIET,
        adjudicator=rules,
        max_plies=40,
    )
    assert game.outcome.termination is not match.Adjudication.DRAW


def test_adjudications_are_counted_by_kind_in_the_summary() -> None:
    result = match.MatchResult("one", "two")
    for index, termination in enumerate(
        [
            match.Adjudication.RESIGN,
            match.Adjudication.TABLEBASE,
            match.Adjudication.TABLEBASE,
            match.Adjudication.DRAW,
        ]
    ):
        outcome = match.Adjudicated(termination, None if termination is match.Adjudication.DRAW else True)
        result.add(match.GameRecord("a", "b", [], congo.Board(), outcome, index=index))
    assert "\nadjudicated: draw 1, resign 1, tablebase 2" in result.summary()


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every table up to four men (seconds to make), or those of ``$CONGO_TEST_TABLEBASES``."""
    given = os.environ.get("CONGO_TEST_TABLEBASES")
    directory = Path(given) if given else tmp_path_factory.mktemp("tables")
    tablebase.generate(directory, men=4)
    return directory


def perfect_result(tb: tablebase.Tablebase, board: congo.Board) -> str:
    """The result of the position with best play: a win or a loss played out move by move from
    the tables to the end the rules give (a captured lion, no legal move); a draw is a position
    where no move wins and one draws."""
    moves = tb.root_moves(board)
    assert moves is not None
    if max(dtm for _, dtm in moves) == 0:
        return "1/2-1/2"
    played = board.copy()
    for move in tb.best_line(played):
        played.push(move)
    outcome = played.outcome()
    assert outcome is not None, played.fen()
    assert outcome.winner is not None, played.fen()
    return outcome.result()


def test_tablebase_results_are_those_of_perfect_play(tables: Path) -> None:
    """300 games of cheap players from five-man positions: every game that reaches the (four-man)
    tables is adjudicated there, with the result perfect play from that position gives."""
    tb = tablebase.open_tablebase(tables)
    rules = match.Adjudicator(tablebase=tb)
    rng = random.Random(29)
    adjudicated = {"1-0": 0, "0-1": 0, "1/2-1/2": 0}
    for number in range(300):
        material = "L" + "".join(rng.choice("PSMGZEC") for _ in range(2)) + "vL" + rng.choice("PSMGZEC")
        if rng.random() < 0.5:
            white, black = material.split("v")
            material = f"{black}v{white}"
        fen = random_fen(rng, material)
        assert tb.probe_wdl(fen) is None  # five men: outside the tables
        players: list[match.Player] = [match.RandomPlayer(number), match.GreedyPlayer(number)]
        rng.shuffle(players)
        game = match.play_game(players[0], players[1], fen, adjudicator=rules)
        if game.outcome.termination is not match.Adjudication.TABLEBASE:
            assert tb.probe_wdl(game.board) is None or game.board.outcome() is not None
            continue
        assert len(game.board.move_stack) >= 1
        expected = perfect_result(tb, game.board)
        assert game.result() == expected, (fen, game.board.fen())
        wdl = tb.probe_wdl(game.board)
        assert wdl is not None
        assert expected == ("1/2-1/2" if wdl == 0 else ("1-0" if (wdl > 0) == game.board.turn else "0-1"))
        adjudicated[expected] += 1
    assert sum(adjudicated.values()) >= 100, adjudicated
    assert all(count >= 5 for count in adjudicated.values()), adjudicated


def test_cli_adjudication_with_congo_uci(
    tables: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real ``congo uci`` processes: --tablebase ends games from five-man openings in the tables,
    --resign ends a lost one, each counted in the summary; the options may precede the players."""
    rng = random.Random(3)
    suite = tmp_path / "five.txt"
    suite.write_text("".join(random_fen(rng, "LZEvLC") + "\n" for _ in range(3)))
    engine = f"uci[depth=3]:{sys.executable} -m congo uci"
    save = tmp_path / "games.pgn"
    argv = ["match", "--tablebase", str(tables), "--openings", str(suite), "--games", "6", engine, "greedy"]
    assert main([*argv, "--save", str(save)]) == 0
    out = capsys.readouterr().out
    count = save.read_text().count('[Termination "tablebase"]')
    assert count >= 3
    assert f"adjudicated: tablebase {count}" in out
    assert "tablebase: " in save.read_text()  # the reason, with the position
    # A side far behind (a lion against lion, elephant and crocodile) by its own scores resigns.
    lost = tmp_path / "lost.txt"
    lost.write_text("3l3/7/7/7/2EC3/7/3L3 b 1\n")
    run = subprocess.run(
        [
            *CONGO,
            "match",
            "--resign",
            "movecount=2",
            "score=400",
            f"uci[depth=2]:{sys.executable} -m congo uci",
            f"uci[depth=1]:{sys.executable} -m congo uci",
            "--openings",
            str(lost),
            "--games",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"^adjudicated: resign [12]$", run.stdout, re.M), run.stdout
    for bad, message in [
        (["--tablebase", str(tmp_path / "none")], "tablebase"),
        (["--resign", "movecount=2"], "score is missing"),
        (["--draw"], "--draw needs KEY=VALUE words"),
    ]:
        assert main(["match", "random", "random", "--games", "2", *bad]) == 2
        assert message in capsys.readouterr().err
