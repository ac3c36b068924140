"""`castell tower check` and `castell tower best`, and the library API (C-5, C-6, C-9.2, C-9.3)."""

from __future__ import annotations

import json

import castell_game.api
import pytest
from click.testing import CliRunner

from castell_dsl.cli import cli, main


def run(*args: str):
    return CliRunner().invoke(cli, ["tower", *args])


def test_check_draws_the_tower_wide_levels_below():
    """C-5.1-C-5.3: a 3-2-1 tower needs no skill."""
    result = run("check", "5,5,5/4,4/3")
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        "    [3]",
        "  [4] [4]",
        "[5] [5] [5]",
        "legal: uses no skills",
    ]


def test_check_json_contract_for_a_legal_tower():
    """C-6.2 Balance: equal counts on adjacent levels use Balance once."""
    result = run("check", "5,5,5/4,4,4/3", "--rank", "balance=1", "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "legal": True,
        "uses": {"balance": 1, "base": 0, "mix": 0, "strength": 0, "width": 0},
        "reason": None,
    }


def test_check_illegal_tower_says_why_and_exits_1():
    result = run("check", "5,5,5/4,4,4/3", "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "legal": False,
        "uses": None,
        "reason": "level 2 has 3 castellers, as many as level 1 below it: that needs Balance, "
        "and your Balance rank is 0",
    }


def test_check_with_needs_and_shape_adds_meets():
    """C-8.3 shape and C-8.4 exhibition: a 4-wide bottom under Width uses Width."""
    result = run("check", "6,6,6,6/5,5/4", "--rank", "width=1", "--needs", "width",
                 "--levels", "3", "--format", "json")  # fmt: skip
    assert json.loads(result.stdout)["meets"] is True
    shaped = run("check", "5,5,5/4,4/3", "--shape", "3-2-2", "--format", "json")
    assert json.loads(shaped.output)["meets"] is False
    assert shaped.exit_code == 1


def test_best_json_contract():
    """C-9.2, C-9.3: at least one 6, at least four levels; score = levels + sixes."""
    result = run(
        "best", "--team", "1,2,2,5,6,6,6,5,5,4,3", "--rank", "balance=1", "--size", "6",
        "--min-levels", "4", "--format", "json",
    )  # fmt: skip
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "found": True,
        "score": 7,
        "levels": [[6, 6, 6], [5, 5, 5], [2, 2], [1]],
        "uses": {"balance": 1, "base": 0, "mix": 0, "strength": 0, "width": 0},
    }


def test_best_when_nothing_is_possible():
    """C-5.4: without Balance the tallest tower has 3 levels, so 4 cannot be met."""
    result = run("best", "--team", "1,2,3,4,5", "--min-levels", "4", "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "found": False,
        "score": None,
        "levels": None,
        "uses": None,
    }


@pytest.mark.parametrize(
    "args, message",
    [
        (["check", "5,x/4"], "'x' in level 1 is not a casteller number"),
        (["best", "--team", ""], "--team needs at least one casteller number"),
        (["best", "--team", "1,2", "--rank", "balance=-1"], "cannot be negative"),
        (["best", "--team", "1,2", "--rank", "balanse=1"], "unknown skill 'balanse'"),
        (["check", "5/4", "--rank", "mix"], "--rank takes SKILL=N"),
        (["check", "5/4", "--shape", "3-x"], "--shape takes castellers per level"),
        (["check", "5/4", "--needs", "flying"], "unknown skill 'flying'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message, capsys):
    assert main(["tower", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert message in err
    assert "Traceback" not in err


def test_library_api_matches_the_cli():
    assert castell_game.api.check_tower([[5, 5, 5], [4, 4], [3]], {}) == {
        "legal": True,
        "uses": {"balance": 0, "base": 0, "mix": 0, "strength": 0, "width": 0},
        "reason": None,
    }
    team = [1, 2, 2, 5, 6, 6, 6, 5, 5, 4, 3]
    best = castell_game.api.best_tower(team, {"balance": 1}, sizes=(6,), min_levels=4)
    assert best["score"] == 7 and best["levels"][0] == [6, 6, 6]


def test_an_exhibition_counts_its_levels():
    """C-8.4: an exhibition is a tower of exactly its points in levels using its skills: the
    same Width tower meets a 3-level exhibition of width, not a 4-level one, and --needs
    without the level count is refused rather than half-checked."""
    tower = ("check", "6,6,6,6/5,5/4", "--rank", "width=1", "--needs", "width")
    assert json.loads(run(*tower, "--levels", "3", "--format", "json").stdout)["meets"] is True
    four = run(*tower, "--levels", "4", "--format", "json")
    assert json.loads(four.stdout)["meets"] is False and four.exit_code == 1
    alone = run(*tower)
    assert alone.exit_code == 2 and "give --levels N with --needs" in alone.output


def test_check_a_tile_by_name():
    """C-8.3: LP07's shape 4-3-2-1-1 (Base for the 4-wide bottom, Balance for the two 1s)."""
    ranks = ("--rank", "base=1", "--rank", "balance=1")
    ok = run("check", "8,8,8,8/7,7,7/6,6/5/4", "--tile", "lp07", *ranks)
    assert ok.exit_code == 0 and ok.output.splitlines()[-1] == "meets LP07"
    short = run("check", "8,8,8/7,7/6/5", "--tile", "LP07", *ranks)
    assert short.exit_code == 1
    assert short.output.splitlines()[-2:] == [
        "does not meet LP07",
        "LP07 needs the shape 4-3-2-1-1 (castellers per level, bottom first)",
    ]
    exhibition = run("check", "8,7/6/5/4", "--tile", "LP22", "--rank", "mix=1", "--rank",
                     "balance=2", "--format", "json")  # fmt: skip
    assert json.loads(exhibition.stdout)["why"] == [
        "LP22 needs a tower of exactly 5 levels that uses Balance and Mix"
    ]
    assert run("check", "5/4", "--tile", "LP99").exit_code == 2
