"""Writing an example's output whole or not at all, never through a symbolic link: the text goes to
a new temporary file beside the target (created exclusively, then given the permissions a plain
``open`` would give it) and is renamed over the target when complete. Shared by the examples that
write a file (``random_game.py``, ``render_svg.py``); not an example itself."""

from __future__ import annotations

import os
import tempfile


def save(path: str, text: str) -> None:
    """Writes ``text`` (UTF-8) to ``path`` whole or not at all."""
    directory = os.path.dirname(os.path.abspath(path))
    descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=".", suffix=".partial")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes it 0600; a plain open would not
        with os.fdopen(descriptor, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
