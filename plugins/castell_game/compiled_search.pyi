"""Types of the compiled search (`compiled_search.pyx`), for the type checker."""

from typing import Any

MAX_POSITIONS: int
LIMIT: int

class Unsupported(ValueError): ...

class Searcher:
    """`solver._python_searcher`'s search of one setup, compiled."""

    def __init__(self, su: Any) -> None: ...
    def __call__(self, q: Any) -> tuple[int, int, int, tuple[Any, ...]] | None: ...
