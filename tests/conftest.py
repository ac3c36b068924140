"""Shared fixtures: writing small rule files and collecting their diagnostics."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis profiles: the normal suite stays fast; `HYPOTHESIS_PROFILE=long pytest` runs a
# longer campaign (documented in the README).
settings.register_profile("default", deadline=None, max_examples=60)
settings.register_profile("ci", deadline=None, max_examples=60, derandomize=True)
settings.register_profile("long", deadline=None, max_examples=5000)
# Tests never read or write the user's own cache directory.
os.environ.setdefault("CASTELL_CACHE_DIR", tempfile.mkdtemp(prefix="castell-test-cache-"))

settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)


@pytest.fixture
def rule_file(tmp_path: Path):
    """Write a rule file in a temporary directory and return its path."""

    def write(text: str, name: str = "bad.castell") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def diagnose(rule_file, monkeypatch, tmp_path):
    """Load a rule file written from text; return its diagnostics as (code, line, column)."""
    from castell_dsl.runtime.loading import load_report

    monkeypatch.chdir(tmp_path)

    def run(text: str, name: str = "bad.castell", variants: tuple[str, ...] = ()):
        path = rule_file(text, name)
        report = load_report(path, variants)
        return report

    return run


def positions(report) -> list[tuple[str, int, int]]:
    """(code, line, column) of each diagnostic of a load report."""
    return [(d.code, d.span.line, d.span.column) for d in report.diagnostics]


@pytest.fixture
def codes():
    return positions


def _arrange_wheel(game, sectors: dict[str, str]) -> None:
    """Put Castell wheel tiles in sectors (`{"Girona": "mix", "all_regions": "balance"}`),
    the rest in order, with the wheel not turned."""
    logic = game.logic
    wheel: list[int | None] = [None] * len(logic.wheel_tiles)
    free = list(range(len(logic.wheel_tiles)))
    for sector, tile in sectors.items():
        t = next(t for t in free if logic.wheel_tiles[t] == tile)
        wheel[logic.sectors.index(sector)] = t
        free.remove(t)
    game.state["g"]["wheel"] = [free.pop(0) if w is None else w for w in wheel]
    game.state["g"]["wheel_turns"] = 0
    game.invalidate()


@pytest.fixture
def arrange_wheel():
    return _arrange_wheel


def _random_moves_then_round_trip(rules, players: int, seed: int, moves: int):
    """Play up to `moves` random actions, then check that a save's JSON form and a replay of
    the log both reproduce the state exactly; return the game for further checks."""
    import json

    from castell_dsl import new_game
    from castell_dsl.runtime.bots import make_bot
    from castell_dsl.runtime.saves import replay, save_record

    game = new_game(rules, players, seed, record_events=False)
    bots = [make_bot("random", rules, s, seed) for s in range(players)]
    for _ in range(moves):
        if game.is_over():
            break
        game.apply(bots[game.current_player].choose(game))
    again = replay(json.loads(json.dumps(save_record(game))))
    assert json.dumps(again.state, sort_keys=True) == json.dumps(game.state, sort_keys=True)
    assert again.legal_actions() == game.legal_actions()
    replayed = replay(save_record(game))
    assert replayed.state_hash() == game.state_hash()
    assert replayed.log == game.log
    return game


@pytest.fixture(scope="session")
def round_trip():
    return _random_moves_then_round_trip


#: Whole modules in the slow tier, with why: they drive a browser or a terminal, start a
#: process per test, or search exhaustively. The README's test command (and CI) runs them;
#: `pytest -m "not slow"` leaves them out for a quick loop (tests/test_slow_tier.py keeps this
#: list honest: every entry names a module that exists).
SLOW_MODULES = {
    "web/test_pages.py": "Chromium at three widths, axe",
    "web/test_browser.py": "Chromium plays whole games",
    "web/test_studio_browser.py": "Chromium drives the studio",
    "web/test_web_budget.py": "slow bots, sockets held open",
    "terminal/test_tmux_80x24.py": "a tmux terminal per test",
    "tools/test_lsp.py": "the language server as a process per test",
    "cli/test_agents.py": "programs as seats: a process per decision",
    "security/test_cli_boundary.py": "a castell process per bad argument",
    "security/test_corpus.py": "the hostile corpus through every reader",
    "security/test_limits.py": "inputs at the size caps",
    "language/test_hostile_input.py": "files of megabytes",
    "tools/test_fmt_characters.py": "the full character range, many examples",
    "castell/test_solver.py": "brute force against the solver",
    "rl/test_codec.py": "every legal action of whole games",
    "rl/test_openspiel.py": "OpenSpiel's own test games",
    "rl/test_tracking.py": "random positions of both games, reference-encoded",
    "web/test_seats.py": "servers with clocks of seconds, restarts",
    "web/test_web_boundary.py": "hypothesis bodies for every route",
    "web/test_studio.py": "analyses in worker processes",
    "web/test_protocol.py": "whole games over WebSockets",
    "tools/test_fmt_properties.py": "formatting generated files, many examples",
    "tools/test_lsp_hostile.py": "broken frames to language server processes",
    "authoring/test_compare.py": "paired batches of games",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        relative = Path(str(item.fspath)).relative_to(here).as_posix()
        if relative in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
