"""Plugins that fail in any way are named and skipped; the rest keeps working (class 6).

Fake plugins are installed by adding entry points to the real ones
(`castell_dsl.runtime.plugins._entry_points` monkeypatched) and `reset()`; each test then runs
real commands and checks that the failure is named, the command works, and `castell plugins`
lists it.
"""

from __future__ import annotations

import json
import sys
import types
from typing import Any

import pytest

from castell_dsl import hookimpl
from castell_dsl.cli import main
from castell_dsl.contract import BotFactory, Frontend, Variant
from castell_dsl.runtime import plugins as plugin_module
from castell_dsl.runtime.plugins import get_plugins, registries, reset


class FakeEntryPoint:
    """Enough of `importlib.metadata.EntryPoint` for the loader: a name, no dist, load()."""

    def __init__(self, name: str, load: Any):
        self.name = name
        self.dist = None
        self._load = load

    def load(self) -> Any:
        return self._load()


def _module(name: str, **hooks: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    for hook, function in hooks.items():
        function.__name__ = hook
        setattr(module, hook, hookimpl(function))
    return module


@pytest.fixture
def install(monkeypatch):
    """install(name, loader) adds a fake plugin; the real ones stay."""
    real = plugin_module._entry_points
    extra: list[FakeEntryPoint] = []
    monkeypatch.setattr(plugin_module, "_entry_points", lambda: [*real(), *extra])

    def add(name: str, load: Any) -> None:
        extra.append(FakeEntryPoint(name, load))
        reset()

    yield add
    reset()


def _raise(exc: BaseException) -> Any:
    def load() -> Any:
        raise exc

    return load


def _plugins_json(capsys) -> dict[str, dict]:
    capsys.readouterr()
    assert main(["plugins", "--format", "json"]) == 0
    return {row["name"]: row for row in json.loads(capsys.readouterr().out)["plugins"]}


def _simulate_works(capsys) -> None:
    capsys.readouterr()
    code = main(["simulate", "--games", "1", "--players", "2", "--format", "jsonl"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out.splitlines()[0])["game"] == 0


@pytest.mark.parametrize(
    "exc",
    [RuntimeError("boom"), ImportError("no module x"), SystemExit(3), KeyboardInterrupt()],
    ids=["exception", "import-error", "system-exit", "keyboard-interrupt"],
)
def test_a_plugin_failing_at_import_is_named_and_skipped(install, capsys, exc):
    install("aaa_broken", _raise(exc))
    _simulate_works(capsys)
    rows = _plugins_json(capsys)
    assert type(exc).__name__ in rows["aaa_broken"]["error"]
    assert rows["bots"]["provides"]["bots"] == ["random", "greedy", "mcts"]


@pytest.mark.parametrize(
    "returned",
    [
        5,
        "random",
        [None],
        [object()],
        {"name": "x"},
        [BotFactory(name=3, description="", create=print)],
    ],  # type: ignore[arg-type]
    ids=["int", "str", "none-item", "object", "dict", "bad-name"],
)
def test_registration_hooks_returning_the_wrong_type_are_named(install, capsys, returned):
    def register_bots() -> Any:
        return returned

    def register_frontends() -> Any:
        return returned

    def register_variants() -> Any:
        return returned

    def register_mechanics() -> Any:
        return returned

    def register_rule_paths() -> Any:
        return returned

    module = _module(
        "wrong",
        register_bots=register_bots,
        register_frontends=register_frontends,
        register_variants=register_variants,
        register_mechanics=register_mechanics,
        register_rule_paths=register_rule_paths,
    )
    install("wrong_types", lambda: module)
    _simulate_works(capsys)
    rows = _plugins_json(capsys)
    assert "wrong_types" in rows and rows["wrong_types"]["failures"]
    assert all("plugin 'wrong_types'" in f for f in rows["wrong_types"]["failures"])
    assert any("register_bots" in f for f in rows["wrong_types"]["failures"])
    capsys.readouterr()
    assert main(["validate", "--quiet"]) == 0  # the rule path survives a bad path too


def test_a_hook_raising_system_exit_does_not_end_the_command(install, capsys):
    def register_bots() -> Any:
        raise SystemExit(0)

    install("exits", lambda: _module("exits", register_bots=register_bots))
    _simulate_works(capsys)
    assert (
        "plugin 'exits' failed in hook 'register_bots'" in _plugins_json(capsys)["exits"]["error"]
    )


def test_name_clashes_keep_the_first_owner_and_name_both(install, capsys):
    def register_bots() -> Any:
        return [BotFactory("random", "a thief", lambda rules, seat, seed: None)]

    def register_frontends() -> Any:
        return [Frontend("jsonl", "another", lambda session: 0)]

    def register_variants() -> Any:
        return [Variant("mine", "fine", ("castell",), _unchanged)]

    def register_late_variants() -> Any:
        return [
            Variant("mine", "a late copy", ("castell",), _unchanged),
            Variant("own", "ok", ("castell",), _unchanged),
        ]

    # "aaa" sorts before every built-in: registration order must still favour the built-ins.
    install(
        "aaa_thief",
        lambda: _module(
            "thief",
            register_bots=register_bots,
            register_frontends=register_frontends,
            register_variants=register_variants,
        ),
    )
    install("zzz_late", lambda: _module("late", register_variants=register_late_variants))
    assert registries().bots["random"].description == "uniformly among the legal actions"
    assert registries().frontends["jsonl"].description.startswith("JSON lines")
    assert registries().variants["mine"].description == "fine"  # the rest of it still works
    assert registries().variants["own"].description == "ok"
    failures = [str(f) for f in get_plugins().failures]
    assert any(
        "bot 'random' is already registered by plugin 'bots'; plugin 'aaa_thief'" in f
        for f in failures
    )
    assert any("frontend 'jsonl'" in f and "'jsonl'" in f for f in failures)
    assert any(
        "variant 'mine' is already registered by plugin 'aaa_thief'; plugin 'zzz_late'" in f
        for f in failures
    )
    rows = _plugins_json(capsys)
    assert len(rows["aaa_thief"]["failures"]) == 2
    assert len(rows["zzz_late"]["failures"]) == 1
    assert rows["aaa_thief"]["provides"] == {"variants": ["mine"]}


def test_a_clashing_mechanics_is_refused(install, capsys):
    castell = registries().mechanics["castell"]

    def register_mechanics() -> Any:
        return [castell]

    install("twin", lambda: _module("twin", register_mechanics=register_mechanics))
    assert registries().mechanics["castell"] is not None
    assert any("mechanics 'castell'" in str(f) for f in get_plugins().failures)


def test_a_plugin_command_cannot_replace_a_taken_name(install, capsys):
    import click

    @click.command("play")
    def fake_play() -> None:
        click.echo("hijacked")

    @click.command("tower")
    def fake_tower() -> None:
        click.echo("hijacked")

    def register_commands(cli: Any) -> None:
        cli.add_command(fake_play)
        cli.add_command(fake_tower)

    install("zzz_commands", lambda: _module("cmds", register_commands=register_commands))
    capsys.readouterr()
    assert main(["tower", "--help"]) == 0
    assert "hijacked" not in capsys.readouterr().out
    failures = [str(f) for f in get_plugins().failures]
    assert any(
        "command 'play' is already registered by plugin 'castell (built-in)'" in f for f in failures
    )
    assert any("command 'tower' is already registered by plugin 'castell'" in f for f in failures)


def test_a_failing_code_variant_is_diagnostic_e0280(install, capsys):
    from castell_dsl.contract import Variant

    def adjust(editor: Any, options: Any) -> None:
        raise RuntimeError("cannot adjust")

    variant = Variant("adjuster", "fails", ("castell",), adjust)
    install("adjuster", lambda: _module("adjuster", register_variants=lambda: [variant]))
    from castell_dsl.runtime.loading import load_report

    report = load_report("castell", ("adjuster",))
    assert [d.code for d in report.diagnostics] == ["E0280"]
    assert "plugin 'adjuster' failed in hook 'variant adjuster'" in report.diagnostics[0].message
    capsys.readouterr()
    assert main(["simulate", "--games", "1", "--players", "2", "--variant", "adjuster"]) == 1
    err = capsys.readouterr().err
    assert "E0280" in err and "internal error" not in err


def _unchanged(editor: Any, options: Any) -> None:
    """A code variant that changes nothing."""


def test_no_fake_plugin_leaks(capsys):
    reset()
    assert "aaa_broken" not in get_plugins().infos
    assert sys.modules.get("thief") is None
