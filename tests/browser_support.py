"""Where the browser tests find Chromium (Debian's, driven by Playwright), and why they cannot run."""

from __future__ import annotations

import os
import shutil

CHROMIUM = os.environ.get("CONGO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
"""The Chromium the browser tests drive: ``$CONGO_CHROMIUM``, else ``chromium`` on the PATH."""


def missing_browser() -> str | None:
    """Why the browser tests cannot run here (Playwright or Chromium missing), or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[browser]')"
    if not os.path.exists(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None
