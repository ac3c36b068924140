"""The web server's API and its protocol over WebSocket, without a browser (Starlette's
TestClient: the app in this process, no network)."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
pytest.importorskip("starlette")
pytest.importorskip("httpx")

from castell_web.store import SqliteStore  # noqa: E402

from castell_dsl.runtime.protocol import MAX_MESSAGE  # noqa: E402

from .support import web_app  # noqa: E402

with warnings.catch_warnings():  # starlette's notice about httpx's successor
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from starlette.testclient import TestClient


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "server.db"


@pytest.fixture
def client(db: Path):
    store = SqliteStore(db)
    with TestClient(web_app(store, rate=(40, 20))) as c:
        yield c
    store.close()


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body = {"rules": "castell", "players": ["you", "random"], "seed": 3, **body}
    response = client.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def settled(client: TestClient, match_id: str) -> dict[str, Any]:
    """The match's status once its bots have nothing left to do (they think in worker
    processes: a bot's move arrives a little after the request that caused it)."""
    import time

    for _ in range(600):
        status = client.get(f"/api/matches/{match_id}").json()
        turn = status["turn"]
        if status["over"] or status["seats"][turn]["kind"] == "you":
            return status
        time.sleep(0.05)
    raise AssertionError(f"the bots of match {match_id} did not settle")


def until(ws: Any, kind: str, *, mine: bool | None = None) -> dict[str, Any]:
    """Read messages until one of `kind` (a `state` with legal actions when `mine`)."""
    for _ in range(500):
        message = json.loads(ws.receive_text())
        if message["type"] == kind and (mine is None or bool(message["legal_actions"]) == mine):
            return message
    raise AssertionError(f"no {kind} message")


def test_create_gives_tokens_only_to_people(client: TestClient) -> None:
    match = create(client, players=["you", "greedy", "you"])
    seats = match["seats"]
    assert [s["kind"] for s in seats] == ["you", "greedy", "you"]
    assert "token" in seats[0] and "token" in seats[2] and "token" not in seats[1]
    assert seats[0]["token"] != seats[2]["token"] and len(seats[0]["token"]) >= 32
    assert seats[0]["url"].endswith(seats[0]["token"])
    status = client.get(f"/api/matches/{match['id']}").json()
    assert "token" not in json.dumps(status)
    assert [s["kind"] for s in status["seats"]] == ["you", "greedy", "you"]
    lobby = client.get("/api/matches").json()["matches"]
    assert [m["id"] for m in lobby] == [match["id"]]


@pytest.mark.parametrize(
    "body, words",
    [
        ({"rules": "../../etc/passwd"}, "unknown rule set"),
        ({"variants": ["../x"]}, "unknown variant"),
        ({"variants": ["nope"]}, "unknown variant"),
        ({"variants": "short-season"}, "list of variant names"),
        ({"players": ["you"]}, "2 to 4 players"),
        ({"players": ["you", "nobot"]}, "nobot"),
        ({"seed": -1}, "seed"),
        ({"players": "you,random"}, "list of seats"),
    ],
)
def test_bad_creation_requests_are_refused(client: TestClient, body: dict, words: str) -> None:
    response = client.post(
        "/api/matches", json={"rules": "castell", "players": ["you", "random"], **body}
    )
    assert response.status_code == 400
    assert words in response.json()["error"]


def test_the_messages_are_the_jsonl_ones(client: TestClient) -> None:
    """hello, state, event, error carry the JSON-lines fields (docs/protocol.md)."""
    match = create(client)
    token = match["seats"][0]["token"]
    with client.websocket_connect(f"/ws/matches/{match['id']}?token={token}") as ws:
        hello = until(ws, "hello")
        assert {"protocol", "game", "rules_hash", "players", "seats", "seed"} <= set(hello)
        assert hello["seat"] == 0 and hello["renderer"] == "/games/castell/render.js"
        state = until(ws, "state", mine=True)
        assert {"player", "round", "legal_actions", "view", "version"} <= set(state)
        ws.send_text("recruit 3")
        error = until(ws, "error")
        assert error["code"] == "no-pawn" and error["message"]
        ws.send_text(json.dumps({"action": "move Girona"}))
        event = until(ws, "event")
        expected = {"type": "action", "player": 0, "action": "move Girona", "round": 1}
        assert event["event"] == expected
        state = until(ws, "state", mine=True)
        assert "recruit 6" in state["legal_actions"]
        ws.send_text(json.dumps({"command": "check", "action": "tower 10,10/7"}))
        checked = until(ws, "checked")
        assert checked["action"] == "tower 10,10/7" and "ok" in checked
        ws.send_text(json.dumps({"command": "hint"}))
        assert until(ws, "hint")["lines"]


def test_jsonl_front_end_says_the_same(tmp_path: Path) -> None:
    """The same game, same moves, through `castell play --frontend jsonl`: same shapes."""
    lines = subprocess.run(
        [sys.executable, "-m", "castell_dsl", "play", "--frontend", "jsonl", "--players",
         "you,random", "--seed", "3", "--save-to", str(tmp_path / "s.json")],
        input="recruit 3\nmove Girona\n", capture_output=True, text=True, timeout=60, check=True,
    ).stdout.splitlines()  # fmt: skip
    kinds = [json.loads(line)["type"] for line in lines]
    assert kinds[0] == "hello" and "error" in kinds and "state" in kinds
    error = next(json.loads(x) for x in lines if '"error"' in x)
    assert set(error) == {"type", "code", "message"} and error["code"] == "no-pawn"


def test_spectators_and_wrong_tokens_change_nothing(client: TestClient) -> None:
    match = create(client)
    with client.websocket_connect(f"/ws/matches/{match['id']}") as ws:
        hello = until(ws, "hello")
        assert hello["seat"] is None
        state = until(ws, "state")
        assert state["legal_actions"] == [] and state["seat"] is None
        ws.send_text("move Girona")
        assert until(ws, "error")["code"] == "spectator"
    with client.websocket_connect(f"/ws/matches/{match['id']}?token=guess") as ws:
        assert json.loads(ws.receive_text())["code"] == "bad-token"
    status = settled(client, match["id"])
    assert status["actions"] == 1 and status["turn"] == 0  # the bot's end, nothing else


def test_malformed_large_and_fast_messages_are_errors(client: TestClient) -> None:
    match = create(client)
    token = match["seats"][0]["token"]
    with client.websocket_connect(f"/ws/matches/{match['id']}?token={token}") as ws:
        until(ws, "state", mine=True)
        ws.send_text("{not json")
        assert until(ws, "error")["code"] == "bad-json"
        ws.send_text(json.dumps({"action": 5}))
        assert until(ws, "error")["code"] == "bad-message"
        ws.send_text(json.dumps({"command": "explode"}))
        assert until(ws, "error")["code"] == "bad-message"
        ws.send_text(json.dumps({"action": "x" * (MAX_MESSAGE + 1)}))
        assert until(ws, "error")["code"] == "too-large"
        ws.send_text(json.dumps({"action": "end", "version": 0}))
        assert until(ws, "error")["code"] == "stale"
        for _ in range(80):
            ws.send_text(json.dumps({"command": "explode"}))
        codes = set()
        for _ in range(80):
            codes.add(until(ws, "error")["code"])
        assert "rate-limited" in codes


def test_two_seats_play_each_other_and_the_game_ends(client: TestClient) -> None:
    match = create(client, rules="calico", players=["you", "you"], seed=5)
    client.app.state.rate = (1000, 1000)  # this test sends faster than people do
    tokens = [s["token"] for s in match["seats"]]
    base = f"/ws/matches/{match['id']}"
    with (
        client.websocket_connect(f"{base}?token={tokens[0]}") as a,
        client.websocket_connect(f"{base}?token={tokens[1]}") as b,
    ):
        sockets = [a, b]
        states = [until(a, "state"), until(b, "state")]
        while True:
            player = states[0]["player"]
            if player is None:
                break
            other = 1 - player
            mine = states[player]
            assert mine["legal_actions"] and states[other]["legal_actions"] == []
            # The seat not to move is refused.
            sockets[other].send_text(mine["legal_actions"][0])
            assert until(sockets[other], "error")["code"] == "not-your-turn"
            sockets[player].send_text(mine["legal_actions"][-1])
            states = [until(a, "state"), until(b, "state")]
        result = until(a, "result")["result"]
        assert result["over"] and len(result["players"]) == 2
    status = client.get(f"/api/matches/{match['id']}").json()
    assert status["over"] and status["result"]["winners"]


def test_save_is_verified_by_castell_replay(client: TestClient, tmp_path: Path) -> None:
    match = create(client, players=["random", "random"], seed=4)
    for _ in range(200):
        if client.get(f"/api/matches/{match['id']}").json()["over"]:
            break
        import time

        time.sleep(0.05)
    record = client.get(f"/api/matches/{match['id']}/save").json()
    assert record["over"]
    path = tmp_path / "save.json"
    path.write_text(json.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "castell_dsl", "replay", str(path)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    steps = client.get(f"/api/matches/{match['id']}/steps").json()
    assert len(steps["steps"]) == len(record["actions"]) + 1
    record["actions"][3] = "move Nowhere"
    assert client.post("/api/replay", json=record).status_code == 400


def test_undo_is_stored_and_a_restart_resumes(db: Path) -> None:
    store = SqliteStore(db)
    with TestClient(web_app(store)) as c:
        match = create(c)
        token = match["seats"][0]["token"]
        with c.websocket_connect(f"/ws/matches/{match['id']}?token={token}") as ws:
            until(ws, "state", mine=True)
            ws.send_text("move Girona")
            until(ws, "state", mine=True)
            ws.send_text("recruit 6 7")
            until(ws, "state", mine=True)
            ws.send_text(json.dumps({"command": "undo"}))
            assert until(ws, "undone")["actions"] == 2
            assert until(ws, "state", mine=True)["log"] == ["end"]
            ws.send_text("move Valls")
            state = until(ws, "state", mine=True)
    store.close()
    store = SqliteStore(db)
    with TestClient(web_app(store)) as c:
        status = c.get(f"/api/matches/{match['id']}").json()
        assert status["actions"] == len(state["log"])
        with c.websocket_connect(f"/ws/matches/{match['id']}?token={token}") as ws:
            again = until(ws, "state", mine=True)
            assert again["log"] == state["log"] == ["end", "move Valls"]
            assert again["legal_actions"] == state["legal_actions"]
    store.close()


def test_a_game_without_assets_gets_the_generic_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """The web front-end names no game: without registered assets, `renderer` is null and the
    page falls back to the generic view (legal actions as buttons, the view as a tree)."""
    import castell_web.app

    monkeypatch.setattr(castell_web.app, "game_assets", lambda _plugins: {})
    with TestClient(web_app(None)) as c:
        match = create(c)
        with c.websocket_connect(f"/ws/matches/{match['id']}") as ws:
            assert until(ws, "hello")["renderer"] is None
        games = c.get("/api/games").json()["games"]
        assert all(game["renderer"] is None for game in games)
        assert c.get("/static/generic.js").status_code == 200
