"""One Board shared by threads: every mutation is atomic (the move stack always leads to the
position), so concurrent pushes and pops never leave it inconsistent nor raise ``Already
borrowed``."""

from __future__ import annotations

import pickle
import random
import sys
import threading
from collections.abc import Iterator

import pytest

import congo


@pytest.fixture
def switch_often() -> Iterator[None]:
    """Makes the interpreter switch threads as often as it can, so that a thread is interrupted in
    the middle of a board's method as often as possible."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


@pytest.mark.usefixtures("switch_often")
def test_eight_threads_pushing_and_popping_one_board_leave_it_consistent() -> None:
    board = congo.Board()
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def hammer(seed: int) -> None:
        rng = random.Random(seed)
        start.wait()
        for _ in range(20000):
            try:
                moves = list(board.legal_moves)
                board.push(rng.choice(moves))
                board.pop()
            except IndexError:  # popped empty by another thread
                pass
            except congo.IllegalMoveError:  # the position changed since the move was chosen
                pass
            except BaseException as error:
                errors.append(error)

    threads = [threading.Thread(target=hammer, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[:3]
    # The stack leads from the start position (where it began) to the position.
    replay = congo.Board()
    for move in board.move_stack:
        replay.push(move)
    assert replay.fen() == board.fen()
    copy = pickle.loads(pickle.dumps(board))
    assert copy.fen() == board.fen()
    assert copy.move_stack == board.move_stack
    assert copy.root().fen() == congo.STARTING_FEN
