"""The answer cache is untrusted input: it can speed a verdict up, never change it.

See castell_dsl/cache.py and docs/security.md ("Caches").
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from castell_dsl import cache
from castell_dsl.runtime.loading import rule_path

IMPOSSIBLE = 'extends "castell"\noverride performance LP01 { shape [1, 2] }\n'


def _valid(value) -> bool:
    return isinstance(value, dict) and isinstance(value.get("n"), int)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("CASTELL_CACHE_DIR", str(directory))
    cache._LOADED.clear()
    yield directory
    cache._LOADED.clear()


def _keys_asked(tmp_path, monkeypatch) -> list[str]:
    """The feasibility keys `castell validate` asks for on the impossible rule file."""
    from castell_dsl.runtime.loading import load_report

    asked: list[str] = []
    real_get = cache.get

    def spy(name, key, validate):
        asked.append(key)
        return real_get(name, key, validate)

    monkeypatch.setattr(cache, "get", spy)
    monkeypatch.chdir(tmp_path)
    report = load_report(tmp_path / "impossible.castell")
    monkeypatch.setattr(cache, "get", real_get)
    assert [d.code for d in report.diagnostics] == ["E0260"]
    return asked


@pytest.mark.parametrize(
    "witness",
    [
        [[1]],  # a legal tower, but not of the tile's shape
        [[5], [4, 4]],  # the tile's shape, but an illegal tower
        [[10] * 20, [10] * 20],  # illegal, and more 10s than the bag holds
    ],
)
def test_a_planted_cache_claiming_completable_does_not_change_the_verdict(
    witness, tmp_path, monkeypatch, cache_dir, castell_cli
):
    (tmp_path / "impossible.castell").write_text(IMPOSSIBLE)
    keys = _keys_asked(tmp_path, monkeypatch)
    cache_dir.mkdir(mode=0o700, exist_ok=True)
    planted = {"version": 1, "entries": {key: {"levels": witness} for key in keys}}
    (cache_dir / "feasibility.json").write_text(json.dumps(planted))
    result = castell_cli(
        ["validate", "impossible.castell"], tmp_path, {"CASTELL_CACHE_DIR": str(cache_dir)}
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "error[E0260]: no team could ever complete performance LP01" in result.stdout


def test_a_remembered_witness_is_used_and_still_verified(tmp_path, cache_dir, castell_cli):
    """The bundled rules validate twice; the second run reads the witnesses it wrote."""
    env = {"CASTELL_CACHE_DIR": str(cache_dir)}
    rules = str(rule_path().find_rules("castell"))
    first = castell_cli(["validate", rules], tmp_path, env)
    assert first.returncode == 0, first.stdout + first.stderr
    document = json.loads((cache_dir / "feasibility.json").read_text())
    assert document["version"] == 1 and document["entries"]
    assert all("levels" in entry for entry in document["entries"].values())
    assert stat.S_IMODE(os.stat(cache_dir).st_mode) == 0o700
    second = castell_cli(["validate", rules], tmp_path, env)
    assert second.returncode == 0 and second.stdout == first.stdout


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"[]",
        b'{"version": 1, "entries": []}',
        b'{"version": 2, "entries": {}}',
        b"[" * 100_000 + b"]" * 100_000,  # deeper than json.loads could recurse
        b'{"version": 1, "entries": {"' + b"a" * 64 + b'": ' + b"9" * 10_000 + b"}}",
        b" " * (cache.MAX_CACHE_BYTES + 10),  # larger than the cap
        b"\xff\xfe binary",
    ],
    ids=["truncated", "list", "entries-list", "version", "deep", "huge-int", "huge", "binary"],
)
def test_a_corrupt_cache_is_ignored_and_rebuilt(content, cache_dir):
    cache_dir.mkdir(mode=0o700)
    (cache_dir / "answers.json").write_bytes(content)
    key = cache.key_of("q")
    assert cache.get("answers", key, _valid) is None
    cache.put_many("answers", {key: {"n": 1}}, _valid)
    cache._LOADED.clear()
    assert cache.get("answers", key, _valid) == {"n": 1}


def test_entries_of_the_wrong_shape_are_dropped_the_rest_kept(cache_dir):
    cache_dir.mkdir(mode=0o700)
    good, bad = cache.key_of("good"), cache.key_of("bad")
    entries = {good: {"n": 1}, bad: {"n": "x"}, "not-a-key": {"n": 2}}
    (cache_dir / "answers.json").write_text(json.dumps({"version": 1, "entries": entries}))
    assert cache.get("answers", good, _valid) == {"n": 1}
    assert cache.get("answers", bad, _valid) is None
    assert cache.get("answers", "not-a-key", _valid) is None


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_directory_others_can_write_is_not_used(cache_dir):
    cache_dir.mkdir(mode=0o700)
    os.chmod(cache_dir, 0o777)
    key = cache.key_of("q")
    (cache_dir / "answers.json").write_text(json.dumps({"version": 1, "entries": {key: {"n": 5}}}))
    assert cache.get("answers", key, _valid) is None  # not read
    cache.put_many("answers", {cache.key_of("other"): {"n": 1}}, _valid)
    assert cache.key_of("other") not in (cache_dir / "answers.json").read_text()  # not written


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_symlinked_cache_directory_is_not_used(tmp_path, cache_dir):
    real = tmp_path / "elsewhere"
    real.mkdir(mode=0o700)
    cache_dir.symlink_to(real)
    cache.put_many("answers", {cache.key_of("q"): {"n": 1}}, _valid)
    assert list(real.iterdir()) == []


def test_the_directory_is_created_private(cache_dir):
    cache.put_many("answers", {cache.key_of("q"): {"n": 1}}, _valid)
    assert stat.S_IMODE(os.stat(cache_dir).st_mode) == 0o700
    assert not [p for p in cache_dir.iterdir() if p.name.endswith(".tmp")]


WRITER = textwrap.dedent(
    """
    import sys
    from castell_dsl import cache
    valid = lambda v: isinstance(v, dict) and isinstance(v.get("n"), int)
    who = sys.argv[1]
    for i in range(40):
        cache._LOADED.clear()  # like a new `castell validate` run each time
        cache.put_many("answers", {cache.key_of(who, i): {"n": i}}, valid)
    """
)


def test_two_processes_writing_at_once_keep_every_entry(cache_dir):
    env = dict(os.environ, CASTELL_CACHE_DIR=str(cache_dir))
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, who], env=env) for who in ("a", "b")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    entries = json.loads((cache_dir / "answers.json").read_text())["entries"]
    expected = {cache.key_of(who, i) for who in ("a", "b") for i in range(40)}
    assert expected <= set(entries)
