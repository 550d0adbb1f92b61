"""Community videos opened in the page: an Arbiter (.avf), Viennasweeper (.rmv) or
Metasweeper (.evf) file sent by the browser, played back like a replay.

``POST /api/videos/frames?format=avf`` takes the file's bytes as they are (at most
`MAX_VIDEO_BYTES`, refused by FastAPI as they stream in). They are read as the terminal
reads a video (`minesweeper.play.videos`: ms-toollib in a child process, here given
`READ_SECONDS`) in a worker thread holding one of the ladder's slots for public heavy
work (`Ladder.public`: 503 when none frees soon), never in the event loop, and played back
as a replay is (`minesweeper.web.playback`: boards the page draws, clicks a game may have).
No sign-in: the file is read, answered and forgotten.
"""

# No `from __future__ import annotations`: FastAPI reads the route's annotations.
import tempfile
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from minesweeper.ladder.depends import Address, Service
from minesweeper.ladder.errors import BadRequest
from minesweeper.play.replay import Replay, ReplayError
from minesweeper.play.videos import FORMATS, Video, open_video
from minesweeper.web.playback import check_drawable, replay_playback

#: The largest video taken: an expert game's is some tens of kilobytes.
MAX_VIDEO_BYTES = 1024 * 1024
#: The ``format`` a request names: a suffix ms-toollib reads, without its dot.
FORMAT = "^(" + "|".join(suffix.lstrip(".") for suffix in FORMATS) + ")$"
#: How long ms-toollib may take over one video (a real one takes well under a second).
READ_SECONDS = 10.0


def video_playback(data: bytes, suffix: str) -> dict[str, Any]:
    """The video in ``data`` (a ``suffix`` file) as the page plays it back, with the video's
    own figures; `BadRequest` naming the problem when it is not one the page plays."""
    replay, video = _read(data, suffix)
    try:
        check_drawable(replay.board.topology.size, len(replay.actions))
    except ReplayError as error:
        raise BadRequest(str(error)) from None
    software = video.software or FORMATS[suffix]
    return {
        **replay_playback(replay),
        "video": {"software": software, "figures": video.figures.summary(software)},
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
        service: Service,
        address: Address,
        format: Annotated[str, Query(pattern=FORMAT, description="avf, rmv or evf")],
    ) -> dict[str, Any]:
        """A community video (the file's bytes, at most 1 MiB) as frames for playback,
        with the board's geometry and the video's own figures."""
        data = await request.body()
        if not data:
            raise BadRequest("no video: send the file's bytes")
        return await service.public.run(
            lambda: video_playback(data, f".{format}"), "videos", address
        )

    return routes
