# The compiled counting kernel's interface (_kernel.pyx; built by setup.py when a C++
# compiler is at hand).
from collections.abc import Sequence

MAX_CELLS: int

class Counted:
    held: int
    def ends(self) -> list[tuple[int, ...]]: ...
    def poly(self, end: int) -> list[int]: ...
    def weights(self, end: int) -> list[list[int]]: ...

def count(plans: Sequence[tuple[object, ...]], cap: int, most_bytes: int) -> Counted | None: ...
def pair_risks(
    pairs: list[tuple[int, int, frozenset[int]]],
    chances: dict[int, float],
    constrained: set[int],
    least: float,
) -> list[float | None]: ...
def pair_credit(
    pairs: list[tuple[int, int, frozenset[int]]],
    risks: list[float | None],
    chances: dict[int, float],
) -> dict[int, float] | None: ...

class Values:
    positions: int
    def __init__(
        self,
        cells: list[int],
        mine_masks: list[int],
        shows: list[list[int]],
        layouts: int,
        max_nodes: int,
        seconds: float,
        max_bytes: int,
    ) -> None: ...
    def won(self, cell: int, need: int) -> int | None: ...

def best_won(
    cells: list[int], mine_masks: list[int], shows: list[list[int]], layouts: int, max_nodes: int
) -> tuple[int, int] | None: ...
