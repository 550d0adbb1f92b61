"""The judge's end of the client protocol: one advanced case played by a foreign client.

Every way a client can misbehave ends its game with a result text that names
what happened (see `ClientRun.problem`); the judge itself never raises on
anything the client does.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from minesweeper.boards.cases import AdvancedCase
from minesweeper.client import MAX_MOVES
from minesweeper.errors import InputError, MachineError, TopologyError
from minesweeper.game import Game, State
from minesweeper.judge.escape import printable
from minesweeper.judge.process import Child, ChildProblem, Limits, describe_exit, judge_error
from minesweeper.judge.protocol import format_header
from minesweeper.judge.sandbox import Sandbox
from minesweeper.protocol import MapText, format_move, format_result, parse_integers

#: How many characters of a bad line a result quotes.
QUOTED = 40
#: What the judge keeps queued for a client that does not read (its pipe holds 64 KiB
#: more): this many maps, or `UNREAD_BYTES` when that is more. A client that moves on
#: without reading is stopped there, so the judge holds at most that per case.
UNREAD_MAPS = 4
UNREAD_BYTES = 1024 * 1024


@dataclass(frozen=True)
class ClientRun:
    """How a foreign client played one case.

    ``problem`` is empty when the client kept to the protocol (a lost game or
    the move limit is a result, not a problem; so is a judge error, the machine's
    failure); ``cpu_seconds`` and ``wall_seconds`` are the program's own, from its
    start to its end (`process.Exit`).
    """

    name: str
    game: Game
    moves: int = 0
    problem: str = ""
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    stderr: str = ""

    @property
    def won(self) -> bool:
        return self.game.state is State.WON


class _Trace:
    """Writes the conversation, each line marked with who wrote it."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def write(self, who: str, text: str) -> None:
        """``text`` line by line, control characters escaped (a program's bytes are not
        the terminal's business)."""
        if self.stream is not None:
            lines = text.split("\n")
            if lines[-1] == "":
                lines.pop()
            self.stream.write("".join(f"{who}: {printable(line)}\n" for line in lines))
            self.stream.flush()


def quote(data: bytes) -> str:
    """``data`` in double quotes, escaped, cut after `QUOTED` characters."""
    text = printable(data[:QUOTED].decode("ascii", "backslashreplace")).replace('"', '\\"')
    return f'"{text}"' + ("..." if len(data) > QUOTED else "")


def play_client(
    case: AdvancedCase,
    command: Sequence[str],
    limits: Limits,
    trace: TextIO | None = None,
    max_moves: int = MAX_MOVES,
    sandbox: Sandbox | None = None,
) -> ClientRun:
    """Play ``case`` with a fresh process of ``command`` (in ``sandbox``, unless None):
    the first click, then its moves. ``{first}`` in the command's words is replaced by
    the first click as a move line (``r c``)."""
    first = format_move(case.board.topology, case.first)
    command = [word.replace("{first}", first) for word in command]
    game = Game(case.board)
    text = MapText(game)
    log = _Trace(trace)
    header = format_header(case.board.topology)
    text.after_visit(game.visit(case.first))
    try:
        child = Child(command, limits, sandbox)
    except MachineError as error:
        return ClientRun(case.name, game, problem=judge_error(error))
    except OSError as error:
        reason = error.strerror or str(error)
        return ClientRun(case.name, game, problem=f"cannot run {command[0]!r}: {reason}")
    with child:
        moves, problem = _converse(child, game, text, header, log, max_moves)
        ended = child.close()
    stderr = child.stderr_tail.decode(errors="replace")
    if stderr:
        log.write("stderr", stderr)
    return ClientRun(
        case.name,
        game,
        moves,
        problem,
        ended.cpu_seconds,
        ended.wall_seconds,
        stderr,
    )


def _converse(
    child: Child, game: Game, text: MapText, header: str, log: _Trace, max_moves: int
) -> tuple[int, str]:
    """The conversation: the client's move count, and what went wrong ("" if nothing)."""
    limits = child.limits
    topology = game.board.topology
    opening = header + str(text) + (format_result(game) if game.over else "")
    child.send(opening.encode())
    log.write("judge", opening)
    moves = line_no = 0
    try:
        while not game.over and game.step_count < max_moves:
            deadline = time.monotonic() + limits.move_seconds
            what = f"time limit (move {moves + 1})"
            if child.game_deadline < deadline:
                deadline, what = (
                    child.game_deadline,
                    f"time limit (game, {limits.game_seconds:g} s)",
                )
            line = child.read_line(deadline, what)
            if line is None:
                return moves, _stopped(child, moves)
            line_no += 1
            log.write("client", line.decode("ascii", "backslashreplace"))
            if not line.strip():
                continue
            try:
                move = parse_integers(line_no, line.decode("ascii"), topology.move_arity, "a move")
            except (UnicodeDecodeError, InputError):
                return moves, f"bad output line {line_no}: {quote(line)}"
            try:
                cell = topology.cell_from_move(move)
            except TopologyError:
                return moves, f"move off the board at line {line_no}: {quote(line)}"
            moves += 1
            text.after_visit(game.visit(cell))
            reply = (str(text) + (format_result(game) if game.over else "")).encode()
            child.send(reply, backlog=max(UNREAD_MAPS * len(reply), UNREAD_BYTES))
            log.write("judge", reply.decode())
        child.close_input(time.monotonic() + limits.move_seconds, "time limit (after the game)")
        return moves, _after_the_game(child)
    except ChildProblem as problem:
        return moves, str(problem)


def _stopped(child: Child, moves: int) -> str:
    """The client closed its output before the game was decided: did it crash, or just stop?"""
    limits = child.limits
    code = child.wait_exit(time.monotonic() + limits.move_seconds)
    if code == 0 or code is None:
        return f"stopped early after {moves} move(s)"
    return describe_exit(code, limits, bytes(child.stderr_tail))


def _after_the_game(child: Child) -> str:
    """Once the judge closed the pipe the client must exit (within a move's time), with 0."""
    limits = child.limits
    code = child.wait_exit(time.monotonic() + limits.move_seconds)
    if code == 0:
        return ""
    return describe_exit(code, limits, bytes(child.stderr_tail)) + " after the game"
