"""Save an SVG screenshot of `minesweeper play` in progress (for the README).

    python scripts/screenshot.py [OUT.svg] [--all DIR]

The game is seeded: an intermediate board after a few hinted moves, with
flags on proved mines and the hint shown. ``--all DIR`` also saves one
picture per topology (docs/screens/ holds them), large boards, the odds overlay and
the settings and records screens, for review.
Records go to a temporary directory, never the user's.
"""

from __future__ import annotations

import asyncio
import os
import sys
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
    from minesweeper.play.session import Settings
    from minesweeper.topology import TOPOLOGIES
    from minesweeper.tui.app import MinesweeperApp

    for name in TOPOLOGIES:
        # Tilings' pieces are few on a beginner's 9x9: a wider board at intermediate density.
        kind = Settings.preset("beginner", topology=name)
        if name in ("domino", "tromino", "tetromino"):
            kind = Settings.sized("intermediate", 9, 12, topology=name)
        await shot(kind, (100, 32), folder / f"{name}.svg")
    await shot(
        Settings(rows=10, cols=15, mines=18, topology="graph"), (100, 32), folder / "graph-150.svg"
    )
    await shot(Settings.preset("expert", topology="hex"), (100, 32), folder / "hex-expert.svg")
    await shot(Settings.preset("expert"), (80, 24), folder / "overlay-expert.svg", overlay=True)
    app = MinesweeperApp(Settings(), seed=2, records_path=TEMP / "r.json")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        app.save_screenshot(str(folder / "settings.svg"))
        await pilot.press("escape", "t")
        await pilot.pause()
        app.save_screenshot(str(folder / "records.svg"))


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv and not argv[0].startswith("--") else ROOT / "docs/screenshot.svg"
    asyncio.run(game_in_progress(out))
    print(f"saved {out}")
    if "--all" in argv:
        folder = Path(argv[argv.index("--all") + 1])
        folder.mkdir(parents=True, exist_ok=True)
        asyncio.run(every_topology(folder))
        print(f"saved the topologies and screens in {folder}")


TEMP = Path(tempfile.mkdtemp(prefix="minesweeper-shot-"))
os.environ["MINESWEEPER_DATA_DIR"] = str(TEMP / "data")
os.environ["MINESWEEPER_CONFIG_DIR"] = str(TEMP / "config")

if __name__ == "__main__":
    main(sys.argv[1:])
