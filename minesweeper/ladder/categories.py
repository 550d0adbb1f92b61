"""What a ladder game is: its mode, its settings, and the category it is ranked in.

Ranked games and the shared boards (daily, weekly) are the classic presets on squares
under the modern or classic rules, named as `minesweeper.variant.Variant` names them
(``expert``, ``expert/classic``); everything else a player may ask for (other sizes, topologies,
no-guess boards, the acm rules) is practice, playable but never ranked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from minesweeper.errors import MinesweeperError
from minesweeper.ladder.api import SettingsOut
from minesweeper.ladder.errors import BadRequest
from minesweeper.limits import MAX_SOLVED_CELLS
from minesweeper.play.records import Category
from minesweeper.play.session import Settings
from minesweeper.topology.registry import find_topology
from minesweeper.variant import LEVELS, Rules, Variant

MODES = ("ranked", "daily", "weekly", "practice")
#: Modes whose board is one per category and period, the same for every player.
SHARED_BOARDS = ("daily", "weekly")
RANKED_PRESETS = LEVELS
RANKED_RULES = (Rules.MODERN, Rules.CLASSIC)
#: The least 3BV of a ranked win that enters the time and 3BV/s ladders: the world
#: ranking's limits (Authoritative Minesweeper), so that a board solved in a click or two,
#: found by dealing thousands of games, ranks no one. Such a win still counts as a win.
MINIMUM_BBBV = {"beginner": 2, "intermediate": 30, "expert": 100}
#: The largest practice board: what the computer player and the hints can handle.
MAX_PRACTICE_CELLS = MAX_SOLVED_CELLS


def board_period(mode: str, now_ms: int) -> str:
    """The period of the shared board of ``mode`` at ``now_ms`` (UTC): its day
    (``2026-02-14``) for a daily board, its ISO week (``2026-W07``) for a weekly one."""
    now = datetime.fromtimestamp(now_ms / 1000, UTC).date()
    if mode == "weekly":
        year, week, _ = now.isocalendar()
        return f"{year}-W{week:02d}"
    return now.isoformat()


def period_end_ms(period: str) -> int:
    """When a shared board's period (a day ``2026-02-14`` or an ISO week ``2026-W07``) ends:
    the next midnight UTC after its last day."""
    if "-W" in period:
        year, week = period.split("-W")
        last = date.fromisocalendar(int(year), int(week), 7)
    else:
        last = date.fromisoformat(period)
    ends = datetime(last.year, last.month, last.day, tzinfo=UTC) + timedelta(days=1)
    return int(ends.timestamp() * 1000)


@dataclass(frozen=True)
class GameRequest:
    """What a player asks for when starting a game (the API's ``POST /api/games``)."""

    mode: str = "practice"
    preset: str = "beginner"
    rules: str = "modern"
    topology: str = "square"
    rows: int | None = None
    cols: int | None = None
    mines: int | None = None
    no_guess: bool = False


def ranked_variants() -> list[Variant]:
    """The games that are ranked: each preset under each ranked rule set, on squares."""
    return [
        Variant.preset(preset, rules=rules) for preset in RANKED_PRESETS for rules in RANKED_RULES
    ]


def ranked_categories() -> list[str]:
    """Every ranked category's name, as `Variant` writes it: ``expert``, ``expert/classic``..."""
    return [str(variant) for variant in ranked_variants()]


def parse_ranked(text: str) -> Variant:
    """The ranked variant ``text`` names (``expert``, ``expert/modern``, ``expert/classic``);
    `BadRequest` when it names none."""
    try:
        variant = Variant.parse(text)
    except MinesweeperError:
        variant = None
    if variant not in ranked_variants():
        known = ", ".join(ranked_categories())
        raise BadRequest(f"unknown ranked category {text!r} (known: {known})")
    assert variant is not None
    return variant


def settings_for(request: GameRequest) -> tuple[Settings, str]:
    """The settings of the game ``request`` asks for, and its category's name."""
    if request.mode not in MODES:
        raise BadRequest(f"unknown mode {request.mode!r} (known: {', '.join(MODES)})")
    try:
        rules = Rules(request.rules)
    except ValueError:
        known = ", ".join(rule.value for rule in Rules)
        raise BadRequest(f"unknown rules {request.rules!r} (known: {known})") from None
    if request.mode != "practice":
        custom = (request.rows, request.cols, request.mines) != (None, None, None)
        if request.topology != "square" or custom or request.no_guess:
            raise BadRequest(
                "ranked, daily and weekly games are the presets on squares: other sizes, "
                "topologies and no-guess boards are practice"
            )
        variant = parse_ranked(f"{request.preset}/{rules.value}")
        return Settings(variant), str(variant)
    try:
        game = Variant.sized(
            request.preset, request.rows, request.cols, find_topology(request.topology), rules
        )
        if request.mines is not None:
            game = game.replace(mines=request.mines)
        settings = Settings(game, no_guess=request.no_guess)
        cells = game.cells  # counted, not drawn: a large random tiling takes seconds to draw
    except MinesweeperError as error:
        raise BadRequest(str(error)) from None
    if cells > MAX_PRACTICE_CELLS:
        raise BadRequest(f"practice boards have at most {MAX_PRACTICE_CELLS:,} cells")
    return settings, practice_category(settings)


def practice_category(settings: Settings) -> str:
    """A practice game's category name: ``practice`` and the variant, e.g.
    ``practice hex beginner``, ``practice 5x5/3 acm no-guess``."""
    name = f"practice {settings.variant}"
    return name + " no-guess" if settings.no_guess else name


def settings_json(settings: Settings) -> str:
    """The settings as a game row stores them: its records category's fields, the count
    told or not, and the prover."""
    fields = settings.category().as_json()
    fields.update(count_told=settings.variant.count_told, prover=settings.prover)
    return json.dumps(fields, sort_keys=True)


def settings_from_json(text: str) -> Settings:
    fields: dict[str, Any] = json.loads(text)
    prover = fields.pop("prover")
    return Settings.of_category(Category.from_json(fields)).replace(prover=prover)


def settings_view(settings: Settings) -> SettingsOut:
    """The settings as the API shows them (the rules by name)."""
    game = settings.variant
    return SettingsOut(
        topology=game.name,
        rows=game.rows,
        cols=game.cols,
        mines=game.mines if game.count_told else None,
        rules=game.rules.value,
        no_guess=settings.no_guess,
        preset=settings.preset_name,
    )
