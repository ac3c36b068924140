"""What `castell_dsl` exports: every public name resolves, each is the object its own module
defines, and importing the package stays cheap (it loads nothing of the core until a name is
used, and a type loads only its own light module)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import castell_dsl
from castell_dsl import api
from castell_dsl.contract import actions
from castell_dsl.language import diagnostics, ruleset

#: The types a caller of the API meets, by the module that defines them.
TYPES = {
    "Action": actions.Action,
    "ActionError": actions.ActionError,
    "Rejection": actions.Rejection,
    "RuleError": diagnostics.RuleError,
    "RuleSet": ruleset.RuleSet,
}


def test_every_public_name_resolves_and_is_listed_once():
    assert len(castell_dsl.__all__) == len(set(castell_dsl.__all__))
    for name in castell_dsl.__all__:
        assert getattr(castell_dsl, name) is not None, name
    assert set(castell_dsl.__all__) <= set(dir(castell_dsl))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        castell_dsl.nope  # noqa: B018


@pytest.mark.parametrize("name", sorted(TYPES))
def test_the_types_a_caller_meets_are_the_core_types(name):
    assert getattr(castell_dsl, name) is TYPES[name]
    assert name in castell_dsl.__all__


def test_the_package_and_the_api_module_export_the_same_objects():
    for name in set(castell_dsl.__all__) - {"__version__", "hookimpl"}:
        assert getattr(castell_dsl, name) is getattr(api, name), name


def _loaded_after(code: str) -> list[str]:
    run = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return [m for m in json.loads(run.stdout) if m.startswith("castell_dsl.")]


def test_importing_the_package_loads_none_of_the_core():
    assert _loaded_after("import castell_dsl") == []


def test_importing_a_type_loads_its_module_not_the_runtime():
    loaded = _loaded_after("from castell_dsl import Action, ActionError, Rejection, RuleError")
    assert "castell_dsl.contract.actions" in loaded
    assert not [m for m in loaded if m.startswith(("castell_dsl.runtime", "castell_dsl.api"))]
