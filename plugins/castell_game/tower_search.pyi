"""Types of `tower_search.py` for the type checker: that module is plain, untyped Python (its C
types are in `tower_search.pxd`, read when setup.py compiles it), so its interface is here."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

COMPILED: bool
SKILL_BITS: tuple[int, int, int, int, int]
LIMIT: int
MAXK: int
MAX_LEVELS: int

class Unsupported(ValueError): ...

class Searcher:
    """The answer of one setup's queries (`solver._Setup`)."""

    def __init__(
        self,
        su: Any,
        patterns: Callable[..., tuple[Any, ...]],
        window_tables: Callable[..., tuple[Any, ...]],
        no_patterns: tuple[Any, ...],
        cache_max: int,
    ) -> None: ...
    def __call__(
        self, counts: tuple[int, ...], size_bits: int
    ) -> tuple[int, int, int, tuple[Any, ...]] | None: ...

def team_counts(team: Sequence[object], index: Mapping[int, int]) -> tuple[int, ...] | None: ...
def _most_levels(castellers: int, balance: int) -> int: ...
