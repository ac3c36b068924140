"""Plugins the pluggy way: discovery, code variants beside variant files, robustness,
debugging switches."""

from __future__ import annotations

import json

import pluggy
import pytest
from click.testing import CliRunner

from castell_dsl import hookimpl, new_game
from castell_dsl.cli import cli, main
from castell_dsl.runtime.loading import load_report
from castell_dsl.runtime.plugins import get_plugins, registries, reset


@pytest.fixture(autouse=True)
def fresh_plugins(monkeypatch):
    """Each test starts with freshly discovered plugins and ends with them reset."""
    reset()
    yield
    reset()


def trainable(game) -> list[str]:
    return sorted(a.text for a in game.legal_actions() if a.kind == "train")


class TiedTokens:
    """A plugin registering a code variant: a tied size token goes to nobody (C-9.5)."""

    @hookimpl
    def register_variants(self):
        from castell_dsl.contract import Variant

        def nobody(editor, options):
            block = editor.rules.one("festival_rules")
            editor.replace("festival_rules", block.replace(size_token_tie="nobody"))

        return [Variant("tied-tokens", "a tied size token is discarded", ("castell",), nobody)]


def register_tied_tokens() -> None:
    get_plugins().manager.register(TiedTokens(), name="tied_tokens")


def test_c6_4_no_regions_all_regions_tile_trainable_only_in_the_standard_game(arrange_wheel):
    """C-3.2, C-4.5, C-6.4: the same position; the All Regions tile is trainable in the
    standard game, and not on the No Regions side of the wheel (the variant file
    `rules/castell/variants/no-regions.castell`)."""
    standard = new_game("castell", players=2, seed=1)
    advanced = new_game("castell", players=2, seed=1, variants=("no-regions",))
    assert advanced.view()["table"]["shared_sectors"] == []
    assert "no_regions" in advanced.view()["table"]["wheel"]
    arrange_wheel(standard, {"Girona": "mix", "all_regions": "balance"})
    arrange_wheel(advanced, {"Girona": "mix", "no_regions": "balance"})
    for game in (standard, advanced):
        game.apply("move Girona")
    assert trainable(standard) == ["train balance", "train mix"]
    assert trainable(advanced) == ["train mix"]
    assert advanced.explain("train balance").code == "not-on-wheel"


def test_no_regions_is_used_by_simulate():
    result = CliRunner().invoke(
        cli, ["simulate", "--variant", "no-regions", "--games", "2", "--format", "jsonl"]
    )
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2


def test_file_and_code_variants_combine():
    register_tied_tokens()
    report = load_report("castell", ("tied-tokens", "no-regions", "generous-prizes"))
    assert report.ok, report.diagnostics
    assert report.rules.variants == ("tied-tokens", "no-regions", "generous-prizes")
    assert report.rules.get("prize", "trophy").points == 7
    assert report.rules.one("wheel").shared_sectors == ()
    assert report.rules.one("festival_rules").size_token_tie == "nobody"


def test_a_file_and_a_code_variant_changing_the_same_thing_conflict(tmp_path, monkeypatch):
    monkeypatch.setenv("CASTELL_RULES_PATH", str(tmp_path))
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "tie-file.castell").write_text(
        'extends "castell"\noverride festival_rules { size_token_tie nobody }\n'
    )
    register_tied_tokens()
    report = load_report("castell", ("tie-file", "tied-tokens"))
    (diag,) = [d for d in report.diagnostics if d.code == "E0273"]
    assert "'tie-file'" in diag.message and "'tied-tokens'" in diag.message


def test_castell_plugins_json_lists_built_ins_with_their_hooks():
    result = CliRunner().invoke(cli, ["plugins", "--format", "json"])
    assert result.exit_code == 0
    plugins = {p["name"]: p for p in json.loads(result.stdout)["plugins"]}
    assert plugins["castell"]["source"] == "built-in"
    assert plugins["castell"]["hooks"] == [
        "default_rules",
        "register_commands",
        "register_mechanics",
        "register_rule_paths",
        "register_web_assets",
    ]
    assert plugins["castell"]["provides"]["mechanics"] == ["castell"]
    assert "random" in plugins["bots"]["provides"]["bots"]


def test_disabling_a_built_in_plugin_removes_its_feature_only(monkeypatch):
    """A game is one plugin: disabling it removes its rule files and its mechanics together,
    and every other game keeps working."""
    monkeypatch.setenv("CASTELL_DISABLE_PLUGINS", "calico")
    reset()
    report = load_report("calico")
    assert [d.code for d in report.diagnostics] == ["E0271"]  # no rule set named 'calico'
    assert "calico" not in registries().mechanics
    assert load_report("castell", ("no-regions",)).ok
    game = new_game("castell", players=2, seed=3)
    assert game.legal_actions()


def write_broken_distribution(root, module_source: str, name: str = "broken") -> None:
    """A fake installed distribution whose entry point is `module_source`."""
    (root / f"{name}_plugin.py").write_text(module_source)
    info = root / f"{name}_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[castell_dsl]\n{name} = {name}_plugin\n")


def test_a_plugin_that_fails_to_import_is_named_and_the_rest_works(tmp_path, monkeypatch, capsys):
    write_broken_distribution(tmp_path, "raise ImportError('no module named frobnicate')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    reset()
    plugins = get_plugins()
    assert plugins.infos["broken"].error == "ImportError: no module named frobnicate"
    err = capsys.readouterr().err
    assert "plugin 'broken' (broken-plugin 1.0) failed to load" in err
    assert load_report("castell").ok
    assert main(["plugins", "--format", "json"]) == 0
    rows = {p["name"]: p for p in json.loads(capsys.readouterr().out)["plugins"]}
    assert rows["broken"]["error"].startswith("failed to load: ImportError")


def test_a_plugin_raising_in_a_hook_is_named_with_the_hook(tmp_path, monkeypatch, capsys):
    write_broken_distribution(
        tmp_path,
        "from castell_dsl import hookimpl\n"
        "@hookimpl\n"
        "def game_event(game, event):\n"
        "    raise RuntimeError('observer exploded')\n",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    reset()
    code = main(["simulate", "--games", "1", "--format", "jsonl"])
    err = capsys.readouterr().err
    assert code == 1
    assert "plugin 'broken' failed in hook 'game_event': RuntimeError: observer exploded" in err
    assert "Traceback" not in err


def test_a_code_variant_raising_is_a_diagnostic_naming_its_plugin(monkeypatch):
    from castell_dsl.contract import Variant

    def explode(editor, options):
        raise ValueError("bad adjustment")

    class Exploding:
        @hookimpl
        def register_variants(self):
            return [Variant("exploding", "explodes", ("castell",), explode)]

    reset()
    get_plugins().manager.register(Exploding(), name="exploding")
    report = load_report("castell", ("exploding",))
    assert report.rules is None
    assert [d.code for d in report.diagnostics] == ["E0280"]
    message = report.diagnostics[0].message
    assert "plugin 'exploding' failed in hook 'variant exploding'" in message
    assert "ValueError: bad adjustment" in message


def test_a_misspelt_hook_is_named_with_the_hook_it_meant(capsys):
    """pluggy's check_pending, after loading: `register_bot` is no hook; the plugin is named,
    its other hooks keep working, and `castell plugins` lists the failure."""

    class Misspelt:
        @hookimpl
        def register_bot(self):
            return []

        @hookimpl
        def default_rules(self):
            return None

    reset()
    plugins = get_plugins()
    plugins.manager.register(Misspelt(), name="misspelt")
    plugins.check_pending()
    (failure,) = [f for f in plugins.failures if f.plugin == "misspelt"]
    assert failure.hook == "register_bot"
    assert "no hook is named 'register_bot' (did you mean 'register_bots'?)" in str(failure)
    assert "register_bot" in capsys.readouterr().err
    assert plugins.call("default_rules") == ["castell"]  # the first answer, through pluggy


def test_hooks_are_called_through_pluggy_and_a_failure_keeps_the_others(monkeypatch):
    """A plugin failing in a registration hook is skipped; the built-ins' answers stay."""

    class Failing:
        @hookimpl
        def register_bots(self):
            raise RuntimeError("no bots today")

    reset()
    plugins = get_plugins()
    plugins.manager.register(Failing(), name="failing")
    called = []
    original = pluggy.HookCaller.__call__
    monkeypatch.setattr(
        pluggy.HookCaller,
        "__call__",
        lambda self, **kw: called.append(self.name) or original(self, **kw),
    )
    names = [bot.name for bot in plugins.collect("register_bots")]
    assert called == ["register_bots"] and {"random", "greedy", "mcts"} <= set(names)
    assert any(f.plugin == "failing" and f.hook == "register_bots" for f in plugins.failures)
    reset()


def test_no_plugins_loads_built_ins_only(tmp_path, monkeypatch, capsys):
    write_broken_distribution(tmp_path, "x = 1\n", name="extra")
    monkeypatch.syspath_prepend(str(tmp_path))
    reset()
    assert main(["--no-plugins", "plugins", "--format", "json"]) == 0
    names = [p["name"] for p in json.loads(capsys.readouterr().out)["plugins"]]
    assert "extra" not in names and "castell" in names


def test_trace_hooks_logs_every_hook_call(monkeypatch, capsys):
    monkeypatch.setenv("CASTELL_TRACE_HOOKS", "1")
    reset()
    load_report("castell")
    err = capsys.readouterr().err
    assert "castell: hook register_mechanics -> castell" in err


def test_hook_reference_in_docs_is_current():
    """docs/plugins.md renders every hookspec (regenerate: castell plugins --reference)."""
    from pathlib import Path

    from castell_dsl.cli.plugins import hook_reference

    docs = (Path(__file__).resolve().parents[2] / "docs" / "plugins.md").read_text()
    assert hook_reference().strip() in docs


def test_each_distribution_metadata_is_read_once_with_the_same_descriptions(monkeypatch):
    """castell-dsl has nine entry points and its metadata holds the whole README: reading it
    once per distribution, not twice per entry point, describes every plugin the same way."""
    from castell_dsl.runtime import plugins

    entry_points = plugins._entry_points()
    one_by_one = [plugins._describe(ep) for ep in entry_points]
    reads: dict[int, int] = {}
    for kind in {type(ep.dist) for ep in entry_points}:

        def counted(self, original=kind.metadata):
            reads[id(self)] = reads.get(id(self), 0) + 1
            return original.fget(self)

        monkeypatch.setattr(kind, "metadata", property(counted))
    identities: dict[int, tuple[str | None, str | None]] = {}
    assert [plugins._describe(ep, identities) for ep in entry_points] == one_by_one
    assert len(entry_points) > len(reads) and set(reads.values()) == {1}
