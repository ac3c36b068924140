"""Seats on the web server, over the protocol (no browser): players' names, the log naming the
seat of every action, running scores by category, the result saying what decided, the lobby's
catalogue, and the per-turn clock with its stand-in bot (a clock of 2 seconds): a timed-out
turn, an empty seat, a seat handed over and taken back, all stored and restart-safe."""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
pytest.importorskip("starlette")
pytest.importorskip("httpx")

from castell_web.store import SqliteStore  # noqa: E402

from .support import web_app  # noqa: E402

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from starlette.testclient import TestClient

#: Waiting for the server: generous, for a busy machine (nothing here measures speed).
PATIENCE = 120.0


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "server.db"


def serve(db: Path) -> Any:
    store = SqliteStore(db)
    client = TestClient(web_app(store, rate=(400, 200)))
    client.__enter__()
    client.castell_store = store  # type: ignore[attr-defined]
    return client


def stop(client: Any) -> None:
    client.__exit__(None, None, None)
    client.castell_store.close()


@pytest.fixture
def client(db: Path):
    made = serve(db)
    yield made
    stop(made)


def create(client: Any, **body: Any) -> dict[str, Any]:
    body = {"rules": "castell", "players": ["you", "random"], "seed": 3, **body}
    response = client.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def socket(client: Any, match: dict[str, Any], seat: int | None) -> Any:
    query = "" if seat is None else f"?token={match['seats'][seat]['token']}"
    return client.websocket_connect(f"/ws/matches/{match['id']}{query}")


def until(ws: Any, test: Any) -> dict[str, Any]:
    for _ in range(2000):
        message = json.loads(ws.receive_text())
        if test(message):
            return message
    raise AssertionError("no such message")


def state(ws: Any, test: Any = lambda m: True) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] == "state" and test(m))


def status(client: Any, match: dict[str, Any]) -> dict[str, Any]:
    return client.get(f"/api/matches/{match['id']}").json()


def wait(client: Any, match: dict[str, Any], test: Any) -> dict[str, Any]:
    deadline = time.monotonic() + PATIENCE
    while True:
        found = status(client, match)
        if test(found):
            return found
        assert time.monotonic() < deadline, found
        time.sleep(0.1)


# ---- names, log, scores, result ---------------------------------------------------------------
def test_names_label_seats_and_you_is_only_the_viewers_own(client: Any) -> None:
    match = create(client, players=["you", "you"], names=["Anna", None])
    with socket(client, match, 1) as ws:
        hello = until(ws, lambda m: m["type"] == "hello")
        assert hello["names"] == ["Anna", "seat 1"]
        ws.send_text(json.dumps({"command": "name", "name": "  Bob  "}))
        named = state(ws, lambda m: m["names"][1] == "Bob")
        assert named["names"] == ["Anna", "Bob"]
        ws.send_text(json.dumps({"command": "name", "name": "x\u202ey"}))
        error = until(ws, lambda m: m["type"] == "error")
        assert error["code"] == "bad-name"
    # The seat not to play is told whose turn it is by name, never "(you)".
    turn = status(client, match)["turn"]
    with socket(client, match, 1 - turn) as ws:
        until(ws, lambda m: m["type"] == "state")
        ws.send_text(json.dumps({"action": "end"}))
        error = until(ws, lambda m: m["type"] == "error")
        assert error["message"] == f"it is {['Anna', 'Bob'][turn]}'s turn"
    assert [s["name"] for s in status(client, match)["seats"]] == ["Anna", "Bob"]
    response = client.post(
        "/api/matches", json={"rules": "castell", "players": ["you", "random"], "names": ["x" * 30]}
    )
    assert response.status_code == 400 and "at most 24" in response.json()["error"]


def test_the_log_names_seats_and_scores_come_by_category(client: Any) -> None:
    """C-10: every category of the rule set's scoring, per seat, all game long."""
    match = create(client, players=["you", "random"])
    with socket(client, match, 0) as ws:
        seen = state(ws, lambda m: bool(m["legal_actions"]))
        assert len(seen["log_seats"]) == len(seen["log"])
        assert set(seen["log_seats"]) <= {0, 1}
        categories = set(seen["score_table"][0]["categories"])
        assert {"best_tower", "prizes"} <= {c.split("_score")[0] for c in categories} | categories


def test_the_result_says_what_decided_and_the_scenario_verdict(client: Any) -> None:
    """K-7.2, K-8.4: a finished match's result says what decided in words; a scenario says
    whether it was passed."""
    match = create(
        client, rules="calico", variants=["solo", "scenario-1"], players=["random"], seed=3
    )
    wait(client, match, lambda s: s["over"])
    with socket(client, match, None) as ws:
        result = until(ws, lambda m: m["type"] == "result")
    assert result["decided_by"]["by"] == "alone"
    assert result["outcome"] and "Scenario 1" in result["outcome"][0]
    assert "passed" in result["outcome"][0]
    steps = client.get(f"/api/matches/{match['id']}/steps").json()
    assert steps["outcome"] == result["outcome"] and steps["legend"]["goals"]


def test_a_tie_names_the_tiebreak_that_decided() -> None:
    """C-1.3: tied totals are decided by the rule set's tie-breaks in order."""
    from castell_dsl.runtime.games import start_game
    from castell_dsl.runtime.loading import load_rules
    from castell_dsl.runtime.standings import decided_by, describe

    game = start_game(load_rules("castell"), 2, 3)
    scores = [
        {"seat": 0, "total": 10, "categories": {}, "tiebreaks": [4]},
        {"seat": 1, "total": 10, "categories": {}, "tiebreaks": [6]},
    ]
    game.scores = lambda: scores  # type: ignore[method-assign]
    decided = decided_by(game)
    assert decided == {
        "by": "tiebreak",
        "tied": [0, 1],
        "tiebreak": "best_tower_score",
        "values": {0: 4, 1: 6},
    }
    sentence = describe(decided, 10, ["Anna", "Bob"].__getitem__)
    assert sentence == (
        "Anna and Bob tied on 10 points; the tie-break 'best tower score' decided (Anna 4, Bob 6)."
    )
    scores[1]["tiebreaks"] = [4]
    assert decided_by(game)["by"] == "shared"


def test_the_lobby_lists_the_default_game_first_and_variants_in_order(client: Any) -> None:
    games = client.get("/api/games").json()["games"]
    assert games[0]["rules"] == "castell"
    calico = next(g for g in games if g["rules"] == "calico")
    scenarios = [v for v in calico["variants"] if v.startswith("scenario-")]
    assert scenarios == [f"scenario-{n}" for n in range(1, 11)]
    assert calico["variant_players"]["solo"] == [1, 1]
    response = client.post(
        "/api/matches", json={"rules": "calico", "variants": ["solo"], "players": ["you", "you"]}
    )
    assert response.json()["error"] == "Calico (solo) is for 1 player, not 2"


# ---- clocks and stand-ins ------------------------------------------------------------------------
def test_a_timed_out_turn_is_played_by_the_stand_in_and_stored(db: Path) -> None:
    client = serve(db)
    try:
        match = create(client, players=["you", "random"], clock=2, stand_in="random")
        with socket(client, match, 0) as ws:
            mine = state(ws, lambda m: bool(m["legal_actions"]))
            assert 0 < mine["clock_left"] <= 2
            before = len(mine["log"])
            notice = until(ws, lambda m: m["type"] == "notice")
            assert "clock ran out" in notice["message"]
            later = state(ws, lambda m: len(m["log"]) > before and m["stood_in"])
            assert all(later["log_seats"][n] == 0 for n in later["stood_in"])
            assert later["stood_in"][0] == before
        # The next turn of seat 0 is the person's again, with a fresh clock.
        found = wait(client, match, lambda s: s["turn"] == 0)
        assert not found["over"]
    finally:
        stop(client)
    # Restart: the stand-in's actions and marks are stored; the person's turn has its clock.
    again = serve(db)
    try:
        with socket(again, match, 0) as ws:
            seen = state(ws)
            assert seen["stood_in"][: len(later["stood_in"])] == later["stood_in"]
            assert all(seen["log_seats"][n] == 0 for n in seen["stood_in"])
            assert seen["log"][: len(later["log"])] == later["log"]
        # Replayed like any other turn: the replay's steps mark what the stand-in played.
        steps = again.get(f"/api/matches/{match['id']}/steps").json()
        assert steps["stood_in"][: len(later["stood_in"])] == later["stood_in"]
        assert all(steps["steps"][n + 1]["player"] == 0 for n in steps["stood_in"])
    finally:
        stop(again)


def test_an_empty_seat_is_played_until_taken_back(client: Any) -> None:
    """The stand-in plays the empty seat 0 until its player takes it back; the person in seat
    1 holds the game at their turns, so nothing races the end of the game."""
    match = create(client, players=["empty", "you"], stand_in="random")
    assert "url" in match["seats"][0]  # an empty seat has an invite link
    with socket(client, match, 1) as other, socket(client, match, 0) as ws:
        first = state(ws)
        assert first["away"][0]
        if first["player"] == 0:  # the stand-in plays seat 0's turn through
            first = state(ws, lambda m: m["player"] == 1)
            assert first["stood_in"] and all(first["log_seats"][n] == 0 for n in first["stood_in"])
        ws.send_text(json.dumps({"command": "seat", "away": False}))
        state(ws, lambda m: not m["away"][0])
        state(other, lambda m: bool(m["legal_actions"]))
        other.send_text(json.dumps({"action": "end"}))
        mine = state(ws, lambda m: bool(m["legal_actions"]))
        assert mine["standing_in"] is None
        count = len(mine["log"])
        ws.send_text(json.dumps({"action": mine["legal_actions"][0]}))
        after = state(ws, lambda m: len(m["log"]) > count)
        assert after["log_seats"][count] == 0 and count not in after["stood_in"]
        # Handing the seat to the stand-in again: it plays seat 0's turn on.
        ws.send_text(json.dumps({"command": "seat", "away": True}))
        done = state(ws, lambda m: m["player"] == 1)
        assert done["away"][0] and done["stood_in"] and done["stood_in"][-1] >= count + 1


def test_a_deadline_passed_while_the_server_was_down_is_played_at_restart(db: Path) -> None:
    client = serve(db)
    try:
        match = create(client, players=["you", "random"], clock=3600)
        with socket(client, match, 0) as ws:
            mine = state(ws, lambda m: bool(m["legal_actions"]))
    finally:
        stop(client)
    store = SqliteStore(db)
    (record,) = store.load_all()
    assert record.seating["deadline"] > time.time() + 3000  # the turn's deadline is stored
    record.seating["deadline"] = time.time() - 1  # as if the hour passed while down
    store.set_log(record.id, record.actions, record.version, record.over, record.seating)
    store.close()
    again = serve(db)
    try:
        found = wait(again, match, lambda s: s["actions"] > len(mine["log"]))
        assert found["seats"][0]["away"] is False
    finally:
        stop(again)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"clock": 1}, "from 2 to 3600 seconds"),
        ({"clock": "soon"}, "seconds per turn"),
        ({"stand_in": "nobot"}, "nobot"),
        ({"names": "Anna"}, "'names' is a list"),
    ],
)
def test_bad_clocks_stand_ins_and_names_are_refused(client: Any, body: dict, words: str) -> None:
    response = client.post(
        "/api/matches", json={"rules": "castell", "players": ["you", "random"], **body}
    )
    assert response.status_code == 400 and words in response.json()["error"], response.text
