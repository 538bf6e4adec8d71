"""``python -m congo``: the command line of :mod:`congo.cli`."""

import sys

from congo.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
