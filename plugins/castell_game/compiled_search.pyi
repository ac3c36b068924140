"""Types of the compiled search (`compiled_search.pyx`), for the type checker."""

from collections.abc import Callable, Iterable
from typing import Any

LIMIT: int

class Unsupported(ValueError): ...

class Searcher:
    """`solver._python_answerer`'s answer of one setup's queries, compiled."""

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

def team_counts(
    team: Iterable[int],
    index: dict[int, int],
    fallback: Callable[[Iterable[int], dict[int, int]], tuple[int, ...]],
) -> tuple[int, ...]: ...
