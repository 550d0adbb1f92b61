"""Graph boards in the terminal: nodes on a lattice, edges behind them, clicks and arrows."""

from __future__ import annotations

import asyncio
import random

from rich.color import Color
from tui_helpers import click_cell, make_app, private_dirs  # noqa: F401

from minesweeper.play.session import Settings
from minesweeper.topology import GraphTopology
from minesweeper.tui.graph_layout import graph_layout, lattice_slots
from minesweeper.tui.palette import CLOSED_BG
from minesweeper.variant import Variant


def line_text(plan, y: int) -> str:
    """Line ``y`` of the drawing: edges as drawn, nodes as blanks."""
    return "".join(span.text if span.cell is None else " " * span.width for span in plan.lines[y])


def test_a_random_graph_keeps_its_grid_and_draws_every_edge() -> None:
    graph = GraphTopology.random(4, 5, random.Random(3))
    plan = graph_layout(graph)
    assert lattice_slots(graph) == {r * 5 + c: (c, r) for r in range(4) for c in range(5)}
    assert (plan.width, plan.height) == (5 * 4 - 1, 4 * 2 - 1)
    for u, v in graph.edges():  # some dot lies between the two labels
        (x0, y0), (x1, y1) = plan.anchor(u), plan.anchor(v)
        y = (y0 + y1) // 2 if y0 != y1 else y0
        lo, hi = sorted((x0, x1))
        dots = [x for x, char in enumerate(line_text(plan, y)) if "\u2800" < char <= "\u28ff"]
        assert any(lo <= x <= hi + 1 for x in dots), (u, v)


def test_every_node_has_its_own_label_without_coordinates() -> None:
    rng = random.Random(5)
    edges = {tuple(sorted(rng.sample(range(150), 2))) for _ in range(320)}
    graph = GraphTopology(150, sorted(edges))
    plan = graph_layout(graph)
    assert plan.width <= 98 and plan.height <= 29  # legible in 100x32 with the header
    labels = {plan.label(node)[:2] for node in graph.cells()}
    assert len(labels) == 150
    for node in graph.cells():
        x, y = plan.anchor(node)
        assert plan.cell_at(x, y) == node


def test_arrows_go_to_the_nearest_node_in_their_direction() -> None:
    graph = GraphTopology(4, [(0, 1), (1, 2), (2, 3)], [(0, 0), (10, 0), (10, 3), (0, 9)])
    plan = graph_layout(graph)
    assert plan.step(0, 1, 0) == 1
    assert plan.step(1, 0, 1) == 2
    assert plan.step(0, 0, 1) == 3
    assert plan.step(0, -1, 0) == 0  # nothing to the left
    assert plan.step(2, -1, 0) in (0, 3)


CLOSED = Color.parse(CLOSED_BG[0])


def test_a_graph_game_is_played_by_clicking_nodes(tmp_path) -> None:
    async def scenario() -> None:
        settings = Settings(Variant.parse("graph 6x8/6"))
        app = make_app(tmp_path, settings)
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.controller.session
            assert isinstance(session.topology, GraphTopology)
            # A closed node is its colour alone; a ? is only ever the player's mark.
            first = app.board.render_line(0)
            assert "?" not in first.text
            assert any(seg.style and seg.style.bgcolor == CLOSED for seg in first)
            app.controller.cursor = 0
            await pilot.press("m")
            assert "?" in app.board.render_line(0).text
            await click_cell(pilot, app, 20)
            assert session.is_opened(20)
            await pilot.press("p")  # the overlay works on graphs too
            assert "node" in app.controller.message or "mine probability" in app.controller.message

    asyncio.run(scenario())
