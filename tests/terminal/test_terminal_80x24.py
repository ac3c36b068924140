"""The terminal at 80x24, driven with piped input and a fixed console size: what a player
sees at each turn (scores by category, unique skill names, Calico's scenario objectives),
`help rules` / `help TOPIC`, legal hints, a seat-naming `log`, per-game saves, `board`, and
completion of the legal actions."""

from __future__ import annotations

import io
import re

import pytest
from castell_terminal.app import TerminalApp
from rich.console import Console

from castell_dsl.runtime.loading import load_rules
from castell_dsl.runtime.session import Session

WIDTH, HEIGHT = 80, 24


@pytest.fixture(autouse=True)
def save_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("CASTELL_SAVE_DIR", str(tmp_path / "saves"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "saves"


def run(rules: str, seats: list[str], seed: int, lines: list[str], variants=()) -> str:
    session = Session(load_rules(rules, tuple(variants)), len(seats), seed, seats)
    out = io.StringIO()
    console = Console(file=out, width=WIDTH, height=HEIGHT, highlight=False, color_system=None)
    app = TerminalApp(session, stdin=io.StringIO("".join(x + "\n" for x in lines)), console=console)
    app.run()
    return out.getvalue()


def turn_views(output: str) -> list[list[str]]:
    """The lines from each turn's header rule to its first prompt."""
    views, current = [], None
    for line in output.splitlines():
        if re.match(r"^─+ (Round|Setup)", line):
            current = [line]
        elif current is not None:
            current.append(line)
            if re.match(r"^seat \d \(you\)> ", line):
                views.append(current)
                current = None
    return views


def test_castell_turn_fits_80x24_with_scores_and_unique_skills():
    out = run("castell", ["you", "greedy"], 3, ["end"] * 6)
    views = turn_views(out)
    assert len(views) >= 5
    for view in views:
        assert len(view) <= HEIGHT, "\n".join(view)
        assert all(len(line) <= WIDTH for line in view)
        text = "\n".join(view)
        for category in ("best", "region", "prizes", "size", "local", "total"):
            assert category in text  # every scoring category of the rule set, every turn
        assert "score now" in text and "seat 1 (greedy)" in text
    assert "Round 1 of 10" in out and out.count("Round 1 of 10") == 1  # one header a round


@pytest.mark.parametrize("players", [3, 4])
def test_castell_turns_of_three_and_four_players_fit_80x24(players):
    """The compact table (a line per region and per seat, the festivals and the wheel on one
    line, the scores on two) leaves the actions and the prompt on an 80x24 screen."""
    out = run("castell", ["you"] + ["random"] * (players - 1), 4, ["end"] * 4)
    views = turn_views(out)
    assert len(views) >= 3
    for view in views:
        assert len(view) <= HEIGHT, "\n".join(view)
        assert all(len(line) <= WIDTH for line in view)
        assert "score now" in "\n".join(view)


def test_skill_abbreviations_are_unique():
    from castell_game.render import unique_abbreviations

    short = unique_abbreviations(
        {"balance": "Balance", "base": "Base", "mix": "Mix", "strength": "Strength"}
    )
    assert short == {"balance": "Bal", "base": "Bas", "mix": "Mi", "strength": "St"}
    assert len(set(short.values())) == len(short)


def test_other_seats_actions_are_shown_near_the_prompt():
    out = run("castell", ["you", "greedy"], 3, ["end", "end"])
    views = turn_views(out)
    assert any(re.search(r"seat 1 \(greedy\): \S", "\n".join(v[-6:])) for v in views)


def test_calico_scenario_objectives_and_a_legal_hint():
    out = run("calico", ["you"], 3, ["hint"], variants=("solo", "scenario-1"))
    views = turn_views(out)
    assert views and len(views[0]) <= HEIGHT
    assert "Scenario 1 objectives: rainbow button 0/1, score 0/58" in out
    assert "goals" in out and "cats" in out and "buttons" in out  # the score categories
    hint = re.search(r"^\s+1\. (.+?) — ", out, re.M)
    assert hint, out
    session = Session(load_rules("calico", ("solo", "scenario-1")), 1, 3, ["you"])
    for text in hint.group(1).split(", then "):
        assert session.game.explain(text) is None, text
        session.apply(text)


def test_help_rules_and_help_towers_print_the_pages_sections():
    out = run("castell", ["you", "random"], 3, ["help", "help rules", "help towers", "help x"])
    assert "Topics (help TOPIC): rules, components" in out
    assert "C-1 The game in brief." in out  # the rules summary
    assert "C-5 A tower is a stack of levels" in out
    assert "No topic 'x'." in out
    calico = run("calico", ["you", "random"], 3, ["help scoring"])
    assert "Scoring" in calico and "K-" in calico


def test_castell_hint_never_proposes_a_second_special():
    """C-4.2/C-4.9: with the special action used, `hint` proposes no special perform and
    says why; festivals it leaves out come with a reason."""
    session = Session(load_rules("castell"), 2, 3, ["you", "random"])
    game = session.game
    while game.current_player != 0:
        session.bot_move()
    seen_blocked = False
    for _ in range(400):
        if game.is_over():
            break
        player = game.current_player
        if player == 0:
            for line in game.logic.hints(game, player):
                found = re.search(r"(special perform \S+ tower \S+|tower \S+)(?: scores|$)", line)
                if found and "not now" not in line:
                    assert game.explain(found.group(1)) is None, line
                seen_blocked |= "not now" in line
                if "Festival in" in line and "best tower" not in line:
                    assert "left out" in line or "compete only" in line
            specials = [a for a in game.legal_actions() if a.kind == "special"]
            game.apply(specials[0] if specials else game.legal_actions()[0])
        else:
            session.bot_move()


def test_log_names_seats_and_quit_saves_a_file_of_its_own(save_dir):
    out = run("castell", ["you", "greedy"], 3, ["move Girona", "log", "quit"])
    assert re.search(r"^\s+1  seat 1 \(greedy\): \S", out, re.M)
    assert re.search(r"^\s+\d+  seat 0 \(you\): move Girona$", out, re.M)
    (saved,) = save_dir.glob("*.json")
    assert re.fullmatch(r"castell-3-\d{8}-\d{6}\.json", saved.name)
    assert f"Saved to {saved}" in out
    run("calico", ["you", "random"], 4, ["quit"])
    assert len(list(save_dir.glob("*.json"))) == 2  # another game does not clobber it


def test_board_shows_the_full_table():
    out = run("castell", ["you", "random"], 3, ["board"])
    assert "adjacent" in out and "Regions" in out and "Players" in out


def test_completion_offers_the_legal_actions():
    from castell_terminal.prompt import ActionCompleter
    from prompt_toolkit.document import Document

    completer = ActionCompleter(lambda: ["move Girona", "move Lleida", "end", "hint"])
    found = [c.text for c in completer.get_completions(Document("mo"), None)]  # type: ignore[arg-type]
    assert found == ["move Girona", "move Lleida"]


def test_a_games_report_is_printed_at_the_end_whatever_the_game():
    """K-8.4: a finished scenario's objectives (the game's `report`) appear on the final
    screen; the terminal prints any game's report as `path: value` lines."""
    from castell_terminal.app import report_lines

    lines = report_lines({"scenario": {"number": 1, "players": [{"met": [True, False]}]}})
    assert lines == ["Report:", "  scenario.number: 1", "  scenario.players[0].met: [True, False]"]
    assert report_lines({}) == []
