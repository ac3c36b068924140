"""`castell tournament`: round robin over every seat order, Bradley-Terry ratings with bootstrap
intervals (runtime/tournament.py). Rules: C-10.1 (each game is scored to its end; a tournament
reads only winners and totals)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from castell_dsl.cli import main
from castell_dsl.runtime.tournament import (
    TournamentError,
    bradley_terry,
    lineups,
    pairwise,
)

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["tournament", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_lineups_rotate_every_seat_order():
    assert lineups(3, 3) == [
        (0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0),
    ]  # fmt: skip
    assert lineups(2, 2) == [(0, 1), (1, 0)]
    four = lineups(2, 4)  # fewer bots than seats: every mix of them
    assert len(four) == 14 and all(len(set(order)) == 2 for order in four)
    # each bot sits in each seat equally often
    for seat in range(4):
        assert sum(order[seat] == 0 for order in four) == 7
    with pytest.raises(TournamentError):
        lineups(1, 2)


def test_pairwise_reads_winners_then_totals_and_draws_half():
    record = {"lineup": [0, 1, 2], "winners": [1], "totals": [10, 20, 10]}
    wins = pairwise(record, 3)
    assert wins[1][0] == wins[1][2] == 1
    assert wins[0][2] == wins[2][0] == 0.5
    same_bot = {"lineup": [0, 0, 1], "winners": [0], "totals": [5, 3, 1]}
    wins = pairwise(same_bot, 2)
    assert wins == [[0, 2], [0, 0]]  # a bot never plays itself


def test_bradley_terry_orders_by_strength_and_is_symmetric():
    even = bradley_terry([[0, 10], [10, 0]])
    assert even[0] == pytest.approx(1500) and even[1] == pytest.approx(1500)
    ratings = bradley_terry([[0, 30, 40], [10, 0, 30], [0, 10, 0]])
    assert ratings[0] > ratings[1] > ratings[2]
    assert sum(ratings) / 3 == pytest.approx(1500)
    # 3:1 is a win probability of 0.75 in the fit (prior aside): ~191 Elo points
    assert bradley_terry([[0, 3000], [1000, 0]])[0] - 1500 == pytest.approx(95.4, abs=0.5)


def test_same_seed_same_json_and_jobs_two_equals_one(capsys):
    args = ["--bots", "random,greedy", "-n", "8", "-p", "2", "--seed", "5", "--format", "json"]
    code, first, err = run(capsys, *args)
    assert code == 0, err
    code, again, _ = run(capsys, *args)
    code2, jobs2, _ = run(capsys, *args, "--jobs", "2")
    assert code == code2 == 0
    assert first == again == jobs2
    data = json.loads(first)
    assert data["games"] == 8 and data["rounds"] == 4 and data["lineups"] == 2
    assert {r["bot"] for r in data["ratings"]} == {"random", "greedy"}
    assert all(r["games"] == 8 for r in data["ratings"])


def test_greedy_is_rated_above_random(capsys):
    """A statistical check with a fixed seed: greedy's whole interval lies above random's."""
    code, out, err = run(
        capsys, "--bots", "random,greedy", "-n", "24", "-p", "3", "--format", "json"
    )
    assert code == 0, err
    data = json.loads(out)
    best, worst = data["ratings"]
    assert (best["bot"], worst["bot"]) == ("greedy", "random")
    assert best["rating_95"][0] > worst["rating_95"][1]
    assert data["pairwise"][0]["against"]["random"] > 0.8


def test_a_program_takes_part(capsys):
    agent = f"cmd:{sys.executable} {ROOT / 'examples' / 'agents' / 'random_agent.py'}"
    code, out, err = run(capsys, "--bots", f"random,{agent}", "-n", "2", "-p", "2",
                         "--rules", "calico", "--format", "json")  # fmt: skip
    assert code == 0, err
    assert {r["bot"] for r in json.loads(out)["ratings"]} == {"random", agent}


def test_text_and_html_reports(capsys, tmp_path):
    page = tmp_path / "ratings.html"
    code, out, err = run(
        capsys, "--bots", "random,greedy:max_actions=3", "-n", "4", "-p", "2",
        "--html", str(page),
    )  # fmt: skip
    assert code == 0, err
    assert "rating" in out and "95% interval" in out and "Pairwise" in out
    assert "greedy:max_actions=3" in out
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>")
    assert 'data-testid="ratings"' in text and 'data-testid="pairwise"' in text
    for fetched in ("<script", "src=", "href=", "@import", "url("):
        assert fetched not in text  # self-contained


def test_html_escapes_names(tmp_path):
    from castell_dsl.cli.tournament_report import render_html

    data = {
        "rules": "<b>rules</b>", "variants": [], "players": 2, "games": 2, "rounds": 1,
        "lineups": 2, "seed": 0, "bootstrap": 0,
        "ratings": [
            {"bot": "cmd:<script>alert(1)</script>", "rating": 1500.0,
             "rating_95": [1500.0, 1500.0], "games": 2, "win_rate": 0.5, "mean_total": 1.0},
            {"bot": "random", "rating": 1500.0, "rating_95": [1500.0, 1500.0], "games": 2,
             "win_rate": 0.5, "mean_total": 1.0},
        ],
        "pairwise": [
            {"bot": "cmd:<script>alert(1)</script>",
             "against": {"cmd:<script>alert(1)</script>": None, "random": 0.5}},
            {"bot": "random", "against": {"cmd:<script>alert(1)</script>": 0.5, "random": None}},
        ],
    }  # fmt: skip
    page = render_html(data)
    assert "<script" not in page and "<b>" not in page
    assert "cmd:&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_usage_errors(capsys):
    code, _, err = run(capsys, "--bots", "random", "-n", "2")
    assert code == 2 and "at least two bots" in err
    code, _, err = run(capsys, "--bots", "random,random", "-n", "2")
    assert code == 2 and "twice" in err
    code, _, err = run(capsys, "--bots", "random,gredy", "-n", "2")
    assert code == 2 and "did you mean" in err
    code, _, err = run(capsys, "--bots", "random,greedy", "-p", "9")
    assert code == 2 and "Traceback" not in err


def test_the_same_tournament_on_a_dask_local_cluster(capsys):
    from dask.distributed import LocalCluster

    args = ["--bots", "random,greedy", "-n", "4", "-p", "2", "--format", "json"]
    code, local, err = run(capsys, *args)
    assert code == 0, err
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False) as cluster:
        code, dask, err = run(capsys, *args, "--scheduler", cluster.scheduler_address)
    assert (code, dask) == (0, local), err


def test_rules_variants_and_seat_count_are_honoured(capsys):
    code, out, err = run(
        capsys, "--bots", "random,greedy", "-n", "14", "-p", "4", "--rules", "castell",
        "--variant", "short-season", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["variants"] == ["short-season"] and data["players"] == 4
    assert data["lineups"] == 14 and data["rounds"] == 1 and data["bootstrap"] == 0
    # every game seats four: each of the 14 lineups holds both bots, 56 seats in all
    assert sum(r["games"] for r in data["ratings"]) == 56
