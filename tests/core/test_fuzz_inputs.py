"""Fuzzing every parser: mutated inputs give status 0 or 2, at most one stderr line, no traceback.

Inputs start from valid text (boards and moves on every topology, positions,
advanced cases, a signed records file) and are mutated byte by byte with
hypothesis: flips, insertions of awkward bytes (not UTF-8, NUL, non-ASCII digits,
long numbers), deletions, truncations. The JSON readers (records, replays, per-game
logs) also get JSON tokens replaced by lone surrogates, numbers past every limit and
deep nesting (`AWKWARD_JSON`). Commands run in-process through click's
CliRunner. ``FUZZ_EXAMPLES`` sets the examples per test (CI runs a few dozen);
``python scripts/fuzz_inputs.py`` runs many more and counts them.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import tempfile
from collections import Counter
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesweeper.board import Board
from minesweeper.boards.cases import format_case
from minesweeper.boards.generate import random_board
from minesweeper.boards.position import KNOWN_MINE
from minesweeper.cli import main
from minesweeper.errors import TopologyError
from minesweeper.play.records import Category, Entry, Records
from minesweeper.protocol import format_board, format_count, format_move
from minesweeper.topology import TOPOLOGIES, Topology, find_topology
from minesweeper.variant import Variant

#: Inputs each fuzz test tries.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "40"))
#: Inputs checked so far, per parser, and how many of them were accepted (exit status 0);
#: read by scripts/fuzz_inputs.py.
CHECKED: Counter[str] = Counter()
ACCEPTED: Counter[str] = Counter()

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=EXAMPLES <= 100,  # CI runs the same inputs every time
)

#: Bytes that have broken parsers before.
AWKWARD = [
    b"\xff",
    b"\x00",
    b"\xc3",
    "é".encode(),
    "\u0663".encode(),  # ARABIC-INDIC DIGIT THREE
    "\uff11".encode(),  # FULLWIDTH DIGIT ONE
    b"\r",
    b"\n",
    b"\t",
    b" ",
    b"-",
    b"+",
    b"_",
    b"9" * 25,
    b"99999",
    b"X",
    b".",
    b"?",
    b"F",
    b"[",
    b'"',
]


@st.composite
def mutated(draw: st.DrawFn, base: bytes) -> bytes:
    """``base`` with a few byte-level mutations."""
    data = bytearray(base)
    for _ in range(draw(st.integers(0, 4))):
        where = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["insert", "replace", "delete", "truncate", "repeat"]))
        piece = draw(st.sampled_from(AWKWARD) | st.binary(min_size=1, max_size=3))
        if kind == "insert":
            data[where:where] = piece
        elif kind == "replace":
            data[where : where + len(piece)] = piece
        elif kind == "delete":
            del data[where : where + draw(st.integers(1, 4))]
        elif kind == "truncate":
            del data[where:]
        else:
            data[where:where] = data[where : where + draw(st.integers(1, 8))]
    return bytes(data)


@st.composite
def small_topology(draw: st.DrawFn, name: str) -> Topology:
    """A small board shape of topology ``name``, drawn the way commands draw them."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 6))
    try:
        return find_topology(name).random(rows, cols, random.Random(draw(st.integers(0, 99))))
    except TopologyError:  # no tiling of this size: fall back on one that always exists
        return find_topology(name).random(4, 6, random.Random(0))


@st.composite
def small_board(draw: st.DrawFn, name: str) -> Board:
    topology = draw(small_topology(name))
    mines = draw(st.integers(0, topology.size - 1))
    return random_board(topology, mines, random.Random(draw(st.integers(0, 99))))


@st.composite
def judge_input(draw: st.DrawFn, name: str) -> bytes:
    """A board of topology ``name`` and some moves, mutated."""
    board = draw(small_board(name))
    topology = board.topology
    cells = draw(st.lists(st.integers(0, topology.size - 1), max_size=8))
    text = format_board(board) + "".join(format_move(topology, c) + "\n" for c in cells)
    return draw(mutated(text.encode()))


@st.composite
def position_input(draw: st.DrawFn, name: str) -> bytes:
    """A position for `analyze` (some counts revealed, some mines known), mutated."""
    board = draw(small_board(name))
    topology = board.topology
    shown = {}
    for cell in draw(st.lists(st.integers(0, topology.size - 1), max_size=topology.size)):
        shown[cell] = KNOWN_MINE if board.is_mine(cell) else format_count(board.count(cell))
    lines = format_board(board).splitlines()  # header, mine rows, then piece ids or edges
    rows, cols = topology.shape
    drawn = [
        "".join(shown.get(topology.cell_at(r, c), "?") for c in range(cols)) for r in range(rows)
    ]
    text = "\n".join([lines[0], *drawn, *lines[1 + rows :]]) + "\n"
    return draw(mutated(text.encode()))


@st.composite
def case_input(draw: st.DrawFn, name: str) -> bytes:
    """An advanced case (board and first click), mutated."""
    board = draw(small_board(name))
    first = draw(st.integers(0, board.topology.size - 1))
    return draw(mutated(format_case(board, first).encode()))


def check(parser: str, args: list[str], stdin: bytes, env: dict[str, str] | None = None) -> None:
    """Run ``minesweeper ARGS`` and hold it to the promise for bad input."""
    result = CliRunner().invoke(main, args, input=stdin, env=env)
    CHECKED[parser] += 1
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args} raised {result.exception!r} on {stdin!r}")
    assert result.exit_code in (0, 2), (args, stdin, result.output)
    assert len(result.stderr.splitlines()) <= 1, (args, stdin, result.stderr)
    assert "Traceback" not in result.output
    ACCEPTED[parser] += result.exit_code == 0


TOPOLOGY_NAMES = st.sampled_from(sorted(TOPOLOGIES))


@FUZZ
@given(st.data())
def test_judge_input_on_every_topology(data: st.DataObject) -> None:
    name = data.draw(TOPOLOGY_NAMES)
    check("judge", ["server", "--topology", name], data.draw(judge_input(name)))


@FUZZ
@given(st.data())
def test_analyze_positions(data: st.DataObject) -> None:
    name = data.draw(TOPOLOGY_NAMES)
    check("analyze", ["analyze", "--topology", name], data.draw(position_input(name)))


@FUZZ
@given(st.data())
def test_board_files(data: st.DataObject) -> None:
    name = data.draw(TOPOLOGY_NAMES)
    text = data.draw(case_input(name))
    check("advanced", ["advanced", "--topology", name], text)
    check("export", ["topology", "export", "--topology", name, "-"], text)


@functools.cache
def _signed_records() -> tuple[bytes, bytes]:
    """A records file with two tables, and its key (made once: signing is slow)."""
    with tempfile.TemporaryDirectory() as folder:
        records = Records(Path(folder, "records.json"), Path(folder, "records.key"))
        for points in (3, 120):
            category = Category(Variant.parse("hex 9x9/10 classic"), no_guess=points > 100)
            records.add(category, Entry.make("Zoë", points, 12.5, points > 100))
        return records.path.read_bytes(), records.key_path.read_bytes()


def records_env(folder: Path, content: bytes, key: bytes) -> dict[str, str]:
    """A records file of ``content`` signed with ``key`` in ``folder``: the environment
    that points the commands at them."""
    data_dir, config_dir = folder / "data", folder / "config"
    data_dir.mkdir()
    config_dir.mkdir(mode=0o700)
    (data_dir / "records.json").write_bytes(content)
    (config_dir / "records.key").touch(mode=0o600)
    (config_dir / "records.key").write_bytes(key)
    return {"MINESWEEPER_DATA_DIR": str(data_dir), "MINESWEEPER_CONFIG_DIR": str(config_dir)}


@FUZZ
@given(st.data())
def test_records_files(data: st.DataObject) -> None:
    base, key = _signed_records()
    content = data.draw(mutated(base))
    with tempfile.TemporaryDirectory() as folder:
        env = records_env(Path(folder), content, key)
        check("records", ["records"], b"", env)
        check("records", ["records", "verify"], b"", env)


# -- JSON readers: records, replays, per-game logs ---------------------------------------------

#: JSON texts that broke readers: lone surrogates, numbers past every limit, deep nesting,
#: and values of every other type.
AWKWARD_JSON = [
    '"\\ud800"',
    '"a\\udfffb"',
    '"\\ud83d\\ude00"',  # a surrogate pair: valid
    "9" * 5000,
    "-" + "9" * 25,
    "18446744073709551616",
    "1e999",
    "-1e400",
    "NaN",
    "-Infinity",
    "[" * 3000 + "]" * 3000,
    "[" * 100_000,
    '"' + "x" * 5000 + '"',
    '""',
    "null",
    "true",
    "{}",
    "[]",
    "0",
    "-1",
    "1.5",
]
#: A JSON value token: a string, a number, true, false or null.
JSON_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null')


@st.composite
def json_mutated(draw: st.DrawFn, base: bytes) -> bytes:
    """``base`` (JSON) with one to three of its tokens (keys or values) replaced."""
    spans = [match.span() for match in JSON_TOKEN.finditer(base)]
    chosen = sorted(set(draw(st.lists(st.sampled_from(spans), min_size=1, max_size=3))))
    out, at = b"", 0
    for start, end in chosen:
        if start < at:
            continue
        out += base[at:start] + draw(st.sampled_from(AWKWARD_JSON)).encode()
        at = end
    return out + base[at:]


def _resigned(content: bytes, key: bytes) -> bytes:
    """``content`` signed again with ``key`` when it is JSON our signer can sign, so that the
    reader looks past the signature; else as it is."""
    from minesweeper.play.records import _sign

    try:
        document = json.loads(content)
        document.pop("signature")
        signature = _sign(bytes.fromhex(key.decode().strip()), document)
    except (ValueError, KeyError, AttributeError, TypeError, RecursionError):
        return content  # UnicodeEncodeError (a lone surrogate) included
    return json.dumps({**document, "signature": signature}).encode()


@FUZZ
@given(st.data())
def test_json_records_files(data: st.DataObject) -> None:
    base, key = _signed_records()
    content = data.draw(json_mutated(base))
    if data.draw(st.booleans()):
        content = _resigned(content, key)
    with tempfile.TemporaryDirectory() as folder:
        env = records_env(Path(folder), content, key)
        check("records json", ["records"], b"", env)
        check("records json", ["records", "--times"], b"", env)
        check("records json", ["records", "verify"], b"", env)


@functools.cache
def _replay() -> bytes:
    """A replay of a won beginner game."""
    from minesweeper.play.autoplay import AutoPlayer, new_session
    from minesweeper.play.replay import Replay
    from minesweeper.play.session import Settings

    session = new_session(Settings.preset("beginner"), seed=5)
    for _ in AutoPlayer.named(session, "best").play():
        pass
    return Replay.of(session, player="Zoë").to_bytes()


@FUZZ
@given(st.data())
def test_json_replays(data: st.DataObject) -> None:
    content = data.draw(json_mutated(_replay()))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "game.json")
        path.write_bytes(content)
        check("replay json", ["replay", "--stats", str(path)], b"")


BENCH = ["bench", "--preset", "beginner", "--games", "2", "--strategy", "best", "--jobs", "1"]


@functools.cache
def _per_game_log() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "games.jsonl")
        assert CliRunner().invoke(main, [*BENCH, "--per-game", str(path)]).exit_code == 0
        return path.read_bytes()


@FUZZ
@given(st.data())
def test_json_per_game_logs(data: st.DataObject) -> None:
    content = data.draw(json_mutated(_per_game_log()))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "games.jsonl")
        path.write_bytes(content)
        check("per-game log json", [*BENCH, "--resume", str(path)], b"")
