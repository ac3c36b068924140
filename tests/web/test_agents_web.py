"""A program as a seat over the network (`castell serve --allow-agent`, docs/security.md): a
visitor can seat only a program the administrator allowed, by its exact command; by default the
lobby offers none and refuses every `cmd:` seat."""

from __future__ import annotations

import sys
import time
import warnings
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from castell_web.limits import Limits

from .support import web_app

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from starlette.testclient import TestClient

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "agents" / "random_agent.py"
ALLOWED = f"{sys.executable} {EXAMPLE}"


def test_by_default_no_program_is_offered_or_started() -> None:
    with TestClient(web_app(None)) as c:
        bots = c.get("/api/games").json()["bots"]
        assert "cmd" not in bots and not any(b.startswith("cmd:") for b in bots)
        for spec in (f"cmd:{ALLOWED}", "cmd:sh -c 'touch /tmp/pwned'", "cmd"):
            response = c.post("/api/matches", json={"rules": "castell", "players": ["you", spec]})
            assert response.status_code == 400, spec
            assert "does not start programs" in response.json()["error"]
        response = c.post(
            "/api/matches",
            json={"rules": "castell", "players": ["you", "greedy"], "stand_in": f"cmd:{ALLOWED}"},
        )
        assert response.status_code == 400


def test_an_allowed_program_plays_and_no_other() -> None:
    limits = replace(Limits(), bot_workers=1, agent_commands=(ALLOWED,))
    with TestClient(web_app(None, limits=limits)) as c:
        assert f"cmd:{ALLOWED}" in c.get("/api/games").json()["bots"]
        response = c.post(
            "/api/matches", json={"rules": "castell", "players": ["you", "cmd:sh -c id"]}
        )
        assert response.status_code == 400
        assert "only the programs its administrator allowed" in response.json()["error"]
        spec = f"cmd:{ALLOWED}"
        response = c.post("/api/matches", json={"rules": "castell", "players": [spec, spec]})
        assert response.status_code in (200, 201), response.text
        match = response.json()["id"]
        for _ in range(600):
            if c.get(f"/api/matches/{match}").json()["actions"] >= 6:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the programs did not play")
