"""Whether a call into Rust lets other Python threads run, decided without a timing threshold that
a loaded machine could miss.

A second thread stamps the time in a loop while the call runs. If the call holds the GIL, that
thread cannot stamp anything until the call returns: its longest pause spans the whole call. If the
call releases the GIL, the thread goes on stamping, and its longest pause is its own scheduling
delay. A busy machine can delay that thread too, so the call is tried several times: it passes as
soon as one try shows the thread running through the call (a pause shorter than half the call); a
call that holds the GIL can never show that, however often it is tried.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


def longest_pause(call: Callable[[], object]) -> tuple[float, float]:
    """Runs ``call`` while another thread stamps the time: (the longest stretch of the call with no
    stamp, the call's duration), in seconds."""
    stamps: list[float] = []
    done = threading.Event()

    def stamp() -> None:
        while not done.is_set():
            stamps.append(time.perf_counter())
            time.sleep(0.001)

    stamper = threading.Thread(target=stamp)
    stamper.start()
    try:
        while not stamps:  # the stamper runs before the call starts
            time.sleep(0.001)
        start = time.perf_counter()
        call()
        end = time.perf_counter()
    finally:
        done.set()
        stamper.join()
    points = [start, *(s for s in stamps if start < s < end), end]
    return max(b - a for a, b in zip(points, points[1:])), end - start


def assert_releases_the_gil(call: Callable[[], object], attempts: int = 10) -> None:
    """Fails unless, in one of ``attempts`` tries, another thread ran through ``call``."""
    seen = []
    for _ in range(attempts):
        pause, duration = longest_pause(call)
        if pause < duration / 2:
            return
        seen.append(f"{pause * 1000:.0f} of {duration * 1000:.0f} ms")
    raise AssertionError(f"no other thread ran during the call (longest pause of each try: {seen})")
