"""Saves record the rules exactly as played, portably and privately (defect classes 1 and 7).

A game played with `--rules my-variant.castell` (a file that `extends`) used to be saved with
the base file's identity, so `replay` and `play --load` refused it; relative paths broke a
replay from another directory; then absolute paths named the machine that wrote the save. A
castell-save/3 names installed rules by name and a user's files relative to the rule path or the
working directory, with content hashes: these tests play such games and reload them from
elsewhere (another directory, another install location of the rule path), check that no
absolute path of the writer is in the file, and that a refusal happens only when the rules truly
differ, naming the changed file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from castell_dsl.cli import cli
from castell_dsl.runtime.bots import make_bot
from castell_dsl.runtime.loading import load_rules
from castell_dsl.runtime.saves import (
    SAVE_FORMAT,
    SaveError,
    read_save,
    replay,
    save_record,
    write_save,
)
from castell_dsl.runtime.session import Session

VARIANT = 'extends "castell"\noverride prize trophy { points 9 }\n'


@pytest.fixture
def places(tmp_path, monkeypatch):
    """A directory where the game is played and another one to replay it from."""
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    monkeypatch.setenv("CASTELL_SAVE_DIR", str(tmp_path / "saves"))
    monkeypatch.chdir(here)
    return here, elsewhere


def _played(rules, seed: int = 4, moves: int = 12):
    session = Session(rules, 2, seed, ["random", "random"])
    for _ in range(moves):
        if session.game.is_over():
            break
        session.bot_move()
    return session


def test_a_game_of_a_file_that_extends_reloads_from_another_directory(places, monkeypatch):
    here, elsewhere = places
    (here / "my-variant.castell").write_text(VARIANT)
    session = _played(load_rules("my-variant.castell"))
    session.save(here / "game.json")
    record = read_save(here / "game.json")
    assert record["format"] == SAVE_FORMAT
    mine = {"on": "working directory", "path": "my-variant.castell"}
    assert record["rules"]["given"]["file"].items() >= mine.items()
    files = [(f["on"], f.get("beside"), f["path"]) for f in record["rules"]["files"]]
    assert ("working directory", None, "my-variant.castell") in files
    assert ("rule path", "castell", "castell.castell") in files  # the base it extends

    monkeypatch.chdir(elsewhere)
    game = replay(read_save(here / "game.json"), beside=here)  # the variant is beside the save
    assert game.state_hash() == session.game.state_hash()
    loaded = Session.load(here / "game.json")
    assert loaded.game.log == session.game.log
    result = CliRunner().invoke(cli, ["replay", str(here / "game.json")])
    assert result.exit_code == 0, result.output
    assert "verified" in result.stdout


def test_the_cli_path_play_then_replay_elsewhere(places, monkeypatch):
    here, elsewhere = places
    (here / "my-variant.castell").write_text(VARIANT)
    played = CliRunner().invoke(
        cli,
        ["play", "--rules", "my-variant.castell", "--players", "you,random", "--seed", "1",
         "--save-to", "g.json"],
        input="end\n",
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    monkeypatch.chdir(elsewhere)
    again = CliRunner().invoke(cli, ["play", "--load", str(here / "g.json")], input="")
    assert again.exit_code == 0, again.output
    assert "changed" not in again.output


def test_variants_are_recorded_by_name_portable_path_and_hash(places):
    rules = load_rules("castell", ("short-season", "no-regions"))
    record = save_record(_played(rules).game)
    assert [v["name"] for v in record["rules"]["variants"]] == ["short-season", "no-regions"]
    for variant in record["rules"]["variants"]:
        assert variant["file"]["on"] == "rule path" and variant["file"]["beside"] == "castell"
        assert variant["file"]["path"] == f"variants/{variant['name']}.castell"
        assert variant["file"]["sha256"].startswith("sha256:")
    assert record["rules"]["given"] == {"name": "castell"}
    assert replay(json.loads(json.dumps(record))).state_hash() == record["state_hash"]


def _strings(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, str):
        yield value


def test_a_save_holds_no_absolute_path_of_the_machine(places, tmp_path, monkeypatch):
    """Installed rules, a variant given by path, a file outside the working directory: no
    string of the save is an absolute path or names the directories it was played in."""
    here, _ = places
    (here / "my-variant.castell").write_text(VARIANT)
    (tmp_path / "far.castell").write_text('extends "castell"\noverride prize medal { points 4 }\n')
    cases = [
        load_rules("calico", ("family",)),
        load_rules("my-variant.castell"),
        load_rules("castell", (str(tmp_path / "far.castell"),)),
    ]
    for rules in cases:
        session = _played(rules)
        saved = session.save(here / "game.json")
        text = Path(saved).read_text()
        for string in _strings(json.loads(text)):
            assert not string.startswith(("/", "~")) and ":\\" not in string, string
        for private in (str(tmp_path), str(Path.home()), str(Path(__file__).parents[2])):
            assert private not in text
    far = read_save(here / "game.json")["rules"]["variants"][0]["file"]
    assert far["on"] == "elsewhere" and far["path"] == "far.castell"


def test_a_save_replays_where_the_rule_path_is_installed_elsewhere(tmp_path, monkeypatch):
    """A user's rule directory (CASTELL_RULES_PATH) moved to another place, as on another
    machine: the save names it by the directory's own name and replays."""
    first, second = tmp_path / "one" / "my-rules", tmp_path / "two" / "my-rules"
    (first / "variants").mkdir(parents=True)
    (first / "variants" / "big-trophy.castell").write_text(VARIANT)
    monkeypatch.setenv("CASTELL_RULES_PATH", str(first))
    monkeypatch.chdir(tmp_path)
    record = save_record(_played(load_rules("castell", ("big-trophy",))).game)
    (variant,) = record["rules"]["variants"]
    assert variant["file"]["dir"] == "my-rules"  # a directory holding no rule set
    assert variant["file"]["path"] == "variants/big-trophy.castell"
    assert str(first) not in json.dumps(record)
    first.rename(tmp_path / "gone")
    (tmp_path / "two").mkdir()
    (tmp_path / "gone").rename(second)
    monkeypatch.setenv("CASTELL_RULES_PATH", str(second))
    assert replay(json.loads(json.dumps(record))).state_hash() == record["state_hash"]
    second.joinpath("variants", "big-trophy.castell").write_text(VARIANT.replace("9", "8"))
    with pytest.raises(SaveError, match=r"my-rules/variants/big-trophy\.castell changed"):
        replay(record)


def test_a_server_reading_a_strangers_save_loads_installed_rules_only(places):
    """`installed_only`: a save naming a file is refused without the file being read."""
    here, _ = places
    (here / "my-variant.castell").write_text(VARIANT)
    record = save_record(_played(load_rules("my-variant.castell")).game)
    with pytest.raises(SaveError, match="not an installed rule set"):
        replay(record, installed_only=True)
    installed = save_record(_played(load_rules("castell", ("short-season",))).game)
    assert replay(installed, installed_only=True).state_hash() == installed["state_hash"]


def test_a_change_that_does_not_change_the_rules_is_accepted(places):
    here, _ = places
    rule_file = here / "my-variant.castell"
    rule_file.write_text(VARIANT)
    record = save_record(_played(load_rules(str(rule_file))).game)
    rule_file.write_text("# only a comment more\n" + VARIANT)
    assert replay(record).state_hash() == record["state_hash"]


def test_a_real_change_is_refused_naming_the_file_that_changed(places):
    here, _ = places
    rule_file = here / "my-variant.castell"
    rule_file.write_text(VARIANT)
    record = save_record(_played(load_rules(str(rule_file))).game)
    rule_file.write_text(VARIANT.replace("9", "8"))
    with pytest.raises(SaveError) as caught:
        replay(record)
    message = str(caught.value)
    assert "have changed" in message
    assert "my-variant.castell changed" in message
    assert "castell.castell" not in message.replace("my-variant.castell", "")  # not the base


def test_a_rule_file_that_is_gone_is_named_and_rules_override_it(places, tmp_path):
    here, _ = places
    rule_file = here / "my-variant.castell"
    rule_file.write_text(VARIANT)
    write_save(here / "g.json", save_record(_played(load_rules(str(rule_file))).game))
    moved = tmp_path / "moved.castell"
    rule_file.rename(moved)
    with pytest.raises(SaveError, match=r"my-variant\.castell, is not found"):
        replay(read_save(here / "g.json"))
    assert replay(read_save(here / "g.json"), rules_path=str(moved))
    result = CliRunner().invoke(cli, ["replay", str(here / "g.json"), "--rules", str(moved)])
    assert result.exit_code == 0, result.output


def test_saves_of_the_previous_formats_are_still_read(places):
    """castell-save/1 and /2 recorded the hash without the order of named entries
    (`RuleSet.legacy_hash`), and /2 absolute paths."""
    game = _played(load_rules("castell")).game
    record = save_record(game)
    record["format"] = "castell-save/1"
    record["rules"] = {
        "name": "castell",
        "source": "castell",
        "hash": game.rules.legacy_hash,
        "variants": [],
    }
    assert replay(json.loads(json.dumps(record))).state_hash() == game.state_hash()
    base = str(load_rules("castell").sources[0])
    record["format"] = "castell-save/2"
    record["rules"] = {
        "name": "castell",
        "hash": game.rules.legacy_hash,
        "file": {"path": str(Path(base).resolve()), "sha256": None, "bundled": "castell"},
        "variants": [],
        "files": [],
    }
    assert replay(json.loads(json.dumps(record))).state_hash() == game.state_hash()


def test_an_old_save_of_a_file_that_extends_says_how_to_replay_it(places):
    here, _ = places
    (here / "my-variant.castell").write_text(VARIANT)
    game = _played(load_rules("my-variant.castell")).game
    record = save_record(game)
    record["format"] = "castell-save/1"
    record["rules"] = {"name": "castell", "source": "castell", "hash": game.rules.legacy_hash}
    with pytest.raises(SaveError, match="--rules FILE"):
        replay(record)
    assert replay(record, rules_path="my-variant.castell").state_hash() == game.state_hash()


def test_bots_still_play_identically_after_a_reload(places):
    rules = load_rules("castell")
    session = _played(rules, moves=6)
    again = replay(json.loads(json.dumps(save_record(session.game))))
    bot = make_bot("greedy", rules, again.current_player, again.seed)
    assert bot.choose(again) == make_bot(
        "greedy", rules, session.game.current_player, session.game.seed
    ).choose(session.game)
