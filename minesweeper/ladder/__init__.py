"""The ranked ladder: a service where the server deals and judges every game.

Layers: `schema` (tables) and `migrations/` (Alembic), `database` (engines,
migrating at start-up), `locks` (limits that hold under concurrency), `cpu`
(slots for heavy work), `accounts` and `ratelimit`, `categories` (what may be
ranked), `api` (the bodies: pydantic models the services return), `views` (only
what a player sees), `live` (sessions kept in memory and caught up), `stored`
(a game as the database keeps it), `games` (dealing, moves stored before they
are answered), `ladders` (the rankings), `verify`, `service` (`Ladder`), and the
HTTP face: `depends` (a route's transaction and player), `endpoints` (the
routes), `app` (`create_app`). The rules themselves are
`minesweeper.play.session`'s.
"""
