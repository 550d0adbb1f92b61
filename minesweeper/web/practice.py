"""What the page adds to the ladder for practice: guests, and the practice aids.

- A **guest** plays practice games without signing up: ``POST /api/guests`` makes an
  account with no password (``guest-`` and random letters) and signs it in. Guests
  are limited per address like sign-ups.
- The **aids** read a practice game as its player sees it (the ladder's own
  `Games.state`: opened cells and their numbers, the mine count when told) and ask
  the project's solver: every closed cell's exact mine probability (``odds``), the
  cell to open (``hint``: a proved safe one, else the safest), or the computer's
  move (``computer``, made through the ladder's `Games.move` like any other).
  Ranked and daily games are refused: aids are for practice.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from minesweeper.boards.generate import middle_cell
from minesweeper.ladder.accounts import Issued, Player
from minesweeper.ladder.config import RateLimit
from minesweeper.ladder.errors import Conflict, Forbidden
from minesweeper.ladder.schema import Account
from minesweeper.ladder.service import Ladder
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.probability import Probabilities, probabilities
from minesweeper.solver.strategy import find_strategy
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology
from minesweeper.web.boards import TopologyView, topology_of

#: What a guest's name starts with.
GUEST_PREFIX = "guest-"
#: Guests made per client address: a person opening the page in a few browsers, not a script.
GUESTS_PER_ADDRESS = RateLimit(30, 3600)
#: The strategy the computer plays practice moves with.
COMPUTER_STRATEGY = "best"


def make_guest(service: Ladder, db: Session, address: str) -> Issued:
    """A new guest account, signed in; at most `GUESTS_PER_ADDRESS` per address."""
    config = service.config
    service.accounts.limiter.hit(db, f"guest:{address}", GUESTS_PER_ADDRESS, "guest sign-ins")
    for _attempt in range(5):
        name = GUEST_PREFIX + secrets.token_hex(4)
        account = Account(
            name=name, name_key=name, is_bot=False, password_hash=None, created_ms=service.now_ms()
        )
        try:
            with db.begin_nested():
                db.add(account)
        except IntegrityError:
            continue
        return service.accounts.issue(db, account, config.session_seconds)
    raise Conflict("could not find a free guest name: try again")


def practice_view(
    service: Ladder, db: Session, player: Player, game_id: str
) -> tuple[dict[str, Any], Topology, View]:
    """A practice game of ``player``'s as they see it: its state, topology and solver view."""
    state = service.games.state(db, player, game_id)
    if state["mode"] != "practice":
        raise Forbidden(f"aids are for practice games; this one is {state['mode']}")
    if state["state"] != "playing":
        raise Conflict(f"the game is over ({state['state']})")
    topology = topology_of(TopologyView(**state["topology"]))
    revealed = {cell: count for cell, count in state["opened"]}
    return state, topology, View(topology, revealed, mine_count=state["settings"]["mines"])


def _chances(view: View) -> Probabilities | None:
    try:
        return probabilities(view)
    except InconsistentView:
        return None


def odds(view: View, started: bool) -> list[float | None]:
    """Each cell's mine probability (None for opened cells, or when nothing is known yet)."""
    size = view.topology.size
    if not started:
        return [None] * size
    found = _chances(view)
    if found is None:
        return [None] * size
    chances = found.floats()
    return [None if cell in view.revealed else chances.get(cell) for cell in range(size)]


def hint(view: View, started: bool, flags: list[int]) -> dict[str, Any]:
    """The cell to open: proved safe if any (``safe``), else the safest; its probability."""
    if not started:
        return {"cell": middle_cell(view.topology), "safe": True, "p": 0.0}
    found = _chances(view)
    if found is None or not len(found):
        return {"cell": None, "safe": False, "p": None}
    candidates = sorted(found.safe) if found.safe else found.safest()
    unflagged = [cell for cell in candidates if cell not in set(flags)]
    cell = min(unflagged or candidates)
    return {"cell": cell, "safe": bool(found.safe), "p": found.chance(cell)}


def computer_cell(view: View, started: bool) -> int:
    """The cell the computer opens next (the middle of the board to begin with)."""
    if not started:
        return middle_cell(view.topology)
    decision = find_strategy(COMPUTER_STRATEGY)(seed=0).decide(view)
    return next(cell for cell in decision.opens if cell not in view.revealed)
