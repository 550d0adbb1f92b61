"""Community videos opened in the page: an Arbiter (.avf), Viennasweeper (.rmv) or
Metasweeper (.evf) file sent by the browser, played back like a replay.

``POST /api/videos/frames?format=avf`` takes the file's bytes as they are (at most
`MAX_VIDEO_BYTES`, refused as they stream in). They are read as the terminal reads a video
(`minesweeper.play.videos`: ms-toollib in a child process, here given `READ_SECONDS`), in a
worker thread holding one of `READERS` slots (503 when none frees within `WAIT_SECONDS`),
never in the event loop. No sign-in: the file is read, answered and forgotten.
"""

# No `from __future__ import annotations`: FastAPI reads the route's annotations.
import tempfile
import threading
from pathlib import Path
from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Query, Request

from minesweeper.ladder.errors import BadRequest, LadderError
from minesweeper.play.replay import Replay, ReplayError
from minesweeper.play.videos import FORMATS, Video, open_video
from minesweeper.web.boards import MAX_DRAWN_CELLS
from minesweeper.web.playback import frames

#: The largest video taken: an expert game's is some tens of kilobytes.
MAX_VIDEO_BYTES = 1024 * 1024
#: The ``format`` a request names: a suffix ms-toollib reads, without its dot.
FORMAT = "^(" + "|".join(suffix.lstrip(".") for suffix in FORMATS) + ")$"
#: How long ms-toollib may take over one video (a real one takes well under a second).
READ_SECONDS = 10.0
#: Videos read at once per process, and how long a request waits for a free slot.
READERS = threading.BoundedSemaphore(2)
WAIT_SECONDS = 2.0


class Busy(LadderError):
    """Every slot for reading videos stayed taken: try again in a moment."""

    status = 503
    code = "busy"


def video_playback(data: bytes, suffix: str) -> dict[str, Any]:
    """The video in ``data`` (a ``suffix`` file) as the page plays it back; `BadRequest`
    naming the problem when it is not one. Runs in a worker thread, in a slot."""
    if not READERS.acquire(timeout=WAIT_SECONDS):
        raise Busy("the server is reading other videos: try again in a moment")
    try:
        replay, video = _read(data, suffix)
    finally:
        READERS.release()
    if replay.board.topology.size > MAX_DRAWN_CELLS:
        raise BadRequest(f"the page plays boards of at most {MAX_DRAWN_CELLS:,} cells")
    return {
        "geometry": replay.board.topology.geometry().as_json(),
        "player": replay.player,
        "date": replay.date,
        "result": replay.as_json()["result"],
        "stats": replay.stats().as_json(),
        "frames": frames(replay),
        "video": {
            "software": video.software or FORMATS[suffix],
            "figures": video.figures.summary(video.software or FORMATS[suffix]),
        },
    }


def _read(data: bytes, suffix: str) -> tuple[Replay, Video]:
    """``data`` written to a private temporary file and read as a video; its errors say
    "the video", never the temporary path."""
    with tempfile.TemporaryDirectory(prefix="minesweeper-upload-") as folder:
        path = Path(folder) / f"upload{suffix}"
        path.write_bytes(data)
        try:
            return open_video(path, READ_SECONDS)
        except ReplayError as error:
            message = str(error).replace(f"{path}: ", "").replace(str(path), "the video")
            raise BadRequest(f"not a video ms-toollib can read: {message}") from None


def router() -> APIRouter:
    """``POST /api/videos/frames``."""
    routes = APIRouter()

    @routes.post("/api/videos/frames", tags=["page"], max_body_size=MAX_VIDEO_BYTES)
    async def video_frames(
        request: Request,
        format: Annotated[str, Query(pattern=FORMAT, description="avf, rmv or evf")],
    ) -> dict[str, Any]:
        """A community video (the file's bytes, at most 1 MiB) as frames for playback,
        with the board's geometry and the video's own figures."""
        data = await request.body()
        if not data:
            raise BadRequest("no video: send the file's bytes")
        return await anyio.to_thread.run_sync(lambda: video_playback(data, f".{format}"))

    return routes
