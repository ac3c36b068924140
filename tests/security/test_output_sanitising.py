"""Control characters from a rule file never reach the terminal or the CI log as such.

An OSC 52 sequence writes the reader's clipboard, CSI 2J clears the screen, a bare CR overwrites
the line, and 0x9b is a one-byte CSI on terminals that honour C1 controls.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from castell_dsl.cli import cli
from castell_dsl.language.diagnostics import (
    Diagnostic,
    Severity,
    Span,
    render_github,
    render_text,
    short_repr,
)
from castell_dsl.language.text import visible

SEQUENCES = {
    "osc52": "\x1b]52;c;ZWNobyBwd25lZA==\x07",
    "csi_clear": "\x1b[2J\x1b[H",
    "bare_cr": "looks fine\rERROR hidden",
    "c1_csi": "\x9b2J",
    "bidi": "\u202eevil",
}
#: What must never appear in output: the raw introducers of escape sequences and overwrites.
RAW = ("\x1b", "\x07", "\r", "\x9b", "\u202e")


def _clean(text: str) -> None:
    for ch in RAW:
        assert ch not in text, f"raw {ch!r} in output"


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_visible_escapes_every_control_character(name):
    shown = visible(SEQUENCES[name])
    _clean(shown)
    assert shown.isprintable()


def test_visible_keeps_ordinary_text_and_layout_on_request():
    assert visible("Castell — «Vilafranca» 3..10") == "Castell — «Vilafranca» 3..10"
    assert visible("a\tb") == "a\tb"
    assert visible("a\nb") == "a\\x0ab"
    assert visible("a\nb", keep_newlines=True) == "a\nb"
    assert visible("\x1b[2J") == "\\x1b[2J"


@pytest.mark.parametrize("name", sorted(SEQUENCES))
@pytest.mark.parametrize(
    "template",
    [
        'extends "castell"\n# {seq}\noverride game {{ rounds 0 }} # {seq}\n',  # comment
        'extends "castell"\noverride game {{ title "{seq}" rounds 0 }}\n',  # a string
        'extends "castell"\noverride game {{ rounds "{seq}" }}\n',  # a string in a message
        'extends "castell"\ninclude "{seq}.castell"\n',  # a path in a message
    ],
    ids=["comment", "title", "message", "path"],
)
@pytest.mark.parametrize("fmt", ["text", "github", "json"])
def test_validate_output_carries_no_raw_control_characters(
    name, template, fmt, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    seq = SEQUENCES[name]
    (tmp_path / "evil.castell").write_text(template.format(seq=seq), encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", "--format", fmt, "evil.castell"])
    assert result.exit_code == 1, result.output
    _clean(result.output)
    if fmt == "json":
        json.loads(result.output)


def test_the_caret_still_points_at_the_right_place():
    line = '  title "\x1b[2J\x9b" rounds Z'
    column = line.index("Z") + 1
    diag = Diagnostic("E0210", Severity.ERROR, "bad", Span("f", 1, column, 1, column + 1))
    rendered = render_text(diag, [line]).splitlines()
    source, caret = rendered[2], rendered[3]
    assert source.index("Z") == caret.index("^")


def test_renderers_bound_long_messages():
    diag = Diagnostic("E0271", Severity.ERROR, "x" * 100_000, Span.point("f"), "y" * 100_000)
    assert len(render_text(diag, None)) < 2_500
    assert len(render_github(diag)) < 2_500


def test_short_repr_is_bounded_and_fast_on_shared_structures():
    value: list = ["lol"] * 9
    for _ in range(30):  # 9**30 leaves if expanded
        value = [value] * 9
    shown = short_repr(value)
    assert len(shown) <= 80
    assert short_repr("\x1b]52;c;x\x07").startswith("'\\x1b]52")

    class Hostile:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert "Hostile" in short_repr(Hostile()) and len(short_repr(Hostile())) <= 80
