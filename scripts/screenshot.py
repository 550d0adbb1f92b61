"""Save an SVG screenshot of `minesweeper play` in progress (for the README).

    python scripts/screenshot.py [OUT.svg] [--all DIR]

The game is seeded: an intermediate board after a few hinted moves, with
flags on proved mines and the hint shown. ``--all DIR`` also saves one
picture per topology and the settings and records screens, for review.
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
    from minesweeper.autoplay import view_of
    from minesweeper.session import Settings
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


async def every_topology(folder: Path) -> None:
    from minesweeper.session import Settings
    from minesweeper.tui.app import MinesweeperApp

    boards = {
        "square": (9, 9, 10),
        "hex": (9, 9, 10),
        "triangle": (9, 9, 12),
        "parquet": (5, 8, 6),
        "domino": (8, 8, 8),
        "tromino": (9, 8, 6),
        "tetromino": (8, 8, 4),
    }
    for name, (rows, cols, mines) in boards.items():
        settings = Settings(rows=rows, cols=cols, mines=mines, topology=name)
        app = MinesweeperApp(settings, seed=2, records_path=TEMP / "r.json")
        async with app.run_test(size=(100, 50)) as pilot:
            await pilot.press("space")
            session = app.controller.session
            session.toggle_flag(min(session.board.mines))
            await pilot.press("p")
            app.save_screenshot(str(folder / f"{name}.svg"))
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
