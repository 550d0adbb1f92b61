"""What the ladder tells a client about a game: only what its player can see.

Every function here reads a `GameSession` through the same calls the terminal
game draws with (`cell_state`, `opened`, `flags`), so a view never holds more than
the screen would; mines appear only in `end_view`, once the game is over.
"""

from __future__ import annotations

from datetime import UTC, datetime

from minesweeper.ladder.api import EndOut, TopologyOut
from minesweeper.play.session import CellState, GameSession
from minesweeper.protocol import EXPLODED, MINE_AT_WIN, UNKNOWN, format_count
from minesweeper.topology.base import Topology


def iso_ms(ms: int | None) -> str | None:
    """A time kept as milliseconds since the epoch, as the API writes times (ISO 8601, UTC)."""
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")


def topology_view(topology: Topology) -> TopologyOut:
    """The board's cells as a graph: neighbours of every cell id, and how it is printed.

    ``layout`` gives the cell id shown at each printed position (rows of ids; several
    positions show one piece of a tiling); a graph has none, but may have node
    ``coordinates``.
    """
    rows, cols = topology.shape
    graph = topology.text_format == "graph"
    coordinates = getattr(topology, "coordinates", None)
    return TopologyOut(
        name=topology.name,
        rows=rows,
        cols=cols,
        size=topology.size,
        layout=None
        if graph
        else [[topology.cell_at(row, col) for col in range(cols)] for row in range(rows)],
        neighbours=[list(topology.neighbours(cell)) for cell in topology.cells()],
        coordinates=None if coordinates is None else [list(point) for point in coordinates],
    )


def opened_pairs(session: GameSession, cells: list[int]) -> list[list[int]]:
    """``[cell, count]`` for each of ``cells`` that is opened (in the order given)."""
    pairs = []
    for cell in cells:
        count = session.count(cell)
        if count is not None:
            pairs.append([cell, count])
    return pairs


def visible(session: GameSession) -> tuple[list[list[int]], list[int]]:
    """What the player sees: opened cells with their numbers, and their flags."""
    opened = [[cell, count] for cell, count in sorted(session.opened().items())]
    return opened, sorted(session.flags)


def end_view(session: GameSession, replay: str, hidden_until: str | None = None) -> EndOut | None:
    """The whole board once the game is over (None before): mines, the ones that went off,
    wrong flags, points, statistics and where its ``replay`` is.

    Until ``hidden_until`` (a board others are still playing) it shows only what the
    player knows: a lost game the mine that went off and no wrong flags (a flag not
    called wrong would be a mine found), a won game every mine (all the closed cells).
    """
    if not session.over:
        return None
    board = session.board
    assert board is not None
    flags = session.flags
    shown = hidden_until is None or session.won
    return EndOut(
        won=session.won,
        mines=sorted(board.mines if shown else session.exploded),
        exploded=sorted(session.exploded),
        wrong_flags=sorted(cell for cell in flags if shown and not board.is_mine(cell)),
        points=session.points,
        ms=session.ms,
        stats=session.stats().as_json(),
        replay=replay,
        hidden_until=hidden_until,
    )


def map_text(session: GameSession) -> str:
    """The map as the judge protocol prints it: ``?`` closed (flags too), counts, ``X`` a mine
    that went off, ``@`` every mine of a won game (the Execute/ReadMap client reads this)."""
    topology = session.topology
    rows, cols = topology.shape
    chars = []
    for cell in topology.cells():
        state = session.cell_state(cell)
        if state is CellState.OPENED:
            count = session.count(cell)
            assert count is not None
            chars.append(format_count(count))
        elif state is CellState.EXPLODED:
            chars.append(EXPLODED)
        elif session.won and state in (CellState.MINE, CellState.FLAGGED):
            chars.append(MINE_AT_WIN)
        else:
            chars.append(UNKNOWN)
    lines = ["".join(chars[topology.cell_at(r, c)] for c in range(cols)) for r in range(rows)]
    return "".join(line + "\n" for line in lines)
