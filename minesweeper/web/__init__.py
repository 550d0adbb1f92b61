"""The game in a web browser: the page, its files, and the few endpoints only drawing needs.

The ladder service (`minesweeper.ladder`) serves everything a game needs (accounts, games,
moves, ladders, replays); `mount` adds the page to it, so one process serves both
(`minesweeper ladder serve` calls it):

- ``GET /`` the page, ``GET /static/...`` its scripts and styles (package data: plain
  JavaScript modules, no build step, nothing fetched from elsewhere);
- ``POST /api/geometry``: a board's shapes for a topology as the ladder shows it;
- ``POST /api/replay/frames``: a replay as the page plays it back, frame by frame.

Guests (practice without an account) and the practice aids are the ladder's own.
"""

from minesweeper.web.routes import mount, router

__all__ = ["mount", "router"]
