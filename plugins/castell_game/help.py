"""Castell's players' page for `help` and `help TOPIC` in play (`register_help_pages`).

The page lives beside the code, `pages/castell.md`, and ships in the wheel as package data;
its `##` sections are the help topics. Registered as its own entry point (`castell_help`).
"""

from __future__ import annotations

from pathlib import Path

from castell_dsl import hookimpl


@hookimpl
def register_help_pages() -> list[tuple[str, Path]]:
    return [("castell", Path(__file__).resolve().parent / "pages" / "castell.md")]
