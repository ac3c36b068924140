"""`list_games` / `list_variants`: one catalogue of what is installed, which the web lobby and
`castell rules list` read (they build no catalogue of their own)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from castell_dsl import list_games, list_variants, load_rules, new_game
from castell_dsl.cli import cli
from castell_dsl.runtime.installed import installed_rule_sets, installed_variants

ROOT = Path(__file__).resolve().parent.parent


def test_every_installed_game_is_listed_default_first_and_starts():
    games = list_games()
    assert sorted(g.name for g in games) == sorted(installed_rule_sets())
    assert games[0].default and not any(g.default for g in games[1:])
    for game in games:
        rules = load_rules(game.name)
        assert (game.title, game.mechanics) == (str(rules.game.title), rules.game.mechanics)
        assert game.players == tuple(rules.game.players)
        assert list(game.variants) == [v.name for v in list_variants(game.name)]
        assert new_game(game.name, game.players[0], seed=1).current_player is not None


def test_each_variant_says_what_it_is_and_the_players_it_allows():
    """K-8.3: solo is for one player; scenarios in natural order (2 before 10)."""
    calico = {v.name: v for v in list_variants("calico")}
    assert set(calico) == set(installed_variants("calico"))
    assert calico["solo"].players == (1, 1) and calico["solo"].kind == "file"
    assert calico["solo"].summary.startswith("Solo (K-8.3)")
    names = list(calico)
    assert names.index("scenario-2") < names.index("scenario-10")
    for variant in calico.values():
        if variant.players is not None:
            assert variant.players == tuple(load_rules("calico", (variant.name,)).game.players)


@pytest.mark.parametrize("name", ["nope", "../rules/castell/castell", "/etc/passwd", ""])
def test_an_unknown_game_is_refused_with_the_installed_names(name):
    with pytest.raises(LookupError, match="installed are calico, castell"):
        list_variants(name)


@pytest.fixture(scope="module")
def user_directory(tmp_path_factory):
    """A user's rule directory: a game with a variant, and a broken one. One per module: a
    rule set is loaded once per process by name (`runtime.loading`'s cache), so a second
    directory holding the same name would be answered from the first."""
    tmp_path = tmp_path_factory.mktemp("user-rules")
    shutil.copy(ROOT / "rules" / "castell" / "castell.castell", tmp_path / "mycastell.castell")
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "quick.castell").write_text(
        '# Quick: a cheaper trophy.\nextends "mycastell"\n\noverride prize trophy { points 3 }\n'
    )
    (tmp_path / "broken.castell").write_text("game {\n")
    return tmp_path


@pytest.fixture
def user_games(user_directory, monkeypatch):
    """The user's rule directory on CASTELL_RULES_PATH."""
    monkeypatch.setenv("CASTELL_RULES_PATH", str(user_directory))
    return user_directory


def test_a_users_rule_directory_is_in_the_catalogue(user_games):
    names = [g.name for g in list_games()]
    assert "mycastell" in names and "broken" not in names
    [quick] = [v for v in list_variants("mycastell") if v.name == "quick"]
    assert (quick.kind, quick.summary, quick.players) == (
        "file",
        "Quick: a cheaper trophy.",
        (2, 4),
    )
    # E0274: a variant for another rule set, found in a shared directory, is not this game's
    assert "quick" not in [v.name for v in list_variants("castell")]
    assert "quick" not in next(g for g in list_games() if g.name == "calico").variants


def test_rules_list_shows_the_catalogue_and_what_does_not_load(user_games):
    result = CliRunner().invoke(cli, ["rules", "list", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [g["name"] for g in data["games"]] == [g.name for g in list_games()]
    mine = next(g for g in data["games"] if g["name"] == "mycastell")
    assert [v["name"] for v in mine["variants"]] == ["quick"]
    assert "broken" in data["not_loading"]
    text = CliRunner().invoke(cli, ["rules", "list"]).stdout
    assert "castell: Castell, 2 to 4 players, the default" in text
    assert "  --variant solo" in text and "[1 player]" in text
    assert "broken: does not load" in text


def test_the_web_lobby_reads_the_same_catalogue():
    pytest.importorskip("starlette")
    from castell_web.lobby import catalogue

    from castell_dsl.cli.services import HostServices

    catalogue.cache_clear()
    lobby = catalogue(HostServices())
    games = list_games()
    assert [g["rules"] for g in lobby] == [g.name for g in games]
    for entry, game in zip(lobby, games, strict=True):
        variants = list_variants(game.name)
        assert entry["variants"] == [v.name for v in variants]
        assert entry["players"] == list(game.players)
        assert entry["variant_players"] == {
            v.name: list(v.players) for v in variants if v.players and v.players != game.players
        }
    assert lobby[1]["variant_players"] == {"solo": [1, 1]}
