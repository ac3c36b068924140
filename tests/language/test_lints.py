"""Designer lints: warnings with codes for what compiles but can never come into play, located
in the file that causes them (docs/language.md, "Diagnostics"; the games' reference pages).

Each lint has a variant file that triggers it — and only it — at a known line; the bundled rule
files trigger none. Rules covered: C-3.3 and C-9.1 (calendar, festivals), C-9.4 and C-10.4
(prizes), C-6.5 (the wheel's tiles), C-9.5 (size tokens), C-4.2 (a turn's actions), C-10
(scoring), K-2.2 (cats drawn by dots).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from castell_dsl.language.diagnostics import CODES
from castell_dsl.runtime.loading import load_report, rule_path

CASTELL_CALENDAR = """override calendar {{
  space {{ round {first}  back I   size_tokens {tokens} }}
  space {{ round 4   back I   size_tokens {tokens} }}
  space {{ round 5   back I   size_tokens {tokens} }}
  space {{ round 6   back I   size_tokens {tokens} }}
  space {{ round 7   back II  size_tokens {tokens} }}
  space {{ round 8   back II  size_tokens {tokens} }}
}}"""

TURN = """override turn main {{
  action move    {{ limit 1 }}
  action recruit {{ limit {recruit}  up_to 2 }}
  action train   {{ limit 1  after [{after}] }}
  action special {{ limit 1  recruit_up_to 1  move_to any  places_pawn true }}
  action tower   {{ }}
  action end     {{ ends_turn true }}
}}"""

#: code -> (game, the patch after `extends`, the line it is reported at, words in the message)
CASES = {
    "W0261": ("castell", "override prize_chart { 2: [trophy, medal, ribbon] }", 3,
              "ribbon is never awarded"),
    "W0262": ("castell", "prize rosette { points 2 }", 3, "prize rosette is never awarded"),
    "W0263": ("castell", CASTELL_CALENDAR.format(first=2, tokens=1), 4,
              "calendar space in round 2 is never scored"),
    "W0264": ("castell", "festival girona_3 { region Girona back III }\n"
              "override components { festivals: 15 }", 3, "festival girona_3 is never drawn"),
    "W0265": ("castell", "override wheel { tiles [balance, balance, base, mix, strength, special,"
              " special, special] }", 3, "skill width can never be trained"),
    "W0266": ("castell", CASTELL_CALENDAR.format(first=3, tokens=0), 4,
              "no calendar space gives size tokens"),
    "W0304": ("castell", "override scoring {\n  category prizes = 0\n}", 4,
              "category prizes reads nothing of the player: it is 0 for everyone"),
    "W0305": ("castell", TURN.format(recruit=0, after="move"), 5,
              "action recruit of turn main can never be taken: its limit is 0"),
    "W0306": ("castell", "override round {\n  step refill when round in [3, 5, 7, 9]\n"
              "  step festivals when round >= 3\n}", 4,
              "the round has no `turns` entry: no player ever takes a turn"),
    "W0281": ("calico", "override setup {\n  boards random\n  hand { 1..4: 2 }\n"
              "  cat_dots [1, 2, 2]\n  reveal 4\n  goal_placement choose\n"
              "  goals_face_down false\n}", 6, "cat Gwenivere is never drawn"),
}  # fmt: skip


def lint(tmp_path: Path, game: str, patch: str):
    path = tmp_path / "lint.castell"
    path.write_text(f'extends "{game}"\n\n{patch}\n', encoding="utf-8")
    report = load_report(path)
    assert report.rules is not None, [d.message for d in report.diagnostics if d.is_error]
    return report.diagnostics


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_lint_is_reported_alone_in_the_file_that_causes_it(tmp_path, monkeypatch, code):
    monkeypatch.chdir(tmp_path)
    game, patch, line, words = CASES[code]
    diagnostics = lint(tmp_path, game, patch)
    assert {d.code for d in diagnostics} == {code}, [(d.code, d.message) for d in diagnostics]
    diag = diagnostics[0]
    assert words in diag.message
    assert (diag.span.path, diag.span.line) == ("lint.castell", line)


def test_an_action_after_one_never_taken_is_never_taken_either(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    diagnostics = lint(tmp_path, "castell", TURN.format(recruit=0, after="recruit"))
    messages = sorted(d.message for d in diagnostics if d.code == "W0305")
    assert messages == [
        "action recruit of turn main can never be taken: its limit is 0",
        "action train of turn main can never be taken: it comes after recruit, which can "
        "never be taken",
    ]


@pytest.mark.parametrize(
    "path", sorted(p for d in rule_path().directories for p in Path(d).rglob("*.castell"))
)
def test_the_bundled_rule_files_trigger_no_lint(path):
    report = load_report(path)
    assert report.ok
    assert [(d.code, d.message) for d in report.diagnostics] == []


def test_every_lint_code_is_known_and_tested():
    from castell_dsl.runtime.plugins import registries

    for mechanics in registries().mechanics.values():
        for code in getattr(mechanics, "codes", {}):
            if code.startswith("W"):
                assert code in CASES, f"{mechanics.name}'s {code} has no test here"
    for code in CODES:
        if code.startswith("W") and code not in ("W0301", "W0303"):
            assert code in CASES, f"{code} has no test here"
