"""`save_game` / `load_game` / `save_data`: the castell-save/3 format from a program — the
same game back, portable (no absolute path of the writer's machine), refused when altered, and
`installed_only` for a stranger's save."""

from __future__ import annotations

import json

import pytest

from castell_dsl import SaveError, load_game, make_bot, new_game, save_data, save_game
from castell_dsl.runtime.saves import SAVE_FORMAT, read_save


def advance(game, actions: int) -> None:
    bots = [make_bot("greedy", game.rules, seat, game.seed) for seat in range(game.players)]
    for _ in range(actions):
        if game.is_over():
            return
        game.apply(bots[game.current_player].choose(game))


def test_a_saved_game_loads_as_the_same_game_and_plays_on_identically(tmp_path):
    game = new_game("castell", 3, seed=12, variants=("short-season",))
    advance(game, 25)
    path = save_game(game, tmp_path / "game.json", seats=["you", "greedy", "greedy"])
    loaded = load_game(path)
    assert loaded.log == game.log and loaded.state_hash() == game.state_hash()
    assert loaded.rules.content_hash == game.rules.content_hash
    assert read_save(path)["seats"] == ["you", "greedy", "greedy"]
    advance(game, 10)
    advance(loaded, 10)
    assert loaded.state_hash() == game.state_hash()


def test_the_save_is_castell_save_3_and_names_no_path_of_this_machine(tmp_path, monkeypatch):
    """A user's rule file is named relative to where it was played; nothing absolute."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.castell").write_text(
        'extends "castell"\n\noverride prize trophy { points 6 }\n'
    )
    game = new_game("./mine.castell", 2, seed=3)
    advance(game, 5)
    path = save_game(game, tmp_path / "mine-save.json")
    text = path.read_text(encoding="utf-8")
    record = json.loads(text)
    assert record["format"] == SAVE_FORMAT
    assert str(tmp_path) not in text and str(tmp_path.resolve()) not in text
    assert record["rules"]["given"]["file"] == {
        "on": "working directory",
        "path": "mine.castell",
        "sha256": record["rules"]["given"]["file"]["sha256"],
    }
    assert load_game(path).state_hash() == game.state_hash()


def test_installed_only_never_opens_a_file_the_save_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.castell").write_text(
        'extends "castell"\n\noverride prize trophy { points 6 }\n'
    )
    record = save_data(new_game("./mine.castell", 2, seed=3))
    with pytest.raises(SaveError, match="not an installed rule set"):
        load_game(record, installed_only=True)
    installed = save_data(new_game("calico", 2, seed=3))
    assert load_game(installed, installed_only=True).state_hash() == installed["state_hash"]


def test_an_altered_save_is_refused_with_a_reason(tmp_path):
    game = new_game("calico", 2, seed=6)
    advance(game, 8)
    record = save_data(game)
    record["actions"][3] = record["actions"][2]
    with pytest.raises(SaveError, match="action 4"):
        load_game(record)
    forged = save_data(game)
    forged["state_hash"] = "0" * 64
    with pytest.raises(SaveError, match="state hash differs"):
        load_game(forged)
    with pytest.raises(SaveError, match="no such save file"):
        load_game(tmp_path / "missing.json")


def test_a_save_written_where_it_cannot_be_says_so(tmp_path):
    game = new_game("calico", 1, seed=0)
    with pytest.raises(SaveError, match="does not exist"):
        save_game(game, tmp_path / "no" / "such" / "dir.json")
    assert save_game(game, tmp_path / "a" / "b.json", make_parents=True).is_file()


def test_observers_of_a_loaded_game_hear_what_happens_after_loading(tmp_path):
    game = new_game("castell", 2, seed=9)
    advance(game, 6)
    heard: list[dict] = []
    loaded = load_game(save_data(game), observers=[lambda g, e: heard.append(dict(e))])
    assert heard == []  # not the replay
    assert loaded.events is not None and loaded.events[0]["type"] == "start"
    action = loaded.legal_actions()[0]
    loaded.apply(action)
    assert (heard[0]["type"], heard[0]["action"]) == ("action", action.text)
    assert heard == loaded.events[-len(heard) :]
