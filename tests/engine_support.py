"""What the engine tests share: the command lines of ``congo uci`` and of the tiny foreign engine
(``tests/foreign_engine.py``), a mate-in-one position, and an outside engine that never answers its
handshake, for the tests that stop one while it starts."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Callable

CONGO_UCI = [sys.executable, "-m", "congo", "uci"]
"""``congo uci``, this library's engine over the protocol."""
FOREIGN = [sys.executable, str(Path(__file__).with_name("foreign_engine.py"))]
"""An engine that does not use this library (``tests/foreign_engine.py``, ``--mode`` for its faults)."""
MONKEY_MATE = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"
"""White mates in one."""


def silent_engine(directory: Path) -> tuple[list[str], Path]:
    """A command line that never answers ``uci``, and the file it writes its process id to once it
    runs (in ``directory``)."""
    pid_file = directory / "engine.pid"
    code = f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(600)"
    return [sys.executable, "-c", code], pid_file


def stopped_while_starting(
    start: Callable[[], object], stop: Callable[[], object], pid_file: Path
) -> BaseException:
    """Runs ``start`` (which starts the silent engine) on a thread, calls ``stop`` from this one once
    the engine runs, and returns what ``start`` raised; checks that ``start`` ended and the engine's
    process is gone (killed and reaped)."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            start()
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    for _ in range(1200):  # the engine runs and waits in its handshake
        if pid_file.exists() and pid_file.read_text():
            break
        time.sleep(0.05)
    pid = int(pid_file.read_text())
    stop()
    thread.join(120)
    assert not thread.is_alive()
    assert len(errors) == 1, errors
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return errors[0]
    os.kill(pid, 9)
    raise AssertionError("the engine was left running")
