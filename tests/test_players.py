"""``congo.players``: the base class every player of a match stands on, the names ``congo.match``
still gives them, and an outside engine stopped while it starts."""

from __future__ import annotations

from pathlib import Path

import pytest

import congo
from congo import match, players
from congo.engine import EngineTerminatedError
from tests.engine_support import silent_engine, stopped_while_starting


class FirstMove(players.Player):
    """The least a player is: a name and a move."""

    name = "first"

    def choose(self, board: congo.Board) -> congo.Move:
        return next(iter(board.legal_moves))


def test_a_player_needs_only_a_name_and_a_move() -> None:
    # The game loop calls new_game, play, abort (on a stop) and close on every player: the base
    # class answers what this one does not define.
    result = match.run_match(
        ("first", lambda seed: FirstMove()), match.parse_player("random"), games=2, max_plies=6
    )
    assert result.played == 2
    assert all(len(game.board.move_stack) <= 6 for game in result.games)
    player = FirstMove()
    assert player.play(congo.Board(), None).move == player.choose(congo.Board())
    player.new_game()
    player.abort()
    player.close()
    with pytest.raises(TypeError):
        players.Player()  # type: ignore[abstract]


def test_match_still_names_the_players() -> None:
    for name in players.__all__:
        assert getattr(match, name) is getattr(players, name), name
    exported = set(match.__all__)
    assert {
        "Player",
        "RandomPlayer",
        "GreedyPlayer",
        "AlphaBetaPlayer",
        "EnginePlayer",
        "UciPlayer",
    } <= exported
    assert {"parse_player", "MAX_ALPHABETA_DEPTH"} <= exported
    for spec in ("random", "greedy", "alphabeta:depth=1", "engine:nodes=100"):
        _name, factory = match.parse_player(spec)
        assert isinstance(factory(1), players.Player), spec


def test_an_outside_engine_is_stopped_in_its_handshake(tmp_path: Path) -> None:
    silent, pid_file = silent_engine(tmp_path)
    player = players.UciPlayer(silent)
    error = stopped_while_starting(player.new_game, player.abort, pid_file)
    # Ended by the abort: the handshake's own timeout (30 s) would have raised EngineTimeoutError.
    assert isinstance(error, EngineTerminatedError)


def test_an_outside_engine_aborted_before_it_starts_is_never_started() -> None:
    player = players.UciPlayer(["/nonexistent/engine"])
    player.abort()
    # Not FileNotFoundError: the program is not even looked for.
    with pytest.raises(EngineTerminatedError):
        player.new_game()
    player.close()


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_the_help_of_match_and_tournament_lists_every_kind_of_player(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from congo.cli import main

    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    for kind, (form, _) in players._KINDS.items():
        assert form in help_text, (command, kind)
    assert "uci:COMMAND" in help_text
