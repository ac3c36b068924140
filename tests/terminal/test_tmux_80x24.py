"""`castell play` in a real terminal (tmux, 80x24), as a player sees it: the pager never shows
raw escape codes whatever `PAGER`/`LESS` say, the whole board fits 80 columns, Calico's goal
choice leaves the board on the screen, a failed scenario says so in words, and Castell's `hint`
proposes the next action with its reason.

Outside CI these tests skip when tmux is missing; under `CI=true` they fail instead (`.ci/run`
installs tmux).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from castell_terminal.pager import Pager, pick_pager

from castell_dsl.runtime.loading import load_rules
from castell_dsl.runtime.session import Session

#: What an escape sequence looks like once a pager shows it raw (`ESC[1m`, `^[[4;35m`, `[0m`).
RAW_ESCAPE = re.compile(r"\x1b|ESC\[|\^\[|\[\d+(;\d+)*m")
#: Waiting for a screen: generous, for a busy machine (nothing here measures speed).
PATIENCE = 90.0


class Terminal:
    """One tmux session of 80x24 on a server of its own, running one command."""

    def __init__(self, command: str, env: dict[str, str], cwd: Path):
        self.socket = f"castell-test-{uuid.uuid4().hex[:10]}"
        self.name = "play"
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        unset = "unset PAGER LESS MANPAGER; "
        script = f"cd {shlex.quote(str(cwd))}; {unset}export {exports}; {command}; sleep 600"
        self.tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", self.name, "sh", "-c", script)

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def wait_for(self, pattern: str) -> str:
        deadline = time.monotonic() + PATIENCE
        while True:
            shown = self.screen()
            if re.search(pattern, shown, re.M):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {pattern!r}; the screen:\n{shown}")
            time.sleep(0.2)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", self.name, "-l", text)
        self.tmux("send-keys", "-t", self.name, "Enter")

    def key(self, key: str) -> None:
        self.tmux("send-keys", "-t", self.name, key)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[object]:
    if shutil.which("tmux") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the terminal tests must run in CI: tmux is missing")
        pytest.skip("tmux is not installed")
    opened: list[Terminal] = []
    env = {
        "TERM": "xterm-256color",
        "CASTELL_SAVE_DIR": str(tmp_path / "saves"),
        "HOME": str(tmp_path),
        "PATH": os.environ.get("PATH", ""),
    }

    def open_terminal(arguments: str, **extra: str) -> Terminal:
        command = f"{shlex.quote(sys.executable)} -m castell_dsl play {arguments}"
        made = Terminal(command, {**env, **extra}, tmp_path)
        opened.append(made)
        return made

    yield open_terminal
    for made in opened:
        made.close()


PROMPT = r"^seat 0 \(you\)>"


@pytest.mark.parametrize(
    "extra", [{}, {"PAGER": "less"}, {"PAGER": "more"}, {"LESS": "-X"}, {"PAGER": "less -X"}]
)
def test_board_through_the_pager_never_shows_escape_codes(terminal, extra):
    """`board` at 80x24 through the pager: `less` unset or named gets -R (colours drawn),
    another pager gets plain text; either way no raw escape code, and the tables' borders
    are whole lines of at most 80 columns (the board is drawn for 80 columns)."""
    screen_of = terminal("--players you,random --seed 3", **extra)
    screen_of.wait_for(PROMPT)
    screen_of.type("board")
    shown = screen_of.wait_for(r"Regions")
    assert not RAW_ESCAPE.search(shown), shown
    tops = [line.rstrip() for line in shown.splitlines() if line.startswith("┏")]
    assert tops and all(line.endswith("┓") for line in tops), shown
    screen_of.key("q")


def test_calicos_goal_choice_fits_80x24(terminal):
    """K-2.1: choosing design goals shows the quilt, the goal spaces and the choices on one
    screen, with the prompt (the 24 orders are summed up; `actions` numbers them)."""
    screen_of = terminal("--rules calico --players you,random --seed 3")
    shown = screen_of.wait_for(PROMPT)
    assert re.search(r"^\s+0\s+1\s+2\s+3\s+4\s+5\s+6", shown, re.M), shown  # the quilt's head
    assert "G1 at 3,2" in shown and "goals: 24 choices" in shown, shown
    screen_of.type("actions")
    shown = screen_of.wait_for(r"24 aa_bb_c_d")
    assert re.search(PROMPT, shown, re.M)


def test_a_failed_scenario_says_so_in_words(terminal, tmp_path):
    """K-8.4: a solo scenario that ends with objectives missed says it was not passed and
    which, never "Winner: seat 0" or a dump of the report's fields."""
    rules = load_rules("calico", ("solo", "scenario-1"))
    bot = Session(rules, 1, 3, ["random"])
    while not bot.game.is_over():
        bot.bot_move()
    assert not bot.game.result()["report"]["scenario"]["players"][0]["passed"]
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(bot.game.log) + "\n")
    screen_of = terminal(
        f"--rules calico --variant solo --variant scenario-1 --players you --seed 3 "
        f"< {shlex.quote(str(moves))}"
    )
    shown = screen_of.wait_for(r"not passed")
    assert re.search(r"Scenario 1 not passed: .*\(missed\)", shown.replace("\n", " ")), shown
    assert "Winner" not in shown and "scenario.players" not in shown, shown


def test_castells_hint_proposes_the_next_action_with_its_reason(terminal):
    """C-4, C-9.2: `hint` proposes a move, recruit or training (legal now) and says why."""
    screen_of = terminal("--players you,random --seed 3")
    screen_of.wait_for(PROMPT)
    screen_of.type("hint")
    shown = screen_of.wait_for(r"^\s+Next: ")
    found = re.search(r"^\s+Next: (\S+(?: \S+)*?) — (.+)$", shown, re.M)
    assert found, shown
    action = found.group(1)
    assert action.split()[0] in {"move", "recruit", "train", "tower"}
    session = Session(load_rules("castell"), 2, 3, ["you", "random"])
    session.play_bots()
    assert session.game.explain(action) is None, action
    assert "best tower tower" not in shown


def test_the_play_commands_at_the_keyboard(terminal):
    """The contract's play commands typed at the prompt (one dispatcher, drawn by the
    terminal): `help` lists every command within 80 columns, `check` says whether an action
    would be accepted without playing it, `log` names the seat, `undo` takes it back."""
    from castell_dsl.contract import COMMANDS

    screen_of = terminal("--players you,random --seed 3")
    screen_of.wait_for(PROMPT)
    screen_of.type("help")
    shown = screen_of.wait_for(r"^Topics \(help TOPIC\)")
    for command in COMMANDS:
        if command.name != "help":  # the list's head may have scrolled off 24 lines
            assert re.search(rf"^  {re.escape(command.usage())}\s", shown, re.M), shown
    assert all(len(line) <= 80 for line in shown.splitlines())
    screen_of.type("check recruit 3")
    screen_of.wait_for(r"Not allowed: .*\(no-pawn\)")
    screen_of.type("check move Girona")
    screen_of.wait_for(r"^move Girona: allowed now")
    screen_of.type("move Girona")
    screen_of.type("log")
    screen_of.wait_for(r"^\s+2  seat 0 \(you\): move Girona")
    screen_of.type("undo")
    screen_of.wait_for(r"^Took back 1 action\(s\)\.")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, Pager(("less", "-R"), True)),
        ({"PAGER": "less"}, Pager(("less", "-R"), True)),
        ({"PAGER": "less -R"}, Pager(("less", "-R"), True)),
        ({"PAGER": "/usr/bin/less -X"}, Pager(("/usr/bin/less", "-R", "-X"), True)),
        ({"PAGER": "most"}, Pager(("most",), True)),
        ({"PAGER": "more"}, Pager(("more",), False)),
        ({"PAGER": "cat"}, Pager(("cat",), False)),
        ({"PAGER": ""}, Pager((), True)),
        ({"PAGER": "less 'unclosed"}, Pager((), True)),
    ],
)
def test_the_pager_is_given_colours_only_when_it_draws_them(environ, expected):
    assert pick_pager(environ) == expected
