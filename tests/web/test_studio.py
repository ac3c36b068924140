"""The studio's API (issue 29) against the real application (Starlette's test client): a
stranger's text is confined (installed `extends` only, no `include`, every cap of
docs/security.md as a diagnostic), its answers are the language server's and `castell
validate`'s, variants are kept with their history and changed only with their edit token,
matches are played from a stored variant (also after a restart), and analyses are bounded,
queued and reused.
"""

from __future__ import annotations

import json
import re
import time
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
pytest.importorskip("starlette")
pytest.importorskip("httpx")

from castell_web.limits import Limits  # noqa: E402
from castell_web.store import SqliteStore  # noqa: E402
from castell_web.studio import language_tokens  # noqa: E402
from castell_web.studio_text import OWN_PATH, analysed  # noqa: E402

from castell_dsl.language import loader as loader_module  # noqa: E402
from castell_dsl.resources import grammar_path  # noqa: E402
from castell_dsl.runtime.loading import load_report, rule_path  # noqa: E402
from castell_dsl.tools.assist import completions  # noqa: E402

from .support import SERVICES, web_app  # noqa: E402

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from starlette.testclient import TestClient

VARIANT = 'extends "castell"\n\noverride game { title "Mine" }\n'
#: Statuses the studio's API may answer with; never a 500.
CLEAN = {200, 201, 400, 403, 404, 413, 415}


@pytest.fixture
def store(tmp_path: Path) -> Any:
    opened = SqliteStore(tmp_path / "server.db")
    yield opened
    opened.close()


@pytest.fixture
def client(store: SqliteStore) -> Any:
    with TestClient(web_app(store)) as c:
        yield c


def check(client: Any, text: str) -> dict[str, Any]:
    answer = client.post("/api/studio/check", json={"text": text})
    assert answer.status_code == 200, answer.text
    return answer.json()


def codes(found: dict[str, Any]) -> list[str]:
    return [d["code"] for d in found["diagnostics"]]


# ---- a stranger's text ------------------------------------------------------------------------


def test_the_highlighted_keywords_are_the_grammars() -> None:
    """The editor's keywords are read from the grammar's terminals: they are exactly the
    quoted words of grammar/castell.lark, so the highlighting cannot drift from the language."""
    grammar = grammar_path().read_text(encoding="utf-8")
    quoted = set(re.findall(r'"([A-Za-z_]+)"', grammar))
    tokens = language_tokens(SERVICES)
    assert set(tokens["keywords"]) == quoted
    assert {"extends", "include", "override", "remove", "when"} <= quoted
    assert re.fullmatch(tokens["patterns"]["comment"], "# a comment")
    assert "region" in tokens["kinds"] and "game" in tokens["kinds"]


def test_a_misspelt_region_is_told_at_its_line_as_castell_validate_tells_it(
    client: Any, tmp_path: Path
) -> None:
    text = (
        'extends "castell"\n\noverride setup { refill_order [Girona, Barcelona, Lleida, '
        "Tarragona, Terassa, Valls, Vilafranca] }\n"
    )
    found = check(client, text)
    assert not found["ok"]
    [diag] = found["diagnostics"]
    assert (diag["code"], diag["line"], diag["path"]) == ("E0220", 3, "studio.castell")
    assert diag["hint"] == "did you mean 'Terrassa'?"
    # The same code, message and hint as `castell validate` gives the file.
    file = tmp_path / "mine.castell"
    file.write_text(text)
    [expected] = load_report(file).diagnostics
    assert (expected.code, expected.message, expected.hint) == (
        diag["code"],
        diag["message"],
        diag["hint"],
    )
    assert expected.span.line == diag["line"] and expected.span.column == diag["column"]


def test_a_problem_the_text_causes_in_the_base_is_placed_in_the_text(client: Any) -> None:
    """`override game { rounds 8 }` leaves calendar spaces in rounds 9 and 10: `castell
    validate` (loader.blame) places that at the override, and so does the studio."""
    found = check(client, 'extends "castell"\n\noverride game { rounds 8 }\n')
    assert codes(found) and set(codes(found)) == {"E0211"}
    assert all(d["line"] == 3 and d["path"] == "studio.castell" for d in found["diagnostics"])
    assert all(r["path"] == "castell.castell" for d in found["diagnostics"] for r in d["related"])


@pytest.mark.parametrize(
    "text",
    [
        'include "/etc/passwd"\n',
        'extends "castell"\ninclude "../../rules/castell/castell.castell"\n',
        'include "castell"\n',
    ],
)
def test_include_reads_nothing(client: Any, text: str, monkeypatch: Any) -> None:
    read: list[Path] = []
    original = loader_module.read_source

    def recording(path: Path, *args: Any) -> Any:
        read.append(Path(path))
        return original(path, *args)

    monkeypatch.setattr(loader_module, "read_source", recording)
    found = check(client, text)
    assert "E0271" in codes(found)
    assert "root:" not in json.dumps(found)
    installed = [d.resolve() for d in rule_path().directories]
    for path in read:  # only installed rule files (the base `extends` names), nothing else
        assert any(root in path.resolve().parents for root in installed), path


def test_extends_takes_installed_names_only_and_says_the_same_whatever_exists(
    client: Any, tmp_path: Path
) -> None:
    existing = tmp_path / "exists.castell"
    existing.write_text('extends "castell"\n')
    answers = []
    for target in (str(existing), str(tmp_path / "missing.castell"), "../castell", "nosuch"):
        found = check(client, f'extends "{target}"\n')
        assert codes(found) == ["E0271"]
        answers.append(found["diagnostics"][0]["message"].replace(target, "NAME"))
    assert len(set(answers)) == 1, answers  # no existence oracle
    assert "castell" in check(client, 'extends "castel"\n')["diagnostics"][0]["hint"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("x" * 70_000, "E0107"),
        ('extends "castell"\n' + "{" * 10_000, "E0106"),
        ('game g { title "a\x00b" }\n', "E0108"),
        ("", "E0110"),
    ],
    ids=["huge", "deep", "nul", "empty"],
)
def test_hostile_texts_get_diagnostics(client: Any, text: str, code: str) -> None:
    assert code in codes(check(client, text))


def test_bodies_past_the_servers_cap_are_refused_cleanly(client: Any) -> None:
    answer = client.post("/api/studio/check", json={"text": "x" * 2_000_000})
    assert answer.status_code == 413 and "error" in answer.json()
    for body in ([], {"text": 3}, {"text": None}):
        assert client.post("/api/studio/check", json=body).status_code == 400
    for body in ({"text": "x", "line": 0, "column": 1}, {"text": "x", "line": True, "column": 1}):
        assert client.post("/api/studio/hover", json=body).status_code == 400


def test_hover_and_completion_are_the_language_servers(client: Any) -> None:
    text = 'extends "castell"\n\noverride game { rounds 8 }\n'
    hovered = client.post("/api/studio/hover", json={"text": text, "line": 3, "column": 18})
    assert hovered.json()["markdown"].startswith("**rounds**")
    answer = client.post("/api/studio/complete", json={"text": text, "line": 3, "column": 17})
    labels = [item["label"] for item in answer.json()["items"]]
    assert labels == [c.label for c in completions(analysed(SERVICES, text), 3, 17)]
    assert "rounds" in labels and "title" in labels
    # A quoted extends target is not looked up on disk.
    quoted = client.post(
        "/api/studio/hover", json={"text": 'include "/etc/passwd"\n', "line": 1, "column": 12}
    )
    assert quoted.json()["markdown"] is None


def test_the_diff_is_rules_show_diff_placed_in_the_text(client: Any) -> None:
    found = check(client, VARIANT)
    assert found["ok"] and found["title"] == "Mine" and found["players"] == [2, 4]
    assert found["diff"]["base"] == "castell"
    assert found["diff"]["changes"] == [
        {"text": "~ game.title: Castell → Mine", "op": "change", "line": 3}
    ]
    assert str(OWN_PATH) not in json.dumps(found)


def test_starts_are_installed_names_only(client: Any) -> None:
    starts = client.get("/api/studio/starts").json()["starts"]
    assert {"rules": "castell", "variant": "short-season", "title": "Castell"} in starts
    text = client.get("/api/studio/start?rules=castell&variant=short-season").json()["text"]
    assert text.startswith("# Short season")
    for query in ("rules=/etc/passwd", "rules=castell&variant=../../x", "rules=nosuch"):
        assert client.get(f"/api/studio/start?{query}").status_code == 404


# ---- keeping ----------------------------------------------------------------------------------


def test_variants_are_kept_with_their_history_and_changed_only_with_their_token(
    client: Any,
) -> None:
    made = client.post("/api/studio/variants", json={"name": "mine", "text": VARIANT})
    assert made.status_code == 201
    variant, token = made.json()["id"], made.json()["token"]
    assert made.json()["share_url"] == f"/studio/v/{variant}"
    second = VARIANT.replace("Mine", "Mine too")
    denied = client.post("/api/studio/variants", json={"id": variant, "token": "x", "text": second})
    assert denied.status_code == 403
    saved = client.post(
        "/api/studio/variants", json={"id": variant, "token": token, "text": second}
    )
    assert saved.json()["version"] == 2 and "token" not in saved.json()
    opened = client.get(f"/api/studio/variants/{variant}").json()
    assert opened["text"] == second and opened["name"] == "mine"
    assert [v["version"] for v in opened["history"]] == [1, 2]
    assert client.get(f"/api/studio/variants/{variant}?version=1").json()["text"] == VARIANT
    download = client.get(f"/api/studio/variants/{variant}/download")
    assert download.headers["content-disposition"] == 'attachment; filename="mine.castell"'
    assert download.text == second
    for bad in ("nosuchvariant", "../../etc", "x"):
        assert client.get(f"/api/studio/variants/{bad}").status_code == 404
    for body in (
        {"name": "../x", "text": VARIANT},
        {"name": "ok", "text": "x" * 70_000},
        {"name": "ok", "text": VARIANT, "path": "/etc"},
        {"id": "nosuchvariant", "token": token, "text": VARIANT},
    ):
        assert client.post("/api/studio/variants", json=body).status_code in {400, 404}


def test_only_the_newest_versions_are_kept(store: SqliteStore) -> None:
    limits = replace(Limits(), studio_versions=3)
    with TestClient(web_app(store, limits=limits)) as client:
        made = client.post("/api/studio/variants", json={"name": "v", "text": VARIANT}).json()
        for n in range(5):
            body = {"id": made["id"], "token": made["token"], "text": VARIANT + f"# {n}\n"}
            client.post("/api/studio/variants", json=body)
        history = client.get(f"/api/studio/variants/{made['id']}").json()["history"]
    assert [v["version"] for v in history] == [4, 5, 6]


# ---- playing ----------------------------------------------------------------------------------


def test_a_match_of_a_stored_variant_is_played_and_survives_a_restart(
    store: SqliteStore, tmp_path: Path
) -> None:
    with TestClient(web_app(store)) as client:
        made = client.post("/api/studio/variants", json={"name": "mine", "text": VARIANT}).json()
        created = client.post("/api/matches", json={"studio": made["id"], "players": ["you"] * 2})
        assert created.status_code == 201, created.text
        match = created.json()["id"]
        assert client.get(f"/api/matches/{match}").json()["game"] == "Mine"
        # Its replay on this server is of its own rules (it has no installed name).
        steps = client.get(f"/api/matches/{match}/steps")
        assert steps.status_code == 200 and steps.json()["game"] == "Mine"
        for body in (
            {"studio": made["id"], "rules": "castell", "players": ["you", "you"]},
            {"studio": "nosuchvariant", "players": ["you", "you"]},
            {"studio": "/etc/passwd", "players": ["you", "you"]},
            {"studio": made["id"], "players": ["you"] * 7},
        ):
            assert client.post("/api/matches", json=body).status_code == 400
        broken = client.post(
            "/api/studio/variants", json={"name": "broken", "text": 'extends "castel"\n'}
        ).json()
        refused = client.post("/api/matches", json={"studio": broken["id"], "players": ["you"] * 2})
        assert refused.status_code == 400 and "does not compile" in refused.json()["error"]
    with TestClient(web_app(store)) as client:  # the server restarted on the same database
        assert client.get(f"/api/matches/{match}").json()["game"] == "Mine"
    assert store.quarantined() == []


# ---- analysing --------------------------------------------------------------------------------


def analysis(socket: Any, **request: Any) -> list[dict[str, Any]]:
    socket.send_text(json.dumps({"type": "analyze", **request}))
    messages = []
    while True:
        messages.append(json.loads(socket.receive_text()))
        if messages[-1]["type"] in ("done", "error"):
            return messages


def test_an_analysis_reports_progress_and_is_reused_by_rules_hash(client: Any) -> None:
    with client.websocket_connect("/ws/studio") as socket:
        first = analysis(socket, text=VARIANT, games=3, players=2, bots="random")
        assert [m["done"] for m in first if m["type"] == "progress"] == [1, 2, 3]
        assert first[-1]["type"] == "done" and first[-1]["reused"] is False
        # Another text that compiles to the same rules: the same report, at once.
        again = analysis(socket, text="# same\n" + VARIANT, games=3, players=2, bots="random")
        assert again == [{"type": "done", "url": first[-1]["url"], "reused": True}]
    page = client.get(first[-1]["url"])
    assert page.status_code == 200 and "<script" not in page.text
    assert "sandbox" in page.headers["content-security-policy"]
    assert "script-src" not in page.headers["content-security-policy"]
    assert client.get("/studio/reports/0123456789abcdef0123456789abcdef").status_code == 404
    assert client.get("/studio/reports/..%2F..%2Fetc").status_code == 404


@pytest.mark.parametrize(
    ("request_fields", "says"),
    [
        ({"games": 0}, "1 to"),
        ({"games": 10_000}, "1 to"),
        ({"players": 9}, "players"),
        ({"bots": "mcts"}, "bots"),
        ({"games": True}, "whole number"),
        ({"text": 'extends "castel"\n'}, "does not compile"),
        ({"text": 'game g { title "x" }'}, "does not compile"),
    ],
)
def test_analyses_are_bounded(client: Any, request_fields: dict[str, Any], says: str) -> None:
    request = {"text": VARIANT, "games": 2, "players": 2, "bots": "random", **request_fields}
    with client.websocket_connect("/ws/studio") as socket:
        [answer] = analysis(socket, **request)
    assert answer["type"] == "error" and says in answer["message"]


def test_one_analysis_per_page_a_full_queue_and_a_deadline(store: SqliteStore) -> None:
    limits = replace(Limits(), analysis_queue=0)
    with TestClient(web_app(store, limits=limits)) as client:
        with client.websocket_connect("/ws/studio") as socket:
            [answer] = analysis(socket, text=VARIANT, games=2, players=2, bots="random")
        assert "too many analyses waiting" in answer["message"]
    limits = replace(Limits(), analysis_seconds=0.01)
    with TestClient(web_app(store, limits=limits)) as client:
        with client.websocket_connect("/ws/studio") as socket:
            messages = analysis(socket, text=VARIANT, games=50, players=2, bots="random")
        assert "took longer" in messages[-1]["message"]
    with TestClient(web_app(store)) as client:
        with client.websocket_connect("/ws/studio") as socket:
            request = {"type": "analyze", "text": VARIANT, "games": 100, "players": 2}
            socket.send_text(json.dumps(request))
            socket.send_text(json.dumps(request))
            second = json.loads(socket.receive_text())
            while second["type"] in ("queued", "progress"):
                second = json.loads(socket.receive_text())
            assert second == {"type": "error", "message": "an analysis is already running"}
        # The page left: its analysis is cancelled and its process ended.
        queue = client.app.state.analyses
        deadline = time.monotonic() + 30
        while queue.processes and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not queue.processes and queue.waiting == 0


# ---- the hostile-input corpus, as a stranger's text -------------------------------------------

CORPUS = Path(__file__).resolve().parents[1] / "security" / "corpus"
CORPUS_FILES = sorted(
    p.relative_to(CORPUS).as_posix()
    for folder in ("rules", "variants")
    for p in (CORPUS / folder).glob("*")
    if p.is_file()
)


@pytest.mark.parametrize("name", CORPUS_FILES)
def test_the_hostile_corpus_gets_diagnostics_and_reads_only_installed_files(
    client: Any, name: str, monkeypatch: Any
) -> None:
    """Every hostile rule file of tests/security/corpus, pasted into the studio, gets an answer
    (never a 500); what `castell validate` says of a rule file the studio says of its text too
    (where the file is text a browser could send: valid UTF-8, no byte order mark), unless it
    reaches for other files, which a stranger's text may not (E0271); and nothing outside the
    installed rule directories is read."""
    read: list[Path] = []
    original = loader_module.read_source

    def recording(path: Path, *args: Any) -> Any:
        read.append(Path(path))
        return original(path, *args)

    monkeypatch.setattr(loader_module, "read_source", recording)
    text = (CORPUS / name).read_bytes().decode("utf-8", "surrogateescape")
    answer = client.post(
        "/api/studio/check", json={"text": text.encode("utf-8", "replace").decode()}
    )
    assert answer.status_code in CLEAN
    if answer.status_code == 200:
        found = codes(answer.json())
        expected = json.loads((CORPUS / "expected.json").read_text())[name]
        comparable = (
            name.startswith("rules/")  # a variant file is checked as a variant, not alone
            and (CORPUS / name).read_bytes().decode("utf-8", "replace") == text  # valid UTF-8
            and not text.startswith("\ufeff")  # a browser's text has no byte order mark
            and not re.search(r"\b(include|extends)\b", text)
        )
        if comparable and expected not in ("ok", "any"):
            assert expected in found, (expected, found)
    installed = [d.resolve() for d in rule_path().directories]
    for path in read:
        assert any(root in path.resolve().parents for root in installed), path


FRAGMENTS = [
    'include "', 'extends "', "/etc/passwd", "../", "castell", "calico", '"', "\n", "{", "}",
    "override game {", "rounds 3", ".castell", "~/.ssh/id_rsa", "\\\\", "remove region ",
]  # fmt: skip


@given(parts=st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=12), max_size=8))
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_text_is_answered_and_reads_only_installed_files(client: Any, parts: list[str]) -> None:
    read: list[Path] = []
    original = loader_module.read_source

    def recording(path: Path, *args: Any) -> Any:
        read.append(Path(path))
        return original(path, *args)

    loader_module.read_source = recording  # type: ignore[assignment]
    try:
        answer = client.post("/api/studio/check", json={"text": "".join(parts)})
    finally:
        loader_module.read_source = original
    assert answer.status_code == 200
    assert isinstance(answer.json()["diagnostics"], list)
    installed = [d.resolve() for d in rule_path().directories]
    for path in read:
        assert any(root in path.resolve().parents for root in installed), path
