"""The HTTP API's request and answer bodies: pydantic models, which the services return and
FastAPI describes (the OpenAPI description comes from them)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: Integers a client may send: within 32 bits, so no database or solver sees a huge one.
SmallInt = Field(ge=-(2**31), lt=2**31)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Credentials(Strict):
    name: str = Field(max_length=64, description="3 to 24 letters, digits, `_ . -`")
    password: str = Field(max_length=1024, description="8 to 256 characters")


class PlayerOut(BaseModel):
    name: str
    bot: bool
    guest: bool = Field(False, description="a guest plays practice games only")


class SignedIn(BaseModel):
    token: str = Field(description="Send it as `Authorization: Bearer TOKEN`")
    expires: str = Field(description="When the session ends (ISO 8601, UTC)")
    player: PlayerOut


class NewGame(Strict):
    mode: Literal["ranked", "daily", "weekly", "practice"] = "practice"
    preset: str = Field("beginner", max_length=32)
    rules: str = Field("modern", max_length=16, description="modern, classic (or acm: practice)")
    topology: str = Field("square", max_length=32, description="practice only")
    rows: int | None = Field(None, ge=1, le=1000, description="practice only")
    cols: int | None = Field(None, ge=1, le=1000, description="practice only")
    mines: int | None = Field(None, ge=0, le=1_000_000, description="practice only")
    no_guess: bool = Field(False, description="practice only")
    seed: int | None = Field(None, ge=0, lt=2**128, description="practice only: a replayable deal")


class MoveIn(Strict):
    kind: Literal["open", "flag", "chord"] = Field(
        description="open: left click; flag: right click (puts or lifts a flag); chord"
    )
    cell: int = SmallInt
    expect: int | None = Field(
        None,
        ge=0,
        lt=2**31,
        description="the number of moves the game has now; a move sent twice is then refused",
    )
    map: bool = Field(False, description="also answer the map as the judge protocol prints it")


class TopologyOut(BaseModel):
    name: str
    rows: int
    cols: int
    size: int
    layout: list[list[int]] | None = Field(description="the cell id at each printed position")
    neighbours: list[list[int]]
    coordinates: list[list[float]] | None


class SettingsOut(BaseModel):
    topology: str
    rows: int
    cols: int
    mines: int | None = Field(description="None when the rules do not tell it (acm)")
    rules: str
    no_guess: bool
    preset: str | None


class EndOut(BaseModel):
    won: bool
    mines: list[int]
    exploded: list[int]
    wrong_flags: list[int]
    points: int
    ms: int
    stats: dict[str, Any]
    replay: str
    hidden_until: str | None = Field(
        None,
        description="a daily or weekly board others are still playing: until then (ISO 8601, "
        "UTC) a "
        "lost game shows only the mine that went off, and its replay is refused",
    )


class GameOut(BaseModel):
    id: str
    mode: str
    category: str
    day: str | None
    player: str
    settings: SettingsOut
    topology: TopologyOut
    state: str
    started: bool
    ms: int = Field(description="server milliseconds since the first open")
    moves: int
    first_cell: int | None = Field(description="a daily or weekly board must be opened here first")
    assists: list[list[Any]]
    opened: list[list[int]] = Field(description="[cell, number] of every opened cell")
    flags: list[int]
    end: EndOut | None


class MoveOut(BaseModel):
    game: str
    number: int = Field(description="this move's number in the game (from 1)")
    kind: str = Field(description="what the move was stored as: open, flag, unflag or chord")
    cell: int
    opened: list[list[int]] = Field(description="[cell, number] of each cell newly opened")
    flagged: bool
    state: str
    ms: int
    end: EndOut | None
    map: str | None = None


class ComputerMove(BaseModel):
    kind: str
    cell: int


class ComputerOut(BaseModel):
    game: str
    moves: list[ComputerMove] = Field(description="the clicks the computer made, in order")
    opened: list[list[int]]
    state: str
    ms: int
    end: EndOut | None


class HintOut(BaseModel):
    cell: int | None = Field(description="the cell to open (None when nothing can be said)")
    safe: bool = Field(description="proved safe; else the safest cell")
    p: float | None = Field(description="its mine probability")


class OddsOut(BaseModel):
    odds: list[float | None] = Field(description="each cell's mine probability; None: opened")
    approximate: bool


class Resigned(BaseModel):
    game: str
    state: str


class GameSummary(BaseModel):
    id: str
    mode: str
    category: str
    day: str | None
    state: str
    started: str | None
    ms: int | None
    bbbv: int | None
    bbbv_per_second: float | None


class BestGameRow(BaseModel):
    """A player's best win on a time or 3BV/s ladder."""

    rank: int
    player: str
    ms: int | None
    bbbv: int | None
    bbbv_per_second: float | None
    clicks: int | None
    date: str
    game: str
    replay: str


class WinRateRow(BaseModel):
    """A player's wins over ranked games started, on a win-rate ladder."""

    rank: int
    player: str
    played: int
    won: int
    win_rate: float


class PendingRow(BaseModel):
    """A player short of a win-rate ladder's minimum of games, with their progress to it."""

    player: str
    played: int
    won: int


class LadderOut(BaseModel):
    category: str
    board: str
    period: str
    players: str
    mode: str
    day: str | None
    minimum_games: int | None
    minimum_bbbv: int | None = Field(
        None, description="the least 3BV of a win on a ranked time or 3BV/s ladder"
    )
    rows: list[BestGameRow | WinRateRow]
    pending: list[PendingRow] | None = Field(
        None,
        description="win-rate: the players short of minimum_games, with games played and won",
    )


class LaddersOut(BaseModel):
    categories: list[str] = Field(description="the ranked categories, as `Variant` writes them")
    boards: list[str]
    periods: list[str]
    win_rate_minimum: int


class PlayerCategory(BaseModel):
    """A player's lifetime figures in one category of one kind of game (and one way of
    playing): `minesweeper.play.history`'s `Figures.as_json`, the same arithmetic as
    ``minesweeper stats``."""

    category: str
    label: str = Field(description="the category for people")
    play: str = Field(description="person, assisted (practice with help), or computer (a bot)")
    games: int = Field(description="games started, the abandoned ones among them")
    wins: int
    abandoned: int = Field(description="started and left unfinished or resigned: not won")
    win_rate: float
    interval: list[float] = Field(description="the win rate's 95% Wilson interval")
    current_streak: int
    best_streak: int
    best_ms: int | None
    median_ms: float | None = Field(description="the median winning time")
    best_bbbv_per_second: float | None
    efficiency: float | None = Field(description="the median efficiency of the wins")


class PlayerGame(BaseModel):
    id: str
    mode: str
    category: str
    day: str | None = Field(None, description="a daily or weekly board's day or ISO week")
    state: str
    ms: int | None
    bbbv_per_second: float | None
    ended: str
    replay: str


class PlayerPage(BaseModel):
    name: str
    bot: bool
    joined: str
    categories: list[PlayerCategory] = Field(description="the ranked ones (kinds.ranked)")
    kinds: dict[str, list[PlayerCategory]] = Field(
        description="per kind of game (ranked, daily, weekly, practice) its categories' figures"
    )
    games: list[PlayerGame] = Field(
        description="the latest finished ranked, daily and weekly games"
    )


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorDetail
