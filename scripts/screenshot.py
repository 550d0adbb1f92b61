"""Save an SVG screenshot of `minesweeper play` in progress (for the README).

    python scripts/screenshot.py [OUT.svg] [--all DIR]

The game is seeded: an intermediate board after a few hinted moves, with
flags on proved mines and the hint shown. ``--all DIR`` also saves one
picture per topology (docs/screens/ holds them), large boards, the odds overlay,
a game under the acm rules (the mine count not told), and the settings and
records screens (both tables), for review.
Records go to a temporary directory, never the user's.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZE = (80, 24)


async def game_in_progress(out: Path) -> None:
    from minesweeper.play.autoplay import view_of
    from minesweeper.play.session import Settings
    from minesweeper.solver.probability import probabilities
    from minesweeper.tui.app import MinesweeperApp

    app = MinesweeperApp(Settings.preset("intermediate"), seed=11, records_path=TEMP / "r.json")
    async with app.run_test(size=SIZE) as pilot:
        controller = app.controller
        session = controller.session
        await pilot.press("space")
        for _ in range(6):  # a few certain moves, as a careful player makes them
            controller.show_hint()
            if controller.hint is None or not controller.hint.certain:
                break
            controller.open(controller.hint.cell)
        for mine in sorted(probabilities(view_of(session)).mines)[:6]:
            session.toggle_flag(mine)
        controller.show_hint()
        app.redraw()
        await pilot.pause()
        app.save_screenshot(str(out))


async def shot(settings, size: tuple[int, int], out: Path, overlay: bool = False) -> None:
    """One game of ``settings`` after its first open, a flag on a mine, at ``size``."""
    from minesweeper.tui.app import MinesweeperApp

    app = MinesweeperApp(settings, seed=2, records_path=TEMP / "r.json")
    async with app.run_test(size=size) as pilot:
        await pilot.press("space")
        session = app.controller.session
        session.toggle_flag(min(session.board.mines))
        if overlay:
            await pilot.press("p")
        app.redraw()
        await pilot.pause()
        app.save_screenshot(str(out))


async def every_topology(folder: Path) -> None:
    """Each topology at its default size in 100x32, the large boards the issue names, the
    overlay at expert size in 80x24, and the settings and records screens."""
    from minesweeper.play.records import Entry
    from minesweeper.play.session import Settings
    from minesweeper.topology import TOPOLOGIES
    from minesweeper.tui.app import MinesweeperApp
    from minesweeper.variant import Variant

    for name, kind in TOPOLOGIES.items():
        # Each shape's beginner board: as many cells as the squares' (a tiling's pieces).
        await shot(Settings(Variant.preset("beginner", kind)), (100, 32), folder / f"{name}.svg")
    graph = Settings(Variant.parse("graph 10x15/18"))
    await shot(graph, (100, 32), folder / "graph-150.svg")
    hexagons = Settings(Variant.parse("hex expert"))
    await shot(hexagons, (100, 32), folder / "hex-expert.svg")
    await shot(Settings.preset("expert"), (80, 24), folder / "overlay-expert.svg", overlay=True)
    await shot(Settings(Variant.parse("beginner/acm")), (80, 24), folder / "acm.svg")
    await shot(Settings(Variant.parse("acm-10/acm")), (100, 32), folder / "acm-10.svg")
    app = MinesweeperApp(Settings(), seed=2, records_path=TEMP / "r.json")
    category = app.controller.settings.category()
    for name, points, seconds, won, bbbv in RESULTS:
        app.controller.records.add(category, Entry.make(name, points, seconds, won, bbbv=bbbv))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        app.save_screenshot(str(folder / "settings.svg"))
        await pilot.press("escape", "t")
        await pilot.pause()
        app.save_screenshot(str(folder / "records.svg"))
        await pilot.press("tab")
        await pilot.pause()
        app.save_screenshot(str(folder / "records-times.svg"))


async def player_screens(folder: Path) -> None:
    """What a player keeps: the help, the statistics, a won board, a record's replay,
    at 80x24 and 100x32."""
    from minesweeper.play.history import Play, PlayedGame
    from minesweeper.play.session import Settings
    from minesweeper.play.stats import Clicks, GameStats
    from minesweeper.tui.app import MinesweeperApp

    for width, height in ((80, 24), (100, 32)):
        # Records and history of their own at each size: the pictures tell the same story.
        records = TEMP / f"{width}x{height}" / "records.json"
        app = MinesweeperApp(
            Settings(), seed=5, records_path=records, player="Ada", clock=PlayerClock()
        )
        history = app.controller.history
        category = app.controller.settings.category()
        for number, (won, ms, solved, clicks) in enumerate(HISTORY):
            stats = GameStats(solved, solved if won else solved // 2, Clicks(clicks), ms, won)
            left = number in ABANDONED
            history.add(PlayedGame.make(category, "Ada", Play.PERSON, stats, abandoned=left))
            if number % 4 == 0:
                history.add(PlayedGame.make(category, "Ada", Play.ASSISTED, stats))
        async with app.run_test(size=(width, height)) as pilot:
            size = f"{width}x{height}"
            await pilot.press("question_mark")
            await pilot.pause()
            app.save_screenshot(str(folder / f"help-{size}.svg"))
            await pilot.press("escape", "s")
            await pilot.pause()
            app.save_screenshot(str(folder / f"settings-{size}.svg"))
            await pilot.press("escape")
            session = app.controller.session
            await pilot.press("space")
            for cell in session.topology.cells():  # every safe cell, by hand
                if not session.board.is_mine(cell) and not session.is_opened(cell):
                    app.controller.open(cell)
            app.redraw()
            await pilot.pause()
            await pilot.press("ctrl+a", "ctrl+k", *"Ada", "enter")
            await pilot.pause()
            app.board.blur()
            await pilot.pause()
            app.save_screenshot(str(folder / f"won-{size}.svg"))
            await pilot.press("i")
            await pilot.pause()
            app.save_screenshot(str(folder / f"stats-{size}.svg"))
            await pilot.press("escape", "t")
            await pilot.pause()
            app.save_screenshot(str(folder / f"records-{size}.svg"))
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("space", "right", "right", "right", "right", "right")
            await pilot.pause()
            app.save_screenshot(str(folder / f"records-replay-{size}.svg"))


async def video_screens(folder: Path) -> None:
    """A real Arbiter video (from ms-toollib's test data) in the viewer, its clicks judged."""
    from minesweeper.play.videos import read_video
    from minesweeper.tui.replay import ReplayApp

    replay = read_video(ROOT / "tests" / "play" / "data" / "videos" / "arbiter-beginner.avf")
    for width, height in ((80, 24), (100, 32)):
        app = ReplayApp(replay, speed=0.01)
        async with app.run_test(size=(width, height)) as pilot:
            await pilot.press("a")
            for _ in range(200):
                await pilot.pause(0.05)
                if app.viewer.review is not None:
                    break
            app.replay_screen.action_jump(2)
            await pilot.pause()
            app.save_screenshot(str(folder / f"video-{width}x{height}.svg"))
            app.replay_screen.action_jump(-1)
            await pilot.pause()
            app.save_screenshot(str(folder / f"video-end-{width}x{height}.svg"))


class PlayerClock:
    """A person's pace in the pictures: each look at the clock is 0.15 s later."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.15
        return self.now


#: The player's history in those pictures: (won, ms, 3BV, clicks), in order.
HISTORY = (
    (True, 14_200, 18, 25),
    (False, 3_100, 12, 9),
    (True, 11_800, 21, 24),
    (True, 9_400, 15, 17),
    (False, 6_000, 20, 11),
    (True, 12_600, 19, 30),
    (True, 8_900, 17, 20),
    (False, 2_400, 16, 4),
    (True, 10_300, 18, 21),
)
#: The games of HISTORY left unfinished (abandoned).
ABANDONED = {7}
#: Results in the records screens' pictures: (name, points, seconds, won, 3BV).
RESULTS = (
    ("Ada", 187, 41.2, True, 22),
    ("Computer", 160, 0.4, True, 17),
    ("Brian", 140, 18.9, True, 15),
    ("Cleo", 96, 7.3, False, 19),
    ("Dov", 88, 12.1, True, 11),
)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Save SVG screenshots of `minesweeper play` (records in a temporary folder)."
    )
    parser.add_argument(
        "out",
        nargs="?",
        type=Path,
        default=ROOT / "docs/screenshot.svg",
        help="where the game in progress goes (default: docs/screenshot.svg)",
    )
    parser.add_argument(
        "--all",
        metavar="DIR",
        type=Path,
        help="also every topology, large boards, the overlay, an acm game and the "
        "settings and records screens, in DIR",
    )
    parser.add_argument(
        "--player",
        metavar="DIR",
        type=Path,
        help="only the player's screens (help, settings, a won board, statistics, a "
        "record's replay) at 80x24 and 100x32, in DIR",
    )
    args = parser.parse_args()
    if args.player is not None:
        args.player.mkdir(parents=True, exist_ok=True)
        asyncio.run(player_screens(args.player))
        asyncio.run(video_screens(args.player))
        print(f"saved the player's screens in {args.player}")
        return
    asyncio.run(game_in_progress(args.out))
    print(f"saved {args.out}")
    if args.all is not None:
        args.all.mkdir(parents=True, exist_ok=True)
        asyncio.run(every_topology(args.all))
        print(f"saved the topologies and screens in {args.all}")


TEMP = Path(tempfile.mkdtemp(prefix="minesweeper-shot-"))
os.environ["MINESWEEPER_DATA_DIR"] = str(TEMP / "data")
os.environ["MINESWEEPER_CONFIG_DIR"] = str(TEMP / "config")

if __name__ == "__main__":
    main()
