"""An outside engine that never answers its handshake, for the tests that stop one while it starts."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Callable


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
