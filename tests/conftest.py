"""Shared fixtures. The tests sit in folders by layer (core, solver, judge, bench, play,
ladder, web, cli, tui); this file, at their root, also puts the root on ``sys.path``, so every
folder imports the shared helpers (``doubles``, ``judge_helpers``, ``tui_helpers``,
``paths``...) by name."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import settings
from judge_helpers import children

# The suite starts hundreds of Python programs (the commands, clients, servers): each would
# compile every module it imports again where the environment turns bytecode caching off
# (PYTHONDONTWRITEBYTECODE), and pytest would rewrite every test module again in each worker.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# No per-example deadline: the tests assert behaviour, not speed (that is bench's), and on a
# loaded machine one example can take past hypothesis's default 200 ms and fail as "flaky".
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")


@pytest.fixture
def no_child_left_behind() -> Iterator[None]:
    """Fails the test if it leaves a child process of the test run behind (running or not)."""
    before = children()
    yield
    assert children() - before == set()
