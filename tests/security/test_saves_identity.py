"""Saves record the rules exactly as played, so every game can be reloaded (defect class 1).

A game played with `--rules my-variant.castell` (a file that `extends`) used to be saved with
the base file's identity, so `replay` and `play --load` refused it; relative paths broke a
replay from another directory. These tests play such games and reload them from elsewhere,
and check that a refusal happens only when the rules truly differ, naming the changed file.
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
    assert record["rules"]["file"]["path"] == str((here / "my-variant.castell").resolve())
    assert record["rules"]["file"]["bundled"] is None
    paths = [f["path"] for f in record["rules"]["files"]]
    assert str((here / "my-variant.castell").resolve()) in paths
    assert any(p.endswith("castell.castell") for p in paths)  # the base it extends

    monkeypatch.chdir(elsewhere)
    game = replay(read_save(here / "game.json"))
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


def test_variants_are_recorded_by_name_path_and_hash(places):
    rules = load_rules("castell", ("short-season", "no-regions"))
    record = save_record(_played(rules).game)
    assert [v["name"] for v in record["rules"]["variants"]] == ["short-season", "no-regions"]
    for file_variant in record["rules"]["variants"]:
        assert Path(file_variant["path"]).is_absolute()
        assert file_variant["sha256"].startswith("sha256:")
    assert record["rules"]["file"]["bundled"] == "castell"
    assert replay(json.loads(json.dumps(record))).state_hash() == record["state_hash"]


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
    assert f"{rule_file.resolve()} changed" in message
    assert "castell.castell" not in message  # the base did not change and is not blamed


def test_a_rule_file_that_is_gone_is_named_and_rules_override_it(places, tmp_path):
    here, _ = places
    rule_file = here / "my-variant.castell"
    rule_file.write_text(VARIANT)
    write_save(here / "g.json", save_record(_played(load_rules(str(rule_file))).game))
    moved = tmp_path / "moved.castell"
    rule_file.rename(moved)
    with pytest.raises(SaveError, match="no longer exists"):
        replay(read_save(here / "g.json"))
    assert replay(read_save(here / "g.json"), rules_path=str(moved))
    result = CliRunner().invoke(cli, ["replay", str(here / "g.json"), "--rules", str(moved)])
    assert result.exit_code == 0, result.output


def test_saves_of_the_previous_format_are_still_read(places):
    game = _played(load_rules("castell")).game
    record = save_record(game)
    record["format"] = "castell-save/1"
    record["rules"] = {
        "name": "castell",
        "source": "castell",
        "hash": game.rules.hash,
        "variants": [],
    }
    assert replay(json.loads(json.dumps(record))).state_hash() == game.state_hash()


def test_an_old_save_of_a_file_that_extends_says_how_to_replay_it(places):
    here, _ = places
    (here / "my-variant.castell").write_text(VARIANT)
    game = _played(load_rules("my-variant.castell")).game
    record = save_record(game)
    record["format"] = "castell-save/1"
    record["rules"] = {"name": "castell", "source": "castell", "hash": game.rules.hash}
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
