"""Files written whole or not at all, never over an input.

:func:`atomic_output` is how every command and writer of the package puts a file on disk: it
checks before any long work that the file can be written, refuses a target that is one of the
inputs (after following symbolic links: same device and inode), writes a temporary file next to
the target, flushes it to the disk and renames it into place only when the work succeeded. On an
exception (a full disk, Ctrl-C) the temporary file is removed and whatever was at the target stays
as it was. The temporary file is made by ``mkstemp`` (``O_EXCL``: a new file, never through a
symbolic link). :func:`check_outputs` checks all of a command's outputs at once, before its work:
each writable, none an input, no two the same file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Any, Union

PathLike = Union[str, "os.PathLike[str]"]


class SameFileError(ValueError):
    """The output named is one of the inputs: writing it would destroy the input."""


def _identity(path_or_stdin: PathLike) -> tuple[int, int] | None:
    """(device, inode) of an input: ``-`` is standard input; ``None`` if it does not exist."""
    try:
        stdin = os.fspath(path_or_stdin) == "-"
        info = os.fstat(sys.stdin.fileno()) if stdin else os.stat(path_or_stdin)  # follows links
    except (OSError, ValueError, AttributeError):
        return None
    return info.st_dev, info.st_ino


def check_not_an_input(path: PathLike, inputs: Iterable[PathLike]) -> None:
    """Raises :class:`SameFileError` if ``path`` is the same file as one of ``inputs``."""
    target = _identity(path) if os.fspath(path) != "-" else None
    if target is None:
        return
    for source in inputs:
        if _identity(source) == target:
            shown = "standard input" if os.fspath(source) == "-" else repr(os.fspath(source))
            raise SameFileError(f"the output {os.fspath(path)!r} is the input {shown}: write to another file")


def _target(path: PathLike) -> str:
    """The file to replace: a symbolic link's target (the link stays a link)."""
    return os.path.realpath(os.fspath(path))


def check_writable(path: PathLike, *, inputs: Iterable[PathLike] = ()) -> None:
    """Raises now, before any long work, what writing ``path`` would raise: :class:`SameFileError`
    for an input, ``FileNotFoundError``/``NotADirectoryError``/``IsADirectoryError``/
    ``PermissionError`` (with a message naming the path) when it cannot be written."""
    check_not_an_input(path, inputs)
    name = os.fspath(path)
    try:
        info = os.stat(_target(name))
    except OSError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
        # A device or a pipe: opening a pipe would wait for a reader (and its reader would take the
        # close for the end of the output), so only the permission is checked.
        if not os.access(_target(name), os.W_OK):
            raise PermissionError(errno.EACCES, f"cannot write {name}: permission denied", name)
        return
    # A temporary file made and removed: what is at the path now stays as it is.
    with atomic_output(path, "wb", discard=True):
        pass


def check_outputs(outputs: Iterable[PathLike], *, inputs: Iterable[PathLike] = ()) -> None:
    """:func:`check_writable` for each of a command's outputs, before any work, and
    :class:`SameFileError` if two of them are the same file (the same path after following links,
    or the same file by device and inode): the second written would replace the first. A device
    such as ``/dev/null`` may be named more than once."""
    sources = list(inputs)
    seen: list[tuple[str, tuple[int, int] | None, str]] = []
    for path in outputs:
        name = os.fspath(path)
        check_writable(name, inputs=sources)
        target, identity = _target(name), _identity(name)
        with contextlib.suppress(OSError):
            if not stat.S_ISREG(os.stat(target).st_mode):
                continue  # a device such as /dev/null: written directly, nothing is replaced
        for other_target, other_identity, other in seen:
            if target == other_target or (identity is not None and identity == other_identity):
                raise SameFileError(
                    f"the outputs {other!r} and {name!r} are the same file: give each its own"
                )
        seen.append((target, identity, name))


@contextlib.contextmanager
def atomic_output(
    path: PathLike,
    mode: str = "w",
    *,
    inputs: Iterable[PathLike] = (),
    encoding: str | None = "utf-8",
    discard: bool = False,
) -> Iterator[IO[Any]]:
    """Opens a temporary file next to ``path`` (``mode`` ``"w"`` or ``"wb"``) and, when the block
    ends without an exception, syncs it and renames it over ``path``; on an exception it is removed
    and ``path`` is untouched. ``discard=True`` removes it even on success (a check only). A target
    that exists and is not a regular file (``/dev/null``, a FIFO) is written directly. Raises before
    the block runs: :class:`SameFileError` if ``path`` is one of ``inputs``, and an ``OSError``
    naming the path when its directory is missing, is a file, or cannot be written."""
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb', got {mode!r}")
    name = os.fspath(path)
    check_not_an_input(name, inputs)
    target = _target(name)
    text_args: dict[str, Any] = {"encoding": encoding} if mode == "w" else {}
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:  # e.g. a path under a regular file
        raise _explained(error, name) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, f"cannot write {name}: it is a directory", name)
    if info is not None and stat.S_ISREG(info.st_mode) and not os.access(target, os.W_OK):
        # A rename would replace a file that its owner made read-only: refuse, as open() would.
        raise PermissionError(errno.EACCES, f"cannot write {name}: the file is read-only", name)
    if info is not None and not stat.S_ISREG(info.st_mode):
        # A device or a pipe: nothing to replace, nothing to destroy.
        with open(target, mode, **text_args) as special:
            yield special
        return
    directory = os.path.dirname(target) or "."
    if not os.path.isdir(directory):
        missing = not os.path.exists(directory)
        kind = FileNotFoundError if missing else NotADirectoryError
        reason = "its directory does not exist" if missing else f"{directory} is not a directory"
        raise kind(errno.ENOENT if missing else errno.ENOTDIR, f"cannot write {name}: {reason}", name)
    try:
        handle, temporary = tempfile.mkstemp(
            dir=directory, prefix=f".{os.path.basename(target)}.", suffix=".partial"
        )
    except OSError as error:
        raise _explained(error, name) from None
    try:
        with os.fdopen(handle, mode, **text_args) as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        if discard:
            os.unlink(temporary)
            return
        if info is not None:  # keep the permissions of the file replaced
            with contextlib.suppress(OSError):
                os.chmod(temporary, stat.S_IMODE(info.st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            with contextlib.suppress(OSError):
                os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, target)
        with contextlib.suppress(OSError):  # the rename itself on the disk
            fd = os.open(directory, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError) and error.filename is None and error.errno in _DISK_ERRNOS:
            reason = f"cannot write {name}: {error.strerror or error} (what was there is unchanged)"
            raise type(error)(error.errno, reason, name) from None
        raise


_DISK_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS}


def _explained(error: OSError, name: str) -> OSError:
    """The same kind of ``OSError``, with a message that names the path the user gave."""
    reason = error.strerror or str(error)
    kind = type(error)
    return kind(error.errno or 0, f"cannot write {name}: {reason}", name)
