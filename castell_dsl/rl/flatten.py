"""A JSON view flattened to named numbers: the observation's raw features (rules in
`observation.py`'s docstring). Its own module so that the exploration and the observation
layout both use it without importing each other."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def features(view: Any) -> dict[str, float]:
    """A view (JSON data) flattened to named numbers, by the rules in the module docstring."""
    out: dict[str, float] = {}
    _walk(view, "", out)
    return out


def _walk(value: Any, path: str, out: dict[str, float]) -> None:
    if isinstance(value, Mapping):
        prefix = f"{path}." if path else ""
        for key, item in value.items():
            _walk(item, f"{prefix}{key}", out)
    elif isinstance(value, list | tuple):
        out[f"{path}#"] = float(len(value))
        if all(not isinstance(item, Mapping | list | tuple) for item in value):
            for item in value:
                key = f"{path}[]={item}"
                out[key] = out.get(key, 0.0) + 1.0
        else:
            for i, item in enumerate(value):
                _walk(item, f"{path}[{i}]", out)
    elif isinstance(value, bool | int | float):
        out[path] = float(value)
    else:  # a string, None, anything else by its text
        out[f"{path}={value}"] = 1.0
