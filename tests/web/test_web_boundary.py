"""The web server's boundary (issue 27, points 1, 3, 5-8): names from the network, bodies and
messages, the store, the seed, cross-site requests, plugins' web assets.

Every test talks to the real application (Starlette's test client: the app in this process,
no network). Points 2 and 4 (bots, connections) are in `test_web_budget.py`.
"""

from __future__ import annotations

import builtins
import json
import os
import sqlite3
import stat
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
pytest.importorskip("starlette")
pytest.importorskip("httpx")

from castell_web.guard import SECURITY_HEADERS, Policy  # noqa: E402
from castell_web.store import SqliteStore, StoredMatch  # noqa: E402

from castell_dsl.contract import WebAssets  # noqa: E402
from castell_dsl.runtime import plugins as plugin_module  # noqa: E402
from castell_dsl.runtime.loading import load_rules  # noqa: E402
from castell_dsl.runtime.saves import save_record  # noqa: E402
from castell_dsl.runtime.session import Session  # noqa: E402

from .support import web_app  # noqa: E402

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

BODY = {"rules": "castell", "players": ["you", "random"], "seed": 3}
#: Statuses the API may answer with; never a 500.
CLEAN = {200, 201, 400, 403, 404, 405, 408, 413, 415}


@pytest.fixture
def client(tmp_path: Path):
    store = SqliteStore(tmp_path / "server.db")
    with TestClient(web_app(store)) as c:
        yield c
    store.close()


def post(client: TestClient, path: str, body: Any, **headers: str) -> Any:
    return client.post(
        path,
        content=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
    )


def receive_until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(500):
        message = json.loads(ws.receive_text())
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


# ---- 1. names from the network resolve only among installed ones ------------------------------


@pytest.fixture
def watched_reads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Every file opened under `tmp_path/planted` (the files a hostile name points at)."""
    planted = tmp_path / "planted"
    planted.mkdir()
    opened: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def watch(path: Any) -> None:
        if isinstance(path, (str, os.PathLike)) and str(planted) in os.path.abspath(path):
            opened.append(str(path))

    def spy_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        watch(file)
        return real_open(file, *args, **kwargs)

    def spy_os_open(path: Any, *args: Any, **kwargs: Any) -> Any:
        watch(path)
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    return opened


def _plant(tmp_path: Path, name: str) -> Path:
    """A file that would be a syntax error quoting its first word, if it were ever read."""
    path = tmp_path / "planted" / name
    path.write_text("SECRETWORD of the server\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", ["rules", "variant"])
def test_a_created_match_names_only_installed_things(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, watched_reads, kind
) -> None:
    """The answer to an unknown name is the same whether or not a file of that name exists
    (no existence oracle), never quotes a file, and no file is opened."""
    monkeypatch.chdir(tmp_path / "planted")
    present = _plant(tmp_path, "present.castell")
    _plant(tmp_path, "present")
    answers = []
    for name in (
        "present",
        "absent",
        "present.castell",
        "absent.castell",
        str(present),
        str(present.with_name("absent.castell")),
        "../planted/present.castell",
    ):
        body = {**BODY, "rules": name} if kind == "rules" else {**BODY, "variants": [name]}
        response = post(client, "/api/matches", body)
        assert response.status_code == 400
        answers.append(response.json()["error"])
    assert len(set(answers)) == 1, answers
    assert "SECRETWORD" not in answers[0] and "planted" not in answers[0]
    assert watched_reads == []


def _hostile_v3(record: dict[str, Any], edit: str, target: Path) -> dict[str, Any]:
    hostile = json.loads(json.dumps(record))
    rules = hostile["rules"]
    file = {"on": "working directory", "path": target.name, "sha256": "sha256:0"}
    if edit == "given":
        rules["given"] = {"file": file}
    elif edit == "variant":
        rules["variants"] = [{"file": file}]
    elif edit == "name":
        rules["given"] = {"name": target.stem}
    else:  # files a refusal used to hash and report ("X is not found" / "X changed")
        rules["content_hash"] = "sha256:" + "0" * 64
        rules["files"] = [file, {**file, "on": "elsewhere"}]
    return hostile


def _hostile_v2(record: dict[str, Any], edit: str, target: Path) -> dict[str, Any]:
    hostile = {**json.loads(json.dumps(record)), "format": "castell-save/2"}
    rules: dict[str, Any] = {"name": "castell", "hash": "sha256:" + "0" * 64, "files": []}
    rules["file"] = {"path": str(target), "sha256": None, "bundled": None}
    rules["variants"] = [{"name": "short-season"}]
    if edit == "given":
        rules["name"] = str(target)
    elif edit == "variant":
        rules["variants"] = [{"name": str(target), "path": str(target), "sha256": "sha256:0"}]
    elif edit == "name":
        rules["file"]["bundled"] = target.stem
    else:
        rules["files"] = [{"path": str(target), "sha256": "sha256:0"}]
        rules["variants"] = [{"name": "short-season", "path": str(target), "sha256": "x"}]
    hostile["rules"] = rules
    return hostile


@pytest.mark.parametrize("hostile_save", [_hostile_v3, _hostile_v2])
def test_an_uploaded_save_names_only_installed_things(
    client: TestClient,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    watched_reads: list[str],
    hostile_save: Any,
) -> None:
    """Whatever files a save names (absolute paths, files beside the server), the answer is
    the same whether they exist or not, quotes none of them, and none is opened."""
    session = Session(load_rules("castell", ("short-season",)), 2, 4, ["random", "random"])
    session.play_bots()
    record = json.loads(json.dumps(save_record(session.game, session.seats)))
    assert post(client, "/api/replay", record).status_code == 200  # the real one replays
    monkeypatch.chdir(tmp_path / "planted")
    present = _plant(tmp_path, "present.castell")
    by_edit: dict[str, set[str]] = {}
    for target in (present, present.with_name("absent.castell")):
        for edit in ("given", "variant", "name", "files"):
            response = post(client, "/api/replay", hostile_save(record, edit, target))
            assert response.status_code == 400, (edit, response.text)
            answer = response.json()["error"]
            assert "SECRETWORD" not in answer and "planted" not in answer, answer
            by_edit.setdefault(edit, set()).add(answer.replace("absent", "present"))
    assert all(len(found) == 1 for found in by_edit.values()), by_edit
    assert watched_reads == []


def test_a_file_in_the_working_directory_never_answers_for_an_installed_name(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, watched_reads
) -> None:
    """`./castell` would be read by `castell play --rules castell`; the server never reads it."""
    monkeypatch.chdir(tmp_path / "planted")
    _plant(tmp_path, "castell")
    _plant(tmp_path, "short-season")
    response = post(client, "/api/matches", {**BODY, "variants": ["short-season"]})
    assert response.status_code in (201, 400)
    assert "SECRETWORD" not in response.text and "planted" not in response.text
    assert watched_reads == []


# ---- 3. bodies and messages ----------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, status",
    [
        (b"[" * 100_000 + b"]" * 100_000, 400),  # nesting
        (b'{"rules": "castell", "seed": ' + b"9" * 5000 + b"}", 400),  # a 5,000-digit number
        (b'{"rules": "castell", "seed": 1e999999}', 400),  # a float, and an infinite one
        (b'{"rules": NaN}', 400),
        (b"\xff\xfe not utf-8", 400),
        (b"", 400),
        (b"x" * (1024 * 1024 + 1), 413),
    ],
)
def test_hostile_bodies_are_4xx_not_500(client: TestClient, raw: bytes, status: int) -> None:
    for path in ("/api/matches", "/api/replay"):
        response = client.post(path, content=raw, headers={"Content-Type": "application/json"})
        assert response.status_code == status, (path, response.text[:200])
        assert response.json()["error"]


@pytest.mark.parametrize(
    "field, value",
    [
        ("seed", True),
        ("seed", 1.0),
        ("seed", "3"),
        ("players", ["you", 1]),
        ("variants", [True]),
        ("rules", ["castell"]),
        ("extra", 1),
        ("variants", "short-season"),
    ],
)
def test_creation_fields_are_typed_strictly(client: TestClient, field: str, value: Any) -> None:
    response = post(client, "/api/matches", {**BODY, field: value})
    assert response.status_code == 400, response.text
    assert response.json()["error"]


def test_bodies_must_be_declared_json(client: TestClient) -> None:
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
        response = client.post(
            "/api/matches", content=json.dumps(BODY).encode(), headers={"Content-Type": kind}
        )
        assert response.status_code == 415, kind
    assert post(client, "/api/matches", BODY).status_code == 201


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def _creation_bodies() -> st.SearchStrategy[Any]:
    """Creation requests near valid ones (so the fuzzer gets past the first check) and
    arbitrary JSON."""
    near = st.fixed_dictionaries(
        {},
        optional={
            "rules": st.sampled_from(["castell", "calico", "nope", "../x"]) | JSON,
            "variants": st.lists(
                st.sampled_from(["short-season", "solo", "x.castell"]) | JSON, max_size=3
            )
            | JSON,
            "players": st.lists(
                st.sampled_from(["you", "random", "mcts:time=60", "greedy:x=1"]) | JSON, max_size=5
            )
            | JSON,
            "seed": st.integers() | JSON,
        },
    )
    return near | JSON


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=_creation_bodies())
def test_fuzz_creation_bodies(client: TestClient, body: Any) -> None:
    response = post(client, "/api/matches", body)
    assert response.status_code in (201, 400), response.text[:300]
    if response.status_code == 400:
        assert isinstance(response.json()["error"], str)


@pytest.fixture(scope="module")
def save_of_a_game() -> dict[str, Any]:
    session = Session(load_rules("castell"), 2, 7, ["random", "random"])
    for _ in range(12):
        session.bot_move()
    return json.loads(json.dumps(save_record(session.game, session.seats)))


def _mutate(record: Any, draw: st.DrawFn) -> Any:
    """Replace one node of a save (anywhere in it) by arbitrary JSON."""
    if not isinstance(record, (dict, list)) or not record or draw(st.integers(0, 3)) == 0:
        return draw(JSON)
    keys = list(record) if isinstance(record, dict) else list(range(len(record)))
    key = draw(st.sampled_from(keys))
    out = json.loads(json.dumps(record))
    out[key] = _mutate(record[key], draw)
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzz_uploaded_saves(client: TestClient, save_of_a_game: Any, data: Any) -> None:
    body = _mutate(save_of_a_game, data.draw)
    response = post(client, "/api/replay", body)
    assert response.status_code in (200, 400), response.text[:300]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]),
    path=st.sampled_from(
        [
            "/",
            "/api/games",
            "/api/matches",
            "/api/matches/{id}",
            "/api/matches/{id}/save",
            "/api/matches/{id}/steps",
            "/api/replay",
            "/play/{id}",
            "/watch/{id}",
            "/replay/{id}",
            "/static/{id}",
            "/games/castell/{id}",
        ]
    ),
    segment=st.text(st.characters(blacklist_categories=("Cs",)), max_size=30),
    body=JSON,
)
def test_fuzz_every_route(client: TestClient, method: str, path: str, segment: str, body: Any):
    """Any method, any id, any body, on every route: a clean answer with the security
    headers, never a 500."""
    from urllib.parse import quote

    url = path.replace("{id}", quote(segment, safe="") or "x")
    response = client.request(
        method, url, content=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    assert response.status_code in CLEAN, (method, url, response.status_code, response.text[:200])
    for name, _value in SECURITY_HEADERS:
        assert name.decode() in response.headers, (url, name)


def _message_bodies() -> st.SearchStrategy[str]:
    near = st.fixed_dictionaries(
        {},
        optional={
            "action": st.sampled_from(["end", "move Girona", "recruit 6 7", ""]) | JSON,
            "command": st.sampled_from(["hint", "undo", "save", "check", "nope"]) | JSON,
            "version": st.integers(-2, 5) | JSON,
        },
    ).map(json.dumps)
    raw = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
    return near | JSON.map(json.dumps) | raw


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(messages=st.lists(_message_bodies(), min_size=1, max_size=6))
def test_fuzz_websocket_messages(client: TestClient, messages: list[str]) -> None:
    """Whatever a seat sends, it gets answers (an error, a state), the connection stays, and
    the match is still playable."""
    client.app.state.rate = (1000, 1000)
    match = post(client, "/api/matches", {**BODY, "players": ["you", "you"]}).json()
    token = match["seats"][0]["token"]
    url = f"/ws/matches/{match['id']}?token={token}"
    with client.websocket_connect(url) as ws:
        receive_until(ws, "state")
        for text in messages:
            ws.send_text(text)
        ws.send_text("{}")  # still read and answered
        while (answer := receive_until(ws, "error"))["code"] != "bad-message":
            assert answer["message"]
    status = client.get(f"/api/matches/{match['id']}").json()
    with client.websocket_connect(url) as ws:  # the seat is still served, at the same table
        assert receive_until(ws, "state")["version"] == status["version"]


def test_message_fields_are_typed_strictly(client: TestClient) -> None:
    match = post(client, "/api/matches", BODY).json()
    token = match["seats"][0]["token"]
    with client.websocket_connect(f"/ws/matches/{match['id']}?token={token}") as ws:
        receive_until(ws, "state")
        for message in (
            {"action": "end", "version": True},
            {"action": "end", "version": 1.0},
            {"action": "end", "extra": 1},
            {"command": ["hint"]},
            {"action": None},
            {"command": "check"},
            {"action": "x" * 2000},
        ):
            ws.send_text(json.dumps(message))
            error = receive_until(ws, "error")
            assert error["code"] in ("bad-message", "too-large"), (message, error)
        ws.send_text("[" * 5000 + "]" * 5000)
        assert receive_until(ws, "error")["code"] == "bad-json"
        ws.send_text('{"action": "end", "version": ' + "9" * 5000 + "}")
        assert receive_until(ws, "error")["code"] == "bad-json"


# ---- 5. the store ------------------------------------------------------------------------------


def _damage(db: Path, sql: str, *args: Any) -> None:
    with sqlite3.connect(db) as raw:
        raw.execute(sql, args)


def test_damaged_rows_are_quarantined_and_the_rest_loads(tmp_path: Path) -> None:
    db = tmp_path / "server.db"
    store = SqliteStore(db)
    with TestClient(web_app(store)) as c:
        ids = [post(c, "/api/matches", {**BODY, "seed": n}).json()["id"] for n in range(6)]
    store.close()
    _damage(db, "UPDATE matches SET rules = '{not json' WHERE id = ?", ids[0])
    _damage(db, "UPDATE matches SET players = 'two' WHERE id = ?", ids[1])
    _damage(db, "UPDATE matches SET seats = '[\"you\"]' WHERE id = ?", ids[2])
    _damage(db, "INSERT INTO actions VALUES (?, 999, 'move Nowhere')", ids[3])
    rules = json.dumps({"name": "/etc/passwd", "hash": "sha256:0", "variants": []})
    _damage(db, "UPDATE matches SET rules = ? WHERE id = ?", rules, ids[4])
    store = SqliteStore(db)
    with TestClient(web_app(store)) as c:
        listed = {m["id"] for m in c.get("/api/matches").json()["matches"]}
        assert listed == {ids[5]}
    assert {match_id for match_id, _ in store.quarantined()} == set(ids[:5])
    reasons = dict(store.quarantined())
    assert "rules" in reasons[ids[0]] and "players" in reasons[ids[1]]
    assert "not legal" in reasons[ids[3]] or "move Nowhere" in reasons[ids[3]]
    store.close()
    store = SqliteStore(db)  # a second start: quarantined rows are not tried again
    with TestClient(web_app(store)) as c:
        assert {m["id"] for m in c.get("/api/matches").json()["matches"]} == {ids[5]}
    store.close()


def test_the_database_file_is_private(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "new" / "server.db")
    store.create(
        StoredMatch(
            "m1",
            {"name": "castell", "hash": "h", "variants": []},
            2,
            1,
            ["you", "you"],
            [None, None],
        )
    )
    for path in (tmp_path / "new").iterdir():
        assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700
    store.close()


@pytest.mark.parametrize("content", [b"hello, I am a text file\n" * 10, b"\x00" * 4096])
def test_a_db_that_is_not_a_database_is_a_located_error(tmp_path: Path, content: bytes) -> None:
    db = tmp_path / "notes.txt"
    db.write_bytes(content)
    done = subprocess.run(
        [sys.executable, "-m", "castell_dsl", "serve", "--port", "0", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert str(db) in done.stderr and "SQLite" in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert db.read_bytes() == content  # not touched


# ---- 6. the seed stays on the server until the match ends -----------------------------------


def test_the_seed_is_secret_until_the_end(client: TestClient) -> None:
    match = post(client, "/api/matches", {**BODY, "players": ["you", "you"], "seed": 123457})
    match = match.json()
    token = match["seats"][0]["token"]
    with client.websocket_connect(f"/ws/matches/{match['id']}?token={token}") as ws:
        hello = receive_until(ws, "hello")
        assert hello["seed"] is None
        state = receive_until(ws, "state")
        ws.send_text(json.dumps({"command": "save"}))
        assert receive_until(ws, "error")["code"] == "save-unavailable"
    for path in (
        f"/api/matches/{match['id']}",
        "/api/matches",
        f"/api/matches/{match['id']}/steps",
    ):
        assert "123457" not in client.get(path).text, path
    response = client.get(f"/api/matches/{match['id']}/save")
    assert response.status_code == 403 and "123457" not in response.text
    assert state["view"] and "123457" not in json.dumps(state)


def test_the_seed_and_save_are_given_once_the_match_is_over(client: TestClient) -> None:
    match = post(client, "/api/matches", {**BODY, "players": ["random", "random"], "seed": 4})
    match = match.json()
    for _ in range(600):
        if client.get(f"/api/matches/{match['id']}").json()["over"]:
            break
        time.sleep(0.05)
    record = client.get(f"/api/matches/{match['id']}/save").json()
    assert record["options"]["seed"] == 4
    # "Download save" is portable and private (castell-save/3): no path of the server's disk.
    text = json.dumps(record)
    assert record["format"] == "castell-save/3" and record["rules"]["given"] == {"name": "castell"}
    assert '"/' not in text and str(Path.cwd()) not in text and str(Path.home()) not in text
    with client.websocket_connect(f"/ws/matches/{match['id']}") as ws:
        assert receive_until(ws, "hello")["seed"] == 4


# ---- 7. cross-site requests ------------------------------------------------------------------


def test_origin_and_host_are_checked(client: TestClient) -> None:
    evil = {"Origin": "http://evil.example"}
    assert post(client, "/api/matches", BODY, **evil).status_code == 403
    assert post(client, "/api/replay", {}, **evil).status_code == 403
    assert post(client, "/api/matches", BODY, Origin="null").status_code == 403
    assert post(client, "/api/matches", BODY, Origin="http://testserver").status_code == 201
    assert post(client, "/api/matches", BODY).status_code == 201  # not a browser page
    assert client.get("/api/games", headers=evil).status_code == 200  # reading is allowed
    rebinding = client.get("/api/matches", headers={"Host": "evil.example"})
    assert rebinding.status_code == 403
    match = post(client, "/api/matches", BODY).json()
    url = f"/ws/matches/{match['id']}"
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(url, headers=evil):
        pass
    assert closed.value.code == 1008
    with client.websocket_connect(
        f"/ws/matches/{match['id']}", headers={"Origin": "http://testserver"}
    ) as ws:
        assert receive_until(ws, "hello")["match"] == match["id"]


def test_configured_origins_and_hosts_are_accepted(tmp_path: Path) -> None:
    policy = Policy.for_address(
        "0.0.0.0", ["castell.example.org", "testserver"], ["https://castell.example.org"]
    )
    with TestClient(web_app(None, policy=policy)) as c:
        origin = {"Origin": "https://castell.example.org"}
        assert post(c, "/api/matches", BODY, **origin).status_code == 201
        assert post(c, "/api/matches", BODY, Origin="https://other.example").status_code == 403
        assert c.get("/", headers={"Host": "castell.example.org"}).status_code == 200
        assert c.get("/", headers={"Host": "other.example"}).status_code == 403


def test_every_response_has_the_security_headers(client: TestClient) -> None:
    for method, path in [
        ("GET", "/"),
        ("GET", "/api/games"),
        ("GET", "/static/style.css"),
        ("GET", "/nope"),
        ("GET", "/api/matches/nope"),
        ("DELETE", "/"),
        ("GET", "/static/../app.py"),
        ("GET", "/games/castell/render.js"),
    ]:
        response = client.request(method, path)
        for name, value in SECURITY_HEADERS:
            assert response.headers.get(name.decode()) == value.decode(), (path, name)
    assert client.get("/api/games").headers["cache-control"] == "no-store"


# ---- 8. plugins' web assets --------------------------------------------------------------------


@pytest.fixture
def install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """install(name, hook) adds a plugin package (a real folder, importable) to the real ones."""
    from castell_dsl import hookimpl

    real = plugin_module._entry_points
    extra: list[Any] = []
    monkeypatch.setattr(plugin_module, "_entry_points", lambda: [*real(), *extra])
    monkeypatch.syspath_prepend(str(tmp_path))

    class EntryPoint:
        dist = None

        def __init__(self, name: str, module: Any) -> None:
            self.name, self.module = name, module

        def load(self) -> Any:
            return self.module

    def add(name: str, hook: Any) -> Path:
        package = tmp_path / name
        (package / "web").mkdir(parents=True)
        (package / "web" / "render.js").write_text("export function render() {}\n")
        (package / "__init__.py").write_text("")
        import importlib

        module = importlib.import_module(name)
        hook.__name__ = "register_web_assets"
        module.register_web_assets = hookimpl(hook)
        extra.append(EntryPoint(name, module))
        plugin_module.reset()
        return package

    yield add
    plugin_module.reset()


def _failures() -> list[str]:
    return [str(f) for f in plugin_module.get_plugins().failures]


@pytest.mark.parametrize(
    "returned",
    [
        lambda p: 42,
        lambda p: ["x"],
        lambda p: [WebAssets("x", 123)],  # type: ignore[arg-type]
        lambda p: [WebAssets("a/b", p / "web")],
        lambda p: [WebAssets("x", p / "web", "../x.js")],
        lambda p: [WebAssets("x", Path("/"))],
        lambda p: [WebAssets("x", p / "..")],
        lambda p: [WebAssets("x", p / "nowhere")],
        lambda p: [WebAssets("x", p / "web", "no.js")],
    ],
)
def test_bad_web_assets_are_named_and_skipped(install, returned) -> None:
    holder: dict[str, Path] = {}
    package = install("webbad", lambda: returned(holder["package"]))
    holder["package"] = package
    with TestClient(web_app(None)) as c:
        games = c.get("/api/games").json()["games"]
        assert {g["rules"] for g in games} >= {"castell", "calico"}
        assert c.get("/games/x/render.js").status_code == 404
    assert any("webbad" in failure for failure in _failures()), _failures()


def test_a_symlink_out_of_the_package_is_not_served(install) -> None:
    holder: dict[str, Path] = {}
    package = install("weblink", lambda: [WebAssets("linked", holder["p"] / "out")])
    holder["p"] = package
    (package / "out").symlink_to("/")
    with TestClient(web_app(None)) as c:
        assert c.get("/games/linked/etc/passwd").status_code == 404
    assert any("weblink" in failure for failure in _failures())


def test_a_plugin_cannot_replace_a_built_in_renderer(install) -> None:
    from castell_game import __file__ as game_file

    holder: dict[str, Path] = {}
    package = install(
        "webclash",
        lambda: [
            WebAssets("castell", holder["p"] / "web"),
            WebAssets("newgame", holder["p"] / "web"),
        ],
    )
    holder["p"] = package
    builtin = (Path(game_file).parent / "web" / "render.js").read_text()
    with TestClient(web_app(None)) as c:
        assert c.get("/games/castell/render.js").text == builtin
        assert c.get("/games/newgame/render.js").status_code == 200  # its own game is fine
    assert any("webclash" in f and "castell" in f for f in _failures()), _failures()


def test_the_renderer_of_a_plugin_game_is_served(install) -> None:
    holder: dict[str, Path] = {}
    package = install("webgood", lambda: [WebAssets("goodgame", holder["p"] / "web")])
    holder["p"] = package
    with TestClient(web_app(None)) as c:
        assert "render" in c.get("/games/goodgame/render.js").text
    assert not any("webgood" in f for f in _failures())
