"""Run many tasks on warm workers: threads of this process, or Ray actors spread over a cluster.

A *worker* is a long-lived piece of state made once by a ``factory`` (a search engine, a
network, ...) and reused for every task it runs; a *task* is a function ``task(state, item)``
applied to each item of an input. :func:`open_pool` gives a :class:`WorkerPool` whose
:meth:`~WorkerPool.imap` runs the task over any iterable, consumed lazily with a bounded number of
items in flight, and yields the results in input order::

    with congo.distributed.open_pool(make_engine, analyse, workers=2) as pool:
        for result in pool.imap(positions):
            ...

With ``ray=None`` the workers are threads of this process: right for tasks that spend their time
in Rust with the GIL released (searches, playouts). With ``ray="auto"`` (the cluster this machine
belongs to), ``ray="ray://host:10001"`` or any address :func:`ray.init` takes, each worker is a Ray
actor holding its state between tasks, one per CPU of the cluster unless ``workers`` says otherwise;
the ``factory``, the ``task`` and the items must then be picklable (module-level functions,
:func:`functools.partial` of them, plain values). Ray is imported only here, and only then: install
it with ``pip install 'congo-chess[ray]'``.

This module is the one place where ``congo`` decides how work is spread; :func:`congo.analyse_many`,
``congo annotate``, self-play and ``congo match`` (:func:`congo.match.run_match`, whose ``stop`` hook
aborts the players of the games in progress) are built on it.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import os
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, Callable, Generic, TypeVar

from congo._extras import pip_install

__all__ = ["RayPool", "ThreadPool", "WorkerPool", "open_pool", "ray_available"]

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")

_STOP_POLL = 0.01
"""Seconds between two rounds of stop requests while running tasks wind down."""

_FINISH_TIMEOUT = 60.0
"""Seconds a closing Ray pool waits for its actors' ``finish`` calls before it kills them anyway."""


def _positive(name: str, value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int or None, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


class WorkerPool(Generic[S, T, R]):
    """Warm workers that run ``task(state, item)``; see :func:`open_pool`.

    A pool is a context manager: leaving the ``with`` block (or :meth:`close`) stops any task still
    running (through the ``stop`` hook given to :func:`open_pool`) and releases the workers."""

    workers: int
    """The number of workers."""

    def imap(self, items: Iterable[T], *, window: int | None = None, chunksize: int = 1) -> Iterator[R]:
        """Runs the task on every item and yields the results in input order.

        ``items`` is consumed lazily: at most ``window`` items (default: four per worker) are read
        ahead of the result being waited for, so an input of any length runs in bounded memory.
        ``chunksize`` items travel to a worker together (fewer round trips for short tasks).

        An exception raised by the task, or by the iteration of ``items``, is raised from the
        iterator at that item's place in the order, after every earlier result. Leaving the loop
        early (``break``, an exception, ``KeyboardInterrupt``) stops the running tasks and drops
        the pending ones; the pool stays usable. Raises ``RuntimeError`` on a closed pool."""
        window = _positive("window", window) or 4 * self.workers
        chunksize = _positive("chunksize", chunksize) or 1
        return self._imap(iter(items), window, chunksize)

    def _imap(self, items: Iterator[T], window: int, chunksize: int) -> Iterator[R]:
        submit, collect, abandon = self._start()
        pending: collections.deque[tuple[Any, int]] = collections.deque()  # (handle or error, items)
        chunks = _chunks(items, chunksize)
        in_flight = 0
        exhausted = False
        finished = False
        try:
            while True:
                while not exhausted and in_flight < window:
                    chunk = next(chunks, None)
                    if chunk is None:
                        exhausted = True
                    elif isinstance(chunk, BaseException):
                        pending.append((chunk, 0))
                        exhausted = True
                    else:
                        pending.append((submit(chunk), len(chunk)))
                        in_flight += len(chunk)
                if not pending:
                    finished = True
                    return
                head, size = pending.popleft()
                in_flight -= size
                if isinstance(head, BaseException):
                    raise head
                yield from collect(head)
        finally:
            if not finished:
                abandon([handle for handle, _ in pending if not isinstance(handle, BaseException)])

    def _start(
        self,
    ) -> tuple[Callable[[list[T]], Any], Callable[[Any], list[R]], Callable[[list[Any]], None]]:
        """For one :meth:`imap`: how to send a chunk to a worker (giving a handle), how to wait for
        a handle's results, and how to drop the handles still pending when the loop is left."""
        raise NotImplementedError  # pragma: no cover - every pool overrides it

    def close(self) -> None:
        """Stops running tasks and releases the workers. Calling it again does nothing."""

    def __enter__(self) -> WorkerPool[S, T, R]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _chunks(items: Iterator[T], size: int) -> Iterator[list[T] | BaseException]:
    """Groups items; an exception from the input becomes the last element (and ends the groups)."""
    while True:
        chunk: list[T] = []
        try:
            for _ in range(size):
                chunk.append(next(items))
        except StopIteration:
            if chunk:
                yield chunk
            return
        except Exception as error:  # handed over in order by the caller
            if chunk:
                yield chunk
            yield error
            return
        yield chunk


class ThreadPool(WorkerPool[S, T, R]):
    """Workers as threads of this process, each with its own state made on first use."""

    def __init__(
        self,
        factory: Callable[[], S],
        task: Callable[[S, T], R],
        *,
        workers: int,
        stop: Callable[[S], object] | None = None,
        finish: Callable[[S], object] | None = None,
    ) -> None:
        self.workers = workers
        self._factory = factory
        self._task = task
        self._stop = stop
        self._finish = finish
        self._local = threading.local()
        self._states: list[S] = []
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="congo-worker"
        )

    def _state(self) -> S:
        state: S | None = getattr(self._local, "state", None)
        if state is None:
            state = self._factory()
            self._local.state = state
            with self._lock:
                self._states.append(state)
        return state

    def _run(self, cancelled: threading.Event, chunk: list[T]) -> list[R]:
        state = self._state()
        results: list[R] = []
        for item in chunk:
            if cancelled.is_set():  # the imap was left: start nothing more of it
                raise _Cancelled
            results.append(self._task(state, item))
        return results

    def _start(
        self,
    ) -> tuple[Callable[[list[T]], Any], Callable[[Any], list[R]], Callable[[list[Any]], None]]:
        executor = self._executor
        if executor is None:
            raise RuntimeError("this pool is closed")
        cancelled = threading.Event()

        def submit(chunk: list[T]) -> Future[list[R]]:
            return executor.submit(self._run, cancelled, chunk)

        def abandon(futures: list[Future[list[R]]]) -> None:
            cancelled.set()
            self._abandon(futures)

        return submit, Future.result, abandon

    def _abandon(self, futures: list[Future[list[R]]]) -> None:
        """Cancels what has not started and stops what runs, then waits for it to end."""
        for future in futures:
            future.cancel()
        # A search that starts just after a stop request would miss it: ask again until all ended.
        while wait(futures, timeout=0).not_done:
            self._stop_all()
            wait(futures, timeout=_STOP_POLL)

    def _stop_all(self) -> None:
        if self._stop is not None:
            with self._lock:
                states = list(self._states)
            for state in states:
                self._stop(state)

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
            self._stop_all()
            executor.shutdown(wait=True)
            with self._lock:
                states, self._states = self._states, []
            _finish_all(self._finish, states)

    def __repr__(self) -> str:
        return f"<ThreadPool workers={self.workers}{' closed' if self._executor is None else ''}>"


class _Cancelled(Exception):
    """A chunk whose imap was abandoned before the chunk started."""


def _finish_all(finish: Callable[[S], object] | None, states: list[S]) -> None:
    """Calls ``finish`` on every state, even after one raised (the first error is raised then)."""
    if finish is None:
        return
    failure: BaseException | None = None
    for state in states:
        try:
            finish(state)
        except BaseException as error:
            failure = failure or error
    if failure is not None:
        raise failure


_RAY_SINGLE_NODE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray's switch (read when Ray is imported) that keeps a node on the address it is given; "0" makes
a node on 127.0.0.1 stay on loopback."""


def _is_loopback(address: str) -> bool:
    host = address.split("://", 1)[-1].rsplit(":", 1)[0].strip("[]")
    return host == "localhost" or host.startswith("127.") or host == "::1"


def ray_available() -> bool:
    """Whether Ray can be imported (``pip install 'congo-chess[ray]'``)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError(f"the Ray backend needs Ray: install it with  {pip_install('ray')}") from None
    return ray


class _RayWorker:
    """The body of a Ray actor: the state, made once, and the task run on it.

    Each :meth:`~WorkerPool.imap` is an *epoch*; leaving it early marks its epoch abandoned here,
    and the actor then skips that epoch's queued chunks instead of running them. Ray's own
    ``ray.cancel`` is not used for this: cancelling queued calls to an actor leaves gaps in the
    sequence numbers its ordered queue waits on, and on a loaded machine the queue times out on
    them (after 30 s) and fails every later call, the pool's ``stop`` included."""

    def __init__(
        self, factory: Callable[[], Any], task: Callable[[Any, Any], Any], stop: Any, finish: Any = None
    ) -> None:
        self._state = factory()
        self._task = task
        self._stop = stop
        self._finish = finish
        self._lock = threading.Lock()
        self._abandoned: set[int] = set()
        self._all_abandoned = False
        self._running: int | None = None  # the epoch of the item running now

    def ready(self) -> bool:
        return True

    def _dropped(self, epoch: int) -> bool:
        return self._all_abandoned or epoch in self._abandoned

    def run(self, chunk: list[Any], epoch: int) -> list[Any]:
        results: list[Any] = []
        for item in chunk:
            with self._lock:
                if self._dropped(epoch):  # its imap was left: start nothing more of it
                    return results
                self._running = epoch
            try:
                results.append(self._task(self._state, item))
            finally:
                with self._lock:
                    self._running = None
        return results

    def stop(self, epoch: int | None) -> None:
        """Abandons ``epoch`` (every epoch when None) and returns once its running item ended."""
        with self._lock:
            if epoch is None:
                self._all_abandoned = True
            else:
                self._abandoned.add(epoch)
        # A search that starts just after a stop request would miss it: ask again until it ended.
        while True:
            with self._lock:
                running = self._running
            if running is None or not self._dropped(running):
                return
            if self._stop is not None:
                self._stop(self._state)
            time.sleep(_STOP_POLL)

    def finish(self) -> None:
        _finish_all(self._finish, [self._state])


_actor_class: Any = None


def _ray_actor_class(ray: Any) -> Any:
    """The Ray actor class: tasks run one at a time; ``stop`` runs beside them, in its own
    concurrency group."""
    global _actor_class
    if _actor_class is None:
        body = type(
            "CongoWorker",
            (_RayWorker,),
            {"stop": ray.method(concurrency_group="control")(_RayWorker.stop)},
        )
        _actor_class = ray.remote(num_cpus=1, concurrency_groups={"control": 1})(body)
    return _actor_class


class RayPool(WorkerPool[S, T, R]):
    """Workers as Ray actors, one per CPU of the cluster unless ``workers`` is given.

    Connects to the cluster at ``address`` (``"auto"``, ``"ray://host:port"``, ``"local"`` to
    start a private one on this machine bound to loopback), unless Ray is already initialised in
    this process, in which case that connection is used. Each actor asks for one CPU (a share of
    one when ``workers`` exceeds the cluster's CPUs), makes its state once and keeps it warm
    between tasks.

    Raises ``ImportError`` when Ray is not installed and ``ConnectionError`` when the cluster
    cannot be reached."""

    def __init__(
        self,
        factory: Callable[[], S],
        task: Callable[[S, T], R],
        *,
        address: str,
        workers: int | None = None,
        stop: Callable[[S], object] | None = None,
        finish: Callable[[S], object] | None = None,
    ) -> None:
        if (address == "local" or _is_loopback(address)) and "ray" not in sys.modules:
            # Without this, Ray replaces a loopback node address by the machine's network address
            # and binds its services there.
            os.environ.setdefault(_RAY_SINGLE_NODE, "0")
        ray = _import_ray()
        self._ray = ray
        if not ray.is_initialized():
            try:
                if address == "local":
                    ray.init(_node_ip_address="127.0.0.1", include_dashboard=False, log_to_driver=False)
                elif _is_loopback(address):
                    # A cluster on loopback: this driver joins it on loopback too (its own address
                    # would not reach the cluster's node).
                    ray.init(address=address, _node_ip_address="127.0.0.1", log_to_driver=False)
                else:
                    ray.init(address=address, log_to_driver=False)
            except ConnectionError:
                raise
            except Exception as error:  # Ray raises several kinds; the user needs one
                raise ConnectionError(f"cannot connect to the Ray cluster at {address!r}: {error}") from error
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = workers or max(1, cpus)
        # One CPU each; more workers than CPUs share them (an actor asking for a CPU the cluster
        # does not have would wait for it forever).
        share = min(1.0, max(cpus, 1) / self.workers)
        remote = _ray_actor_class(ray).options(num_cpus=share)
        self._actors = [remote.remote(factory, task, stop, finish) for _ in range(self.workers)]
        self._finishes = finish is not None
        ray.get([actor.ready.remote() for actor in self._actors])
        self._epochs = itertools.count()
        self._closed = False

    def _start(
        self,
    ) -> tuple[Callable[[list[T]], Any], Callable[[Any], list[R]], Callable[[list[Any]], None]]:
        if self._closed:
            raise RuntimeError("this pool is closed")
        ray = self._ray
        turn = itertools.count()
        epoch = next(self._epochs)

        def submit(chunk: list[T]) -> Any:
            # Round-robin: each actor runs its calls in the order they arrive, so a chunk waits only
            # for those sent to its actor before it.
            return self._actors[next(turn) % len(self._actors)].run.remote(chunk, epoch)

        def collect(ref: Any) -> list[R]:
            try:
                results: list[R] = ray.get(ref)
            except ray.exceptions.RayTaskError as error:
                if isinstance(error.cause, BaseException):
                    raise error.cause from None
                raise
            return results

        def abandon(refs: list[Any]) -> None:
            # The pending calls are not cancelled (see _RayWorker): each actor skips them once told
            # this epoch is abandoned, and its running item is stopped before this returns.
            del refs
            ray.get([actor.stop.remote(epoch) for actor in self._actors])

        return submit, collect, abandon

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            ray = self._ray
            try:
                if self._finishes:
                    # In each actor, after its running task (stopped first): killing an actor
                    # would not end what its state started (an engine in its own process group).
                    # An actor that does not answer in time is killed all the same.
                    with contextlib.suppress(ray.exceptions.GetTimeoutError):
                        ray.get([actor.stop.remote(None) for actor in self._actors], timeout=_FINISH_TIMEOUT)
                        ray.get([actor.finish.remote() for actor in self._actors], timeout=_FINISH_TIMEOUT)
            finally:
                for actor in self._actors:
                    ray.kill(actor)
                self._actors = []

    def __repr__(self) -> str:
        return f"<RayPool workers={self.workers}{' closed' if self._closed else ''}>"


def open_pool(
    factory: Callable[[], S],
    task: Callable[[S, T], R],
    *,
    workers: int | None = None,
    ray: str | None = None,
    stop: Callable[[S], object] | None = None,
    finish: Callable[[S], object] | None = None,
) -> WorkerPool[S, T, R]:
    """A pool of warm workers running ``task(state, item)``, each worker's ``state`` made once by
    ``factory()``.

    ``ray=None``: ``workers`` threads of this process (default: one per CPU of this machine).
    ``ray=ADDRESS``: Ray actors on that cluster (``"auto"``, ``"ray://host:port"``, or ``"local"``
    for a private one on this machine), ``workers`` of them (default: one per CPU of the cluster).
    ``stop(state)``, if given, is called from another thread to end a running task early when the
    consumer leaves a loop or closes the pool (for an engine: ``Engine.stop``). ``finish(state)``,
    if given, is called on each worker's state when the pool closes, once its tasks have ended (on
    threads from the closing thread, on Ray in the actor before it is killed): it frees what the
    state holds that outlives it, such as other processes.

    Raises ``TypeError`` / ``ValueError`` for a bad ``workers``, ``ImportError`` when Ray is asked
    for but not installed, ``ConnectionError`` when its cluster cannot be reached."""
    count = _positive("workers", workers)
    if ray is not None:
        if not isinstance(ray, str):
            raise TypeError(f"ray must be a cluster address string or None, got {type(ray).__name__}")
        return RayPool(factory, task, address=ray, workers=count, stop=stop, finish=finish)
    if count is None:
        count = os.cpu_count() or 1
    return ThreadPool(factory, task, workers=count, stop=stop, finish=finish)
