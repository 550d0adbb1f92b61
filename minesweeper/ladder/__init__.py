"""The ranked ladder: a service where the server deals and judges every game.

Layers: `schema` (tables) and `migrations/` (Alembic), `database` (engines,
migrating at start-up), `accounts` and `ratelimit`, `categories` (what may be
ranked), `games` (dealing, moves stored before they are answered, rebuilding
sessions), `views` (only what a player sees), `ladders` (the rankings),
`verify`, `service` (`Ladder`), and the HTTP face `app` (`create_app`) with its
bodies in `api`. The rules themselves are `minesweeper.play.session`'s.
"""
