"""YAML configuration files are bounded data: a clean config or a clean ConfigError, always.

The alias bomb below is 376 bytes; `yaml.safe_load` expands it to 9**9 strings, and the old
error message `repr`ed that value, so `castell simulate --config` never finished.
"""

from __future__ import annotations

import string
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castell_dsl.cli import options
from castell_dsl.cli.options import SCHEMAS, ConfigError, read_config

ALIAS_BOMB = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
seed: [*g,*g,*g,*g,*g,*g,*g,*g,*g]
"""


def _read(tmp_path, text: str | bytes, command: str = "simulate"):
    path = tmp_path / "config.yaml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return read_config(str(path), command)


def test_the_examples_still_load():

    root = Path(__file__).resolve().parents[2] / "examples"
    assert read_config(str(root / "tournament.yaml"), "simulate")["bots"].startswith("greedy")
    assert read_config(str(root / "game.yaml"), "play")["seed"] == 2026


def test_an_alias_bomb_is_refused_quickly(tmp_path):
    assert len(ALIAS_BOMB) < 400
    start = time.process_time()
    with pytest.raises(ConfigError, match="aliases"):
        _read(tmp_path, ALIAS_BOMB)
    baseline_start = time.process_time()
    _read(tmp_path, "seed: 1\ngames: 2\n")
    baseline = time.process_time() - baseline_start
    # relative: refusing the bomb costs about as much as reading a small valid file
    assert baseline_start - start < 50 * baseline + 0.05


@pytest.mark.parametrize(
    "text, match",
    [
        ("x: &anchor 1\n", "anchors"),
        ("seed: 1\n<<: *base\n", "aliases"),
        ("seed: " + "[" * 40 + "]" * 40 + "\n", "nested deeper"),
        ("variants: [" + ", ".join(["a"] * 20_000) + "]\n", "more than"),
        ("seed: " + "9" * 10_000 + "\n", "not a usable value"),
        ("seed: \x1b[2J\n", "not valid YAML"),
        ("? [a, b]\n: 1\n", "not valid YAML"),
        ("- 1\n- 2\n", "a mapping"),
        ("seed: [1, 2\n", "not valid YAML"),
        ("sed: 1\n", "did you mean 'seed'"),
        ("bots: [{name: mcts, iterations: [1, 2]}]\n", "plain value"),
    ],
)
def test_bad_configs_are_clean_errors(tmp_path, text, match):
    with pytest.raises(ConfigError, match=match) as info:
        _read(tmp_path, text)
    assert str(info.value).startswith(str(tmp_path / "config.yaml"))
    assert len(str(info.value)) < 400


def test_a_huge_or_binary_or_special_file_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="larger than"):
        _read(tmp_path, "#" * (options.MAX_CONFIG_BYTES + 1))
    with pytest.raises(ConfigError, match="UTF-8"):
        _read(tmp_path, b"seed: \xff\n")
    with pytest.raises(ConfigError, match="not a regular file"):
        read_config("/dev/zero", "simulate")
    with pytest.raises(ConfigError, match="not a regular file"):
        read_config(str(tmp_path), "simulate")


def test_values_in_messages_are_short_and_visible(tmp_path):
    long_value = "x" * 100_000
    with pytest.raises(ConfigError) as info:
        _read(tmp_path, f'seed: "{long_value}\\e]52;c;aGk=\\a"\n')
    message = str(info.value)
    assert len(message) < 300 and "\x1b" not in message and "\x07" not in message


# ---- fuzzing ----------------------------------------------------------------------------------

KEYS = sorted(set(SCHEMAS["simulate"]) | set(SCHEMAS["play"]) | {"bogus", "<<", "name"})
scalars = st.one_of(
    st.integers(-(10**30), 10**30),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.sampled_from(["greedy", "random", "mcts", "you", "text", "json", "castell"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=12,
)
documents = st.dictionaries(st.sampled_from(KEYS), values, max_size=6)
#: Fragments of YAML syntax, for documents that need not be valid YAML at all.
FRAGMENTS = [
    "seed", "bots", "players", ":", " ", "\n", "- ", "[", "]", "{", "}", ",", "&a", "*a", "!!str",
    "!!python/object:os.system", "'", '"', "#", "1", "99999999999999999999999", "---", "...", "?",
    "|", ">", "\t", "name: mcts", "iterations: 3", "\x1b", "\x00", "\ufeff", "%YAML 1.1",
]  # fmt: skip
fragments = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)


def _clean_outcome(tmp_path, text: str, command: str) -> None:
    try:
        config = _read(tmp_path, text.encode("utf-8", "surrogatepass"), command)
    except ConfigError as exc:
        message = str(exc)
        assert len(message) < 2_000
        assert "\x1b" not in message and "\x00" not in message
        return
    assert isinstance(config, dict) and set(config) <= set(SCHEMAS[command])


fuzz = settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)


@fuzz
@given(documents, st.sampled_from(["simulate", "play"]))
def test_fuzz_structured_configs(tmp_path, document, command):
    _clean_outcome(tmp_path, yaml.safe_dump(document, allow_unicode=True), command)


@fuzz
@given(st.one_of(fragments, st.text(alphabet=string.printable + "\x1b\x85\u2028", max_size=80)))
def test_fuzz_config_text(tmp_path, text):
    _clean_outcome(tmp_path, text, "simulate")
