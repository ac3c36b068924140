"""Moved to `castell_dsl.contract.standings` (front-ends import the contract); kept here so
that `castell_dsl.runtime.standings` still imports."""

from __future__ import annotations

from ..contract.standings import (
    decided_by,
    describe,
    tiebreak_names,
)

__all__ = [
    "decided_by",
    "describe",
    "tiebreak_names",
]
