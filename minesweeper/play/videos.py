"""Community videos: Arbiter (.avf), Viennasweeper (.rmv) and Metasweeper (.evf) games as replays.

The files are read by ms-toollib, the field's own parser (the ``videos`` extra:
``pip install 'minesweeper[videos]'``). Its Rust core aborts the whole process
on some inputs instead of raising, so it runs in a child Python process that
hands back plain data (the board, the player, every mouse event); a crash there
is one line of error here.

The mouse events become our clicks by replaying them on a `GameSession` of the
video's board, as the clones count them: a left release opens (on an opened
number: nothing), a right press flags or unflags, a release while the other
button is down, or a middle release, chords. Events after the game ended are
left out. The result is an ordinary `Replay`: it plays in the terminal, sums
up its statistics and can be analysed like our own.

Writing videos is left out on purpose: ms-toollib's writer stamps every event
with its own wall clock, so a video of ours would carry the time of the export,
not of the game.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

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


class VideoError(ReplayError):
    """A video that cannot be read, or whose events make no game."""


def is_video(path: Path) -> bool:
    return path.suffix.lower() in FORMATS


@dataclass(frozen=True)
class Video:
    """What a video holds, as plain data: the board (rows of -1 for a mine, else its
    count), the events ``(seconds, kind, x, y)`` in pixels, and who played where."""

    board: list[list[int]]
    events: list[tuple[float, str, int, int]]
    player: str
    software: str
    start: int
    pixels: int = 16


def extract(path: Path) -> Video:
    """The video in ``path``, read by ms-toollib in a child process; `VideoError` if not."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from minesweeper.play.videos import _main; _main()", str(path)],
            capture_output=True,
            timeout=READ_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise VideoError(f"{path}: reading took over {READ_SECONDS} s") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise VideoError(f"{path}: {lines[-1] if lines else 'ms-toollib could not read it'}")
    data = json.loads(done.stdout)
    return Video(
        data["board"],
        [tuple(event) for event in data["events"]],
        data["player"],
        data["software"],
        data["start"],
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
    events = []
    for recorded in video.events:
        event = recorded.event
        if event.is_mouse():
            mouse = event.unwrap_mouse()
            events.append((recorded.time, mouse.mouse, mouse.x, mouse.y))
    json.dump(
        {
            "board": video.board,
            "events": events,
            "player": str(video.player_identifier),
            "software": str(video.software),
            "start": int(video.start_time),
        },
        sys.stdout,
    )


def read_video(path: Path) -> Replay:
    """The game in the video at ``path`` as a `Replay`."""
    video = extract(path)
    try:
        return to_replay(video)
    except MinesweeperError as error:
        raise VideoError(f"{path}: {error}") from None


def to_replay(video: Video) -> Replay:
    """Play ``video``'s mouse events on its board; the clicks that made the game."""
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
    held: set[str] = set()
    for seconds, kind, x, y in video.events:
        if session.over:
            break
        clock.now = seconds
        row, col = y // video.pixels, x // video.pixels
        on_board = 0 <= row < rows and 0 <= col < cols
        cell = topology.cell_at(row, col) if on_board else None
        if kind in ("lc", "rc", "mc"):
            held.add(kind[0])
            if kind == "rc" and "l" not in held and cell is not None:
                session.toggle_flag(cell)
            continue
        if kind not in ("lr", "rr", "mr"):
            continue  # a move, or something this reading does not need
        button = kind[0]
        other = "r" if button == "l" else "l"
        both = other in held
        held.discard(button)
        if cell is None:
            continue
        if button == "m" or (both and button in "lr"):
            held.discard(other)  # the chord uses both buttons up
            session.chord(cell)
        elif button == "l" and not session.is_opened(cell):
            session.open(cell)
    date = None
    if video.start > 10**15:  # microseconds since 1970 (Metasweeper, Arbiter 0.52+)
        date = datetime.fromtimestamp(video.start / 1e6, UTC)
    player = video.player or None
    return Replay.of(session, player=player, date=date) if date else _undated(session, player)


def _undated(session: GameSession, player: str | None) -> Replay:
    replay = Replay.of(session, player=player)
    return Replay(replay.category, replay.board, replay.actions, replay.assists, player, None)


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
