"""How the project drives a browser: the system's Chromium, headless, never a downloaded one.

The browser game's tests and its benchmark launch Chromium through Playwright with
``executable_path`` (Debian's ``/usr/bin/chromium``; ``$MINESWEEPER_CHROMIUM`` names
another) and these switches, so nothing is fetched and no profile work slows it down.
"""

from __future__ import annotations

import os

#: The Chromium binary to drive.
CHROMIUM = os.environ.get("MINESWEEPER_CHROMIUM", "/usr/bin/chromium")
#: Headless, no sandbox (CI runs as root), and none of the browser's own network traffic.
ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
