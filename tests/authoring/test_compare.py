"""Item 3: `castell compare` plays paired games and reports differences with intervals."""

from __future__ import annotations

import json
import math

import pytest

from castell_dsl.runtime.compare import (
    mean_interval,
    paired_difference,
    parse_contender,
    t_quantile,
)

GAMES = "30"


@pytest.fixture(scope="module")
def compared(tmp_path_factory, eight_rounds_text):
    """One comparison, shared by the tests that read it (30 games of each rule set)."""
    import os

    from click.testing import CliRunner

    from castell_dsl.cli import cli

    where = tmp_path_factory.mktemp("compare")
    (where / "eight-rounds.castell").write_text(eight_rounds_text)
    old = os.getcwd()
    os.chdir(where)
    try:
        args = ["compare", "castell", "./eight-rounds.castell", "--games", GAMES, "--players",
                "2", "--bots", "greedy", "--seed", "7", "--format", "json"]  # fmt: skip
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
        jobs = CliRunner().invoke(cli, [*args, "--jobs", "2"], catch_exceptions=False)
    finally:
        os.chdir(old)
    assert result.exit_code == 0, result.output
    return json.loads(result.output), json.loads(jobs.output)


def test_the_report_has_paired_differences_with_intervals(compared):
    data, _ = compared
    assert data["games"] == 30 and data["base"] == "castell" and "paired t" in data["method"]
    assert [s["label"] for s in data["rule_sets"]] == ["castell", "./eight-rounds.castell"]
    [diff] = data["differences"]
    assert diff["label"] == "./eight-rounds.castell" and diff["versus"] == "castell"
    rounds = diff["length"]["rounds"]
    assert rounds["mean"] == -2 and rounds["ci95"] == [-2, -2]
    total = diff["scores"]["total"]
    low, high = total["ci95"]
    assert low <= total["mean"] <= high and total["n"] == 30
    assert set(diff["scores"]) >= {"total", "prizes", "local_performances"}
    base = data["rule_sets"][0]
    assert base["length"]["rounds"]["mean"] == 10
    assert len(base["seats"]) == 2 and len(base["positions"]) == 2
    assert all(0 <= r["win_rate_95"][0] <= r["win_rate"] <= r["win_rate_95"][1] <= 1
               for r in base["seats"] + base["positions"])  # fmt: skip
    # items of the players' list facts, generically: the tiles and prizes held at the end
    assert any(name.startswith("performances:LP") for name in base["items"])
    assert any(name.startswith("prizes:") for name in diff["items"])


def test_the_difference_is_the_mean_of_per_game_differences(compared):
    data, _ = compared
    base, other = data["rule_sets"]
    diff = data["differences"][0]["scores"]["total"]["mean"]
    assert diff == pytest.approx(other["scores"]["total"]["mean"] - base["scores"]["total"]["mean"],
                                 abs=1e-3)  # fmt: skip


def test_jobs_do_not_change_the_report(compared):
    data, with_jobs = compared
    assert data == with_jobs


def test_parsing_rule_sets(workdir):
    assert parse_contender("castell").variants == ()
    plus = parse_contender("castell+short-season")
    assert (plus.rules, plus.variants) == ("castell", ("short-season",))
    path = parse_contender("./eight-rounds.castell")
    assert path.rules == str(workdir / "eight-rounds.castell") and path.variants == ()
    mixed = parse_contender("castell+./eight-rounds.castell")
    assert mixed.variants == (str(workdir / "eight-rounds.castell"),)


def test_statistics():
    assert t_quantile(1) == 12.706 and t_quantile(30) == 2.042
    assert t_quantile(60) == pytest.approx(2.0003, abs=1e-3)
    assert t_quantile(10**6) == pytest.approx(1.95997, abs=1e-4)
    stat = mean_interval([1, 2, 3, 4])
    half = 3.182 * math.sqrt(5 / 3) / 2
    assert stat["mean"] == 2.5 and stat["ci95"] == [round(2.5 - half, 4), round(2.5 + half, 4)]
    diff = paired_difference([1, 2, 3, 4], [2, 3, 5, 5])  # differences 1, 1, 2, 1
    assert diff["mean"] == 1.25 and diff["significant"]
    assert not paired_difference([1, 2, 3], [2, 3, 5])["significant"]  # t(2) is wide


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_plot_writes_an_image(workdir, run, suffix):
    pytest.importorskip("matplotlib")
    out = workdir / f"scores.{suffix}"
    result = run("compare", "castell", "castell+short-season", "--games", "4", "--players",
                 "2", "--bots", "random", "--plot", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    if suffix == "png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
    else:
        assert b"<svg" in data[:2000] and data.rstrip().endswith(b"</svg>")


def test_plot_needs_a_known_extension(workdir, run):
    result = run("compare", "castell", "castell+short-season", "--games", "2", "--plot", "x.gif")
    assert result.exit_code == 2 and ".png or .svg" in result.output


def test_plot_without_matplotlib_is_a_clear_error(workdir, run, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name)
    )
    result = run("compare", "castell", "castell+short-season", "--games", "2", "--plot", "x.png")
    assert result.exit_code == 2 and "matplotlib is not installed" in result.output


def test_a_broken_variant_is_diagnosed_before_playing(workdir, run):
    result = run("compare", "castell", "./only-rounds.castell", "--games", "2")
    assert result.exit_code == 1 and "only-rounds.castell:3" in result.output


def test_text_output(workdir, run):
    result = run("compare", "castell", "castell+short-season", "--games", "3", "--players", "2")
    assert result.exit_code == 0, result.output
    assert "castell+short-season - castell" in result.output
    assert "wins by turn position" in result.output and "game length" in result.output
