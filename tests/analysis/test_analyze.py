"""`castell analyze` (issue 25): metrics on toy games with known answers, determinism, the JSON
schema, the self-contained HTML page, the example game, and bad input.

Rules covered: the engine's flow and scoring (generic) through the toy race; C-1 … C-10
through whole Castell games (balance, rounds, festivals C-9, coverage of C-4.5, C-4.7, C-8).
"""

from __future__ import annotations

import json
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from castell_dsl.cli import cli
from castell_dsl.runtime.analysis.html import render_html
from castell_dsl.runtime.analysis.ladder import run_ladder
from castell_dsl.runtime.analysis.report import analyze, json_schema
from castell_dsl.runtime.paired import parse_contender

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "castell-pebbles"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def toy_report(path: str, players: int = 4, games: int = 60, **kw):
    kw.setdefault("skill", False)
    return analyze(parse_contender(path), None, players, ["random"] * players, 0, games, **kw)


def texts(report, section: str) -> list[str]:
    return [v["text"] for v in report["rule_sets"][0]["verdicts"] if v["section"] == section]


# ---- toy games with known answers ----------------------------------------------------------------


def test_seat_0_always_wins_and_the_balance_verdict_says_so(toy):
    report = toy_report(toy(0))
    seats = report["rule_sets"][0]["sections"]["balance"]["seats"]
    assert seats[0]["win_rate"]["rate"] == 1.0
    assert all(s["win_rate"]["rate"] == 0 for s in seats[1:])
    [favoured, *others] = [v for v in report["rule_sets"][0]["verdicts"]
                           if v["section"] == "balance"]  # fmt: skip
    assert favoured["level"] == "warning" and "Seat 0 wins 100%" in favoured["text"]
    assert "favoured" in favoured["text"]
    assert all("disadvantaged" in v["text"] for v in others)


def test_a_fair_game_gets_the_balanced_verdict(toy):
    report = toy_report(toy(1), games=80)
    [text] = texts(report, "balance")
    assert "balanced" in text


def test_a_coin_flip_game_has_no_skill_depth(toy):
    report = toy_report(toy(1), players=2, games=40, skill=True, budget=60,
                        rungs=("random", "greedy"))  # fmt: skip
    [rung] = report["rule_sets"][0]["skill"]["rungs"]
    assert rung["played"] and not rung["beats_lower"]
    assert any("Luck dominates" in t for t in texts(report, "skill"))


def test_a_solo_game_reports_its_scores_and_a_ladder_of_score_differences(toy):
    """Solo, seat 0 scores 2 a round whatever it does: 8 points in 4 rounds, every game; so
    no bot scores more than another on the same seed."""
    report = toy_report(toy(0), players=1, games=10, skill=True, budget=60,
                        rungs=("random", "greedy"))  # fmt: skip
    [balance] = texts(report, "balance")
    assert balance.startswith("Solo: mean score 8.0") and "from 8 to 8" in balance
    assert texts(report, "decisiveness") == [] and texts(report, "drama") == []
    [rung] = report["rule_sets"][0]["skill"]["rungs"]
    assert rung["fair_share"] is None and rung["score_difference"]["mean"] == 0
    assert any("Luck dominates" in t and "+0.0 points" in t for t in texts(report, "skill"))
    [scores] = texts(report, "scores")
    assert "varies most" in scores


def test_an_item_nobody_can_use_is_flagged_dead(toy):
    report = toy_report(toy(1), games=10)
    coverage = report["rule_sets"][0]["sections"]["coverage"]
    flags = {row["name"]: row["flags"] for row in coverage["items"]}
    assert flags["never"] == ["dead"]
    assert "dead" not in flags["a"] and "dead" not in flags["b"]
    assert coverage["lints"] == [{"kind": "card", "name": "never", "reason": "no action offers it"}]
    assert any("1 dead: card never" in t for t in texts(report, "coverage"))


def test_the_leader_after_round_1_always_wins_so_it_is_decided_early(toy):
    report = toy_report(toy(2))
    curve = report["rule_sets"][0]["sections"]["drama"]["leader_after_round_wins"]
    assert [row["rate"] for row in curve] == [1.0, 1.0, 1.0, 1.0]
    [text] = texts(report, "drama")
    assert text.startswith("Decided by round 1 of 4") and "decided early" in text
    # ... and a coin flip after the last round is not decided before it
    late = toy_report(toy(1))
    [text] = texts(late, "drama")
    assert "Open to the end" in text or "Decided by round 4" in text


def test_paired_differences_are_exact_for_known_changes(toy):
    report = analyze(parse_contender(toy(0, rounds=6)), parse_contender(toy(0)), 2,
                     ["random"] * 2, 0, 12, skill=False)  # fmt: skip
    diffs = report["against"]["differences"]
    assert diffs["length.rounds"]["mean"] == 2 and diffs["length.rounds"]["ci95"] == [2, 2]
    # seat 0 scores 2 a round and seat 1 one: 1.5 a player a round, 2 rounds more
    assert diffs["score.total"]["mean"] == 3 and diffs["score.total"]["significant"]


def test_a_budget_too_small_for_the_ladder_says_what_it_skipped(toy):
    report = toy_report(toy(1), players=2, games=10, skill=True, budget=0,
                        rungs=("random", "greedy"))  # fmt: skip
    [rung] = report["rule_sets"][0]["skill"]["rungs"]
    assert not rung["played"] and "left" in rung["skipped"]
    assert any("Skipped for the budget: greedy vs random" in t for t in texts(report, "skill"))


@pytest.mark.parametrize(("name", "players"), [("castell", 4), ("castell", 2), ("calico", 3),
                                               ("calico", 1)])  # fmt: skip
def test_the_measured_game_is_the_game_simulate_plays(name, players):
    """Reading marks, scores and legal actions (on a copy) changes nothing in the game: the
    same actions, totals and winners as `simulate`'s `play_game` (C-1 … C-10, K-1 … K-9)."""
    from castell_dsl import load_rules
    from castell_dsl.runtime.analysis.measure import measure_game
    from castell_dsl.runtime.simulation import play_game

    rules = load_rules(name)
    seats = ("random", "greedy") if name == "castell" else ("random",)  # greedy Calico is slow
    bots = tuple(seats[i % len(seats)] for i in range(players))
    for seed in range(2):
        game = play_game(rules, players, seed, bots)
        record = measure_game(rules, players, seed, bots, seed, every=3)
        result = game.result()
        assert record["actions"] == len(game.log)
        assert record["totals"] == [p["total"] for p in result["players"]]
        assert record["winners"] == result["winners"]
        assert len(record["leaders"]) == game.rounds and record["leaders"][-1] == result["winners"]
        assert record["branching"]  # every third decision was counted, on a copy


# ---- Castell through the command ---------------------------------------------------------------


@pytest.fixture(scope="module")
def castell_json():
    args = ["analyze", "castell", "--against", "castell+no-regions", "-n", "8", "-p", "3",
            "--no-skill", "--format", "json"]  # fmt: skip
    one = run(*args)
    two = run(*args, "--jobs", "2")
    assert one.exit_code == 0, one.output
    return json.loads(one.output), json.loads(two.output)


def test_jobs_do_not_change_the_report(castell_json):
    one, two = castell_json
    assert one == two


def test_the_ladder_is_the_same_for_any_number_of_jobs():
    target = [("castell", ())]
    one = run_ladder(target, 2, 3, 4, 600, ("random", "greedy"), jobs=1)
    two = run_ladder(target, 2, 3, 4, 600, ("random", "greedy"), jobs=2)
    assert one == two and one[0]["rungs"][0]["played"]


def test_the_json_report_follows_its_schema(castell_json, toy):
    jsonschema = pytest.importorskip("jsonschema")
    data, _ = castell_json
    jsonschema.validate(data, json_schema())
    assert data["schema"] == "castell-analysis/1"
    with_ladder = toy_report(toy(0), players=2, games=6, skill=True, budget=60,
                             rungs=("random", "greedy"))  # fmt: skip
    jsonschema.validate(json.loads(json.dumps(with_ladder)), json_schema())
    broken = dict(data, schema="castell-analysis/2")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, json_schema())


NO_WIDTH = """\
extends "castell"

override wheel {
  tiles [balance, balance, base, mix, strength, balance, special, special]
}
"""


def test_castell_lints_what_the_solver_proves_dead_beside_the_rule_sets_warnings(tmp_path):
    """Without a Width tile on the wheel (C-4.5, C-6) no player ever raises Width: the rule set
    warns (W0265), and the solver proves which tiles no team completes at rank 0 of Width:
    the exhibitions that use it and the shapes with a level wider than the limit above the
    bottom one (Base relaxes only the bottom level)."""
    variant = tmp_path / "no-width.castell"
    variant.write_text(NO_WIDTH)
    report = analyze(parse_contender(str(variant)), None, 2, ["random"] * 2, 0, 2, skill=False)
    coverage = report["rule_sets"][0]["sections"]["coverage"]
    assert [w["code"] for w in coverage["warnings"]] == ["W0265"]
    # located in the file that caused it: the variant's `tiles` line
    assert coverage["warnings"][0]["where"] == "no-width.castell:4"
    assert coverage["warnings"][0]["message"].startswith("skill width can never be trained")
    dead = {lint["name"] for lint in coverage["lints"]}
    assert dead == {"LP08", "LP09", "LP13", "LP14", "LP16", "LP21", "LP27", "LP28", "LP31"}
    assert any("W0265" in t for t in texts(report, "coverage"))
    assert any("9 item(s) proved unusable" in t for t in texts(report, "coverage"))


def test_castell_coverage_names_its_items_through_the_contract(castell_json):
    data, _ = castell_json
    castell = data["rule_sets"][0]
    kinds = {row["kind"] for row in castell["sections"]["coverage"]["items"]}
    assert kinds == {"local performance tile", "skill", "wheel tile", "region", "festival",
                     "prize", "size token", "special action"}  # fmt: skip
    by_name = {(r["kind"], r["name"]): r for r in castell["sections"]["coverage"]["items"]}
    # C-4.5: every player's pawn stands somewhere, so each game takes some region
    assert sum(r["games_taken"] for k, r in by_name.items() if k[0] == "region") >= 8
    # C-10.4: 3 players are paid trophy and medal (prize_chart), never the ribbon
    assert by_name[("prize", "ribbon")]["games_open"] == 0
    assert "dead" in by_name[("prize", "ribbon")]["flags"]
    # the no-regions variant scores no region variety: a paired difference below 0
    diff = data["against"]["differences"]["score.total"]
    assert diff["mean"] is not None


class _Refs(HTMLParser):
    """Every attribute value and every <style>/<script> text of a page."""

    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str]] = []
        self.styles: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += [(k, v or "") for k, v in attrs]
        self._in = tag

    def handle_data(self, data):
        if self._in == "style":
            self.styles.append(data)


def test_the_html_page_refers_to_nothing_outside_itself(castell_json, tmp_path):
    data, _ = castell_json
    page = render_html(data)
    parser = _Refs()
    parser.feed(page)
    parser.close()
    assert "svg" in parser.tags and parser.tags.count("svg") >= 4
    assert not {"script", "link", "img", "iframe", "object", "embed"} & set(parser.tags)
    for name, value in parser.attributes:
        assert name not in ("src", "href", "srcset", "action"), (name, value)
        if name == "xmlns":  # a namespace name, never fetched
            assert value == "http://www.w3.org/2000/svg"
        else:
            assert "://" not in value and "url(" not in value, (name, value)
    css = "".join(parser.styles)
    assert "url(" not in css and "@import" not in css
    # the text of a rule set is escaped: a hostile label cannot open a tag
    hostile = json.loads(json.dumps(data))
    hostile["rule_sets"][0]["label"] = '<script src="https://x.example/a.js"></script>'
    assert "<script" not in render_html(hostile)


def test_the_command_writes_the_html_and_prints_verdicts_first(tmp_path):
    out = tmp_path / "report.html"
    result = run("analyze", "castell", "-n", "4", "-p", "2", "--no-skill", "--html", str(out))
    assert result.exit_code == 0, result.output
    assert result.output.index("balance:") < result.output.index("win rate")
    assert out.read_text().startswith("<!DOCTYPE html>")
    # random seats are said to be random, as simulate says (and greedy ones are not)
    assert "Every seat is a random bot" in result.output
    assert "Every seat is a random bot" in out.read_text()
    greedy = run("analyze", "castell", "-n", "2", "-p", "2", "--bots", "greedy", "--no-skill")
    assert greedy.exit_code == 0 and "random bot" not in greedy.output


# ---- the example game, which describes no items -----------------------------------------------


def test_the_example_game_gets_every_section_but_coverage(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE))
    from castell_pebbles.mechanics import PebblesMechanics

    from castell_dsl.runtime.plugins import registries

    monkeypatch.setitem(registries().mechanics, "pebbles", PebblesMechanics())
    rules = EXAMPLE / "castell_pebbles" / "rules" / "pebbles.castell"
    report = analyze(parse_contender(str(rules)), None, 2, ["random"] * 2, 0, 20,
                     skill=True, budget=60, rungs=("random", "greedy"))  # fmt: skip
    sets = report["rule_sets"][0]
    assert sets["sections"]["coverage"] == {
        "described": False, "items": [], "lints": [], "warnings": [],
    }  # fmt: skip
    sections = {v["section"] for v in sets["verdicts"]}
    assert {"balance", "decisiveness", "drama", "length", "skill", "coverage"} <= sections
    [note] = texts(report, "coverage")
    assert "describes no items" in note
    sys.modules.pop("castell_pebbles.mechanics", None)


# ---- bad input: the diagnostics and exit codes of validate and simulate ------------------------


def test_bad_input_is_refused_like_simulate(tmp_path):
    unknown = run("analyze", "no-such-rules", "-n", "2")
    assert unknown.exit_code == run("simulate", "--rules", "no-such-rules", "-n", "1").exit_code
    assert unknown.exit_code == 1 and "E0271" in unknown.output
    bot = run("analyze", "castell", "-n", "2", "--bots", "nobody")
    assert bot.exit_code == 2 and "nobody" in bot.output
    players = run("analyze", "castell", "-n", "2", "-p", "9")
    assert players.exit_code == 2 and "2 to 4 players" in players.output
    broken = tmp_path / "broken.castell"
    broken.write_text('extends "castell"\n\noverride game { rounds 8 }\n')
    result = run("analyze", "castell", "--against", str(broken), "-n", "2")
    assert result.exit_code == 1 and "broken.castell:3" in result.output
    variant = run("analyze", "castell", "--variant", "no-such-variant", "-n", "2")
    assert variant.exit_code == 1


# ---- scale: Dask, and memory flat in the number of games -----------------------------------------


def test_the_same_report_on_a_dask_local_cluster(toy):
    pytest.importorskip("distributed")
    from dask.distributed import LocalCluster

    castell = parse_contender("castell")
    local = analyze(castell, None, 2, ["random"] * 2, 5, 6, skill=False)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False) as cluster:
        address = cluster.scheduler_address
        on_dask = analyze(castell, None, 2, ["random"] * 2, 5, 6, scheduler=address, skill=False)
    assert on_dask == local


def test_the_aggregates_do_not_grow_with_the_games(toy):
    """What a rule set's games add up to is counters and sums, not lists of games: its size
    after 400 games is that after 50 (give or take the bits of larger counts)."""
    import pickle

    from castell_dsl import load_rules
    from castell_dsl.runtime.analysis.aggregate import RuleSetAggregate
    from castell_dsl.runtime.analysis.measure import measure_game
    from castell_dsl.runtime.games import logic_for

    rules = load_rules(toy(2))
    logic = logic_for(rules)
    aggregate = RuleSetAggregate(3, 4, logic.items())
    sizes = {}
    for index in range(400):
        aggregate.add(measure_game(rules, 3, index, ("random",) * 3, index))
        if index + 1 in (50, 400):
            sizes[index + 1] = len(pickle.dumps(aggregate))
    assert sizes[400] < sizes[50] * 1.3, sizes
