"""Community videos: Arbiter (.avf), Viennasweeper (.rmv) and Metasweeper (.evf) games as replays.

The files are read by ms-toollib, the field's own parser (the ``videos`` extra:
``pip install 'minesweeper[videos]'``). Its Rust core aborts the whole process
on some inputs instead of raising, so it runs in a child Python process that
hands back plain data (the board, the player, every mouse event); a crash there
is one line of error here.

The clicks are not worked out again from the mouse here: ms-toollib runs the
clones' own mouse state machine over the events (a left release opens, a right
press flags, both buttons or the middle one chord, with each program's quirks)
and keeps the board as shown before and after every event. Each event that
changed the board becomes our click: a flag put or taken away, an open of the
cell under the cursor when it was one of those opened, else a chord there. Our
`GameSession` plays that click and must open exactly the cells ms-toollib
opened, or the video is refused. The result is an ordinary `Replay`: it plays
in the terminal, sums up its statistics and can be analysed like our own.

Writing videos is left out on purpose: ms-toollib's writer (`BaseVideo.step`)
stamps every event with its own clock (``Instant::now()``) and has no way to
be given a time, so a video of ours would carry the time of the export, not
of the game.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from minesweeper.board import Board
from minesweeper.errors import MinesweeperError
from minesweeper.play.replay import Replay, ReplayError
from minesweeper.play.session import GameSession, Settings
from minesweeper.topology.square import SquareTopology
from minesweeper.variant import Rules, Variant

#: The video formats ms-toollib reads, by suffix, with the program that writes each.
FORMATS = {".avf": "Arbiter", ".rmv": "Viennasweeper", ".evf": "Metasweeper"}
#: How long the child reading a video may take.
READ_SECONDS = 60
#: The child that reads a video; it finds this package wherever the parent found it.
CHILD = (
    f"import sys; sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r}); "
    "from minesweeper.play.videos import _main; _main()"
)


class VideoError(ReplayError):
    """A video that cannot be read, or whose events make no game."""


def is_video(path: Path) -> bool:
    return path.suffix.lower() in FORMATS


#: ms-toollib's shown cells: 0-8 an opened count, 10 closed, 11 a flag, 12 a question
#: mark, 14 a wrong flag and 15 the exploded mine (both shown once the game is lost).
CLOSED, FLAG, QUESTION, EXPLODED = 10, 11, 12, 15


@dataclass(frozen=True)
class Change:
    """One event that changed the shown board: when, the cell under the cursor
    (None when off the board) and every cell that changed ``(row, col, before, after)``."""

    seconds: float
    at: tuple[int, int] | None
    cells: tuple[tuple[int, int, int, int], ...]


@dataclass(frozen=True)
class Figures:
    """A video's figures by ms-toollib: ``left``, ``right`` and ``double`` (chording)
    clicks, ``effective`` ones, 3BV, whether the board was cleared, and the time."""

    bbbv: int
    completed: bool
    seconds: float
    left: int
    right: int
    double: int
    effective: int

    @property
    def clicks(self) -> int:
        return self.left + self.right + self.double

    def summary(self, software: str) -> str:
        """One line, e.g. ``as Arbiter counts them (ms-toollib): 42 clicks ...``."""
        rate = self.bbbv / self.seconds if self.completed and self.seconds else 0.0
        ioe = self.bbbv / self.clicks if self.completed and self.clicks else 0.0
        return (
            f"as {software or 'its program'} counts them (ms-toollib): {self.clicks} clicks "
            f"({self.left} left, {self.right} right, {self.double} double), "
            f"{self.effective} effective, IOE {ioe:.3f}, 3BV/s {rate:.3f}, {self.seconds:.3f} s"
        )


@dataclass(frozen=True)
class Video:
    """What a video holds, as plain data: the board (rows of -1 for a mine, else its
    count), the events that changed what was shown, who played where, and
    ms-toollib's own figures of the game, counted as the video's program counts
    them (every click, also one that changed nothing)."""

    board: list[list[int]]
    changes: list[Change]
    player: str
    software: str
    start: int
    figures: Figures


def extract(path: Path, seconds: float = READ_SECONDS) -> Video:
    """The video in ``path``, read by ms-toollib in a child process given ``seconds`` at
    most; `VideoError` if not."""
    # In a folder of its own: ms-toollib drops a crash.log into the working folder when it panics.
    try:
        with tempfile.TemporaryDirectory(prefix="minesweeper-video-") as folder:
            done = subprocess.run(
                [sys.executable, "-c", CHILD, str(path.resolve())],
                capture_output=True,
                timeout=seconds,
                check=False,
                cwd=folder,
            )
    except subprocess.TimeoutExpired:
        raise VideoError(f"{path}: reading took over {seconds:g} s") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise VideoError(f"{path}: {lines[-1] if lines else 'ms-toollib could not read it'}")
    data = json.loads(done.stdout)
    changes = [
        Change(seconds, tuple(at) if at else None, tuple(tuple(cell) for cell in cells))
        for seconds, at, cells in data["changes"]
    ]
    return Video(
        data["board"],
        changes,
        data["player"],
        data["software"],
        data["start"],
        Figures(**data["figures"]),
    )


def _main() -> None:
    """The child: parse ``sys.argv[1]`` with ms-toollib and print its data as JSON."""
    path = Path(sys.argv[1])
    try:
        import ms_toollib
    except ImportError:
        sys.exit("reading videos needs ms-toollib: pip install 'minesweeper[videos]'")
    kinds = {".avf": "AvfVideo", ".rmv": "RmvVideo", ".evf": "EvfVideo"}
    kind = kinds.get(path.suffix.lower())
    if kind is None:
        sys.exit(f"not a video ({', '.join(FORMATS)})")
    if not path.is_file():
        sys.exit("no such file")
    video = getattr(ms_toollib, kind)(str(path))
    try:
        video.parse()
        video.analyse()
    except BaseException as error:
        sys.exit(f"not a valid {path.suffix} video ({error})")
    rows, cols, pixels = len(video.board), len(video.board[0]), video.pix_size
    changes = []
    for recorded in video.events:
        event = recorded.event
        if not event.is_mouse() or event.unwrap_mouse().mouse == "mv":
            continue  # a move never changes the board
        before = recorded.prior_game_board.game_board
        after = recorded.next_game_board.game_board
        cells = [
            (r, c, before[r][c], after[r][c])
            for r in range(rows)
            for c in range(cols)
            if before[r][c] != after[r][c]
        ]
        if cells:
            mouse = event.unwrap_mouse()
            row, col = mouse.y // pixels, mouse.x // pixels
            at = (row, col) if row < rows and col < cols else None
            changes.append((recorded.time, at, cells))
    json.dump(
        {
            "board": video.board,
            "changes": changes,
            "player": str(video.player_identifier),
            "software": str(video.software),
            "start": int(video.start_time),
            "figures": _figures(video),
        },
        sys.stdout,
    )


def _figures(video: Any) -> dict[str, Any]:
    video.current_time = video.rtime + 1  # its counts as of the time set (past the end: all)
    return {
        "bbbv": int(video.bbbv),
        "completed": bool(video.is_completed),
        "seconds": float(video.rtime),
        "left": int(video.left),
        "right": int(video.right),
        "double": int(video.double),
        "effective": int(video.ce),
    }


def read_video(path: Path) -> Replay:
    """The game in the video at ``path`` as a `Replay`."""
    return open_video(path)[0]


def open_video(path: Path, seconds: float = READ_SECONDS) -> tuple[Replay, Video]:
    """The game in the video at ``path`` as a `Replay`, and the video's own data (read in
    ``seconds`` at most)."""
    video = extract(path, seconds)
    try:
        return to_replay(video), video
    except MinesweeperError as error:
        raise VideoError(f"{path}: {error}") from None


def to_replay(video: Video) -> Replay:
    """Our clicks for ``video``'s changes of the board, played on its board."""
    rows = len(video.board)
    cols = len(video.board[0]) if rows else 0
    if not rows or not cols or any(len(row) != cols for row in video.board):
        raise VideoError("the video's board is not a rectangle")
    topology = SquareTopology(rows, cols)
    mines = [
        topology.cell_at(r, c) for r in range(rows) for c in range(cols) if video.board[r][c] < 0
    ]
    board = Board(topology, mines)
    clock = _Clock()
    # The clones' first click is only safe: the classic rules, the mine count told.
    settings = Settings(Variant(SquareTopology, rows, cols, len(mines), Rules.CLASSIC))
    session = GameSession(settings, clock=clock, board=board)
    for change in video.changes:
        if session.over:
            break
        clock.now = change.seconds
        _play(session, topology, change)
    date = None
    if video.start > 10**15:  # microseconds since 1970 (Metasweeper, Arbiter 0.52+)
        date = datetime.fromtimestamp(video.start / 1e6, UTC)
    player = video.player or None
    return Replay.of(session, player=player, date=date) if date else _undated(session, player)


def _play(session: GameSession, topology: SquareTopology, change: Change) -> None:
    """Play on ``session`` the click that made ``change``; `VideoError` if ours differs.

    Two of our rules differ from the clones' and are allowed for: a flood opens a
    wrongly flagged cell it reaches (the clones leave it closed, so the player's
    later open of it is already done here), and a chord onto a mine ends the game
    without opening its other cells.
    """
    opened: set[int] = set()
    for row, col, before, after in change.cells:
        cell = topology.cell_at(row, col)
        if before in (CLOSED, QUESTION) and (0 <= after <= 8 or after == EXPLODED):
            opened.add(cell)
        elif after in (CLOSED, FLAG, QUESTION) and (after == FLAG) != (cell in session.flags):
            session.toggle_flag(cell)  # a flag put, or taken away (also into a question mark)
    fresh = {cell for cell in opened if not session.is_opened(cell)}
    if not fresh:
        return
    where = f"at {change.seconds:.3f} s"
    if change.at is None:
        raise VideoError(f"the click {where} opened cells from outside the board")
    cursor = topology.cell_at(*change.at)
    flagged = session.flags
    ours = set(session.open(cursor) if cursor in opened else session.chord(cursor))
    # A loss: the mines hit were opened in the video. Else: ours opened every cell the
    # video did, and beyond them only flagged cells.
    lost_alike = session.lost and ours <= opened
    if not lost_alike and not (fresh <= ours and ours - opened <= flagged):
        raise VideoError(
            f"the click {where} opened {_cells(len(opened))} in the video, "
            f"{_cells(len(ours))} by our rules"
        )


def _cells(count: int) -> str:
    return f"{count} cell" if count == 1 else f"{count} cells"


def _undated(session: GameSession, player: str | None) -> Replay:
    replay = Replay.of(session, player=player)
    return Replay(replay.category, replay.board, replay.actions, replay.assists, player, None)


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
