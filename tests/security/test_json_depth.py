"""The depth scan every bounded JSON read runs first (`safejson.nesting_depth`): linear on any
text, and the same count as the bracket-by-bracket scan it replaced (kept here as the
specification).

A quote that opens no string followed by many escaped quotes (`"` and then `\\"` 40,000 times,
80 KB) took that scan 15 s, because every later quote was tried again as a string running to
the end: a 64 KiB protocol message stalled a session for seconds, a 16 MiB save hung `castell
replay`. Times are relative and in CPU time (tests/security/test_limits.py).
"""

from __future__ import annotations

import contextlib
import json
import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from castell_dsl.safejson import JsonLimitError, loads_bounded, nesting_depth

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def reference_depth(text: str, limit: int) -> int:
    """The scan as it was: strings and brackets one by one, stopping past `limit`."""
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif token in ("]", "}"):
            depth = max(0, depth - 1)
    return deepest


_LIMITS = st.integers(min_value=-2, max_value=70)


@settings(max_examples=2_000)
@given(st.text(alphabet='"\\[]{}a\n', max_size=60), _LIMITS)
def test_the_same_depth_as_the_bracket_by_bracket_scan(text, limit):
    assert nesting_depth(text, limit) == reference_depth(text, limit)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab"\\[]{}'),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=30,
)


@given(_JSON, _LIMITS, st.integers(min_value=0, max_value=5))
def test_the_same_depth_on_json_and_on_json_cut_short(value, limit, cut):
    text = json.dumps(value)
    for candidate in (text, text[: len(text) - cut], text[cut:]):
        assert nesting_depth(candidate, limit) == reference_depth(candidate, limit)


def test_an_unclosed_quote_before_escaped_quotes_costs_linear_time():
    def cpu(pairs: int) -> float:
        text = '["' + '\\"' * pairs
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            assert nesting_depth(text) == 1
            best = min(best, time.process_time() - start)
        return best

    cpu(1_000)
    assert cpu(8 * 5_000) < 20 * cpu(5_000)


def test_a_hostile_protocol_sized_message_is_refused_in_the_time_of_an_ordinary_one():
    ordinary = json.dumps({"type": "move", "action": "x" * 60_000})
    hostile = '"' + '\\"' * 30_000 + "]" * 4_000

    def cpu(text: str) -> float:
        start = time.process_time()
        with contextlib.suppress(JsonLimitError):
            loads_bounded(text, max_chars=64 * 1024, max_depth=16)
        return time.process_time() - start

    cpu(ordinary)
    assert cpu(hostile) < 50 * max(cpu(ordinary), 1e-4)
