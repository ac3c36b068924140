"""Calico, as a plugin: its rule files and the hex-quilt mechanics for
`game { mechanics calico }` (K-1 … K-8)."""

from __future__ import annotations

from pathlib import Path

from castell_dsl import hookimpl
from castell_dsl.contract import Mechanics, WebAssets, shipped_dir


@hookimpl
def register_rule_paths() -> list[Path]:
    return [shipped_dir(__file__, "rules", "../rules/calico")]


@hookimpl
def register_mechanics() -> list[Mechanics]:
    from .mechanics import CalicoMechanics

    return [CalicoMechanics()]


@hookimpl
def register_web_assets() -> list[WebAssets]:
    """The quilt drawn in SVG for `castell serve` (web/render.js)."""
    return [WebAssets("calico", Path(__file__).parent / "web")]
