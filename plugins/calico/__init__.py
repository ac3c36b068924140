"""Calico, as a plugin: hex-quilt mechanics for `game { mechanics calico }` (K-1 … K-8)."""

from __future__ import annotations

from typing import Any

from castell_dsl import hookimpl


@hookimpl
def register_mechanics() -> list[Any]:
    from .mechanics import CalicoMechanics

    return [CalicoMechanics()]
