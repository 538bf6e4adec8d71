"""Writing files whole or not at all, never over an input: how the package's commands write their
outputs, for scripts that write results of their own (the benchmarks under ``benches/`` do).

>>> from congo.files import atomic_output
>>> with atomic_output("results.txt") as out:  # doctest: +SKIP
...     out.write("measured\\n")

:func:`atomic_output` writes a temporary file next to the target and renames it into place only
when the block ends without an exception; on an exception (a full disk, Ctrl-C) whatever was at the
target stays as it was. :func:`check_outputs` checks all of a script's outputs before its long
work: each writable, none an input, no two the same file. Symbolic links are followed: an output
that is an input by another name is refused with :class:`SameFileError`.
"""

from __future__ import annotations

from congo._files import SameFileError, atomic_output, check_not_an_input, check_outputs, check_writable

__all__ = ["SameFileError", "atomic_output", "check_not_an_input", "check_outputs", "check_writable"]
