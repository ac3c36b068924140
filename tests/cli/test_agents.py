"""Any program as a seat (`cmd:COMMAND`, runtime/agents.py, docs/agents.md).

Full games of both games with both shipped examples (Python without this package, and Node.js);
every failure mode (crash, timeout, garbage, an illegal action, an endless line) under each
policy (stop, forfeit, fallback:BOT), always a one-line error naming the seat and the command;
no program outlives its game or the process that started it; a save or a stranger on the
network never starts one. Rules: C-10.1 (a game is played to its last round and scored) and
K-1 (Calico's games end and score) through the examples' full games.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from castell_dsl.cli import main

ROOT = Path(__file__).resolve().parents[2]
PYTHON_EXAMPLE = ROOT / "examples" / "agents" / "random_agent.py"
NODE_EXAMPLE = ROOT / "examples" / "agents" / "first_agent.js"
NODE = shutil.which("node")


def python_agent() -> str:
    return f"cmd:{sys.executable} {PYTHON_EXAMPLE}"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def lines_of(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def script(tmp_path: Path, name: str, body: str) -> str:
    """A small agent in Python, written for one test: `cmd:` spec running it."""
    path = tmp_path / f"{name}.py"
    path.write_text("import json, os, sys, time\n" + textwrap.dedent(body))
    return f"cmd:{sys.executable} {path}"


# ---- full games with the shipped examples ------------------------------------------------------


@pytest.mark.parametrize("rules", ["castell", "calico"])
def test_python_example_plays_full_games_reproducibly(capsys, rules):
    """The stdlib-only example plays whole games of both games; the same seed, the same lines."""
    args = ["simulate", "--rules", rules, "-p", "2", "-n", "2", "--format", "jsonl"]
    code, first, err = run(capsys, *args, "--bots", f"{python_agent()},greedy")
    assert code == 0, err
    games = lines_of(first)
    assert len(games) == 2
    for game in games:
        assert game["players"][0]["bot"] == python_agent()
        assert game["actions"] > 10
        for player in game["players"]:
            assert player["total"] == sum(player["categories"].values())
    code, second, _ = run(capsys, *args, "--bots", f"{python_agent()},greedy")
    assert (code, second) == (0, first)


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
@pytest.mark.parametrize("rules", ["castell", "calico"])
def test_node_example_plays_full_games(capsys, rules):
    spec = f"cmd:{NODE} {NODE_EXAMPLE}"
    args = ["simulate", "--rules", rules, "-p", "2", "-n", "1", "--format", "jsonl"]
    code, out, err = run(capsys, *args, "--bots", f"random,{spec}")
    assert code == 0, err
    (game,) = lines_of(out)
    assert game["players"][1]["bot"] == spec
    assert game["rounds"] >= 1 and game["actions"] > 10


def test_jobs_two_equals_jobs_one_with_a_program_seated(capsys):
    args = ["simulate", "-p", "2", "-n", "4", "--format", "jsonl", "--bots"]
    code, one, err = run(capsys, *args, f"{python_agent()},random", "--jobs", "1")
    assert code == 0, err
    code, two, err = run(capsys, *args, f"{python_agent()},random", "--jobs", "2")
    assert (code, two) == (0, one), err


# ---- failure modes -------------------------------------------------------------------------------

CRASH = """
for line in sys.stdin:
    if json.loads(line)["type"] == "state":
        print("boom: the agent fell over", file=sys.stderr, flush=True)
        sys.exit(3)
"""
#: Answers its first decision, then thinks forever (a timeout, and a process to kill).
SLOW = """
open(os.environ["AGENT_PID_FILE"], "a").write(f"{os.getpid()}\\n")
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "state":
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
        while True:
            time.sleep(1)
"""
GARBAGE = """
for line in sys.stdin:
    if json.loads(line)["type"] == "state":
        print("{this is not json", flush=True)
"""
ILLEGAL = """
for line in sys.stdin:
    if json.loads(line)["type"] == "state":
        print(json.dumps({"action": "fly away"}), flush=True)
"""
ENDLESS = """
for line in sys.stdin:
    if json.loads(line)["type"] == "state":
        sys.stdout.write("x" * 200_000)
        sys.stdout.flush()
        time.sleep(30)
"""
FAILURES = {
    "crash": (CRASH, "exited with code 3 (boom: the agent fell over)"),
    "timeout": (SLOW, "did not answer within 0.5 s"),
    "garbage": (GARBAGE, "wrote '{this is not json'"),
    "illegal": (ILLEGAL, "played 'fly away', refused: there is no action 'fly'"),
    "endless": (ENDLESS, "wrote a line longer than 65,536 bytes"),
}


@pytest.fixture
def pid_file(tmp_path, monkeypatch):
    path = tmp_path / "pids"
    monkeypatch.setenv("AGENT_PID_FILE", str(path))
    return path


def agent_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if "agent in seat" in line]


@pytest.mark.parametrize("mode", sorted(FAILURES))
def test_stop_is_one_line_naming_seat_and_command(capsys, tmp_path, pid_file, mode):
    body, reason = FAILURES[mode]
    spec = script(tmp_path, mode, body)
    code, _, err = run(
        capsys, "simulate", "-p", "2", "-n", "1", "--agent-timeout", "0.5",
        "--bots", f"random,{spec}",
    )  # fmt: skip
    assert code == 1
    assert "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert line.startswith("castell: error: agent in seat 1 (cmd:")
    assert f"{mode}.py)" in line and reason in line


@pytest.mark.parametrize("mode", sorted(FAILURES))
@pytest.mark.parametrize("policy", ["forfeit", "fallback:greedy"])
def test_forfeit_and_fallback_finish_the_game(capsys, tmp_path, pid_file, mode, policy):
    body, reason = FAILURES[mode]
    spec = script(tmp_path, mode, body)
    code, out, err = run(
        capsys, "simulate", "-p", "2", "-n", "2", "--format", "jsonl", "--agent-timeout", "0.5",
        "--on-agent-error", policy, "--bots", f"{spec},random",
    )  # fmt: skip
    assert code == 0, err
    assert "Traceback" not in err
    games = lines_of(out)
    assert [g["rounds"] for g in games] == [10, 10]  # C-10.1: played to the end, scored
    failures = agent_lines(err)
    assert len(failures) == 2  # one line per game, naming seat and command
    for line in failures:
        assert line.startswith("castell: agent in seat 0 (cmd:") and reason in line
        assert ("greedy plays" in line) if policy != "forfeit" else ("forfeits" in line)


def test_forfeit_means_passing_and_fallback_means_the_bot_plays(capsys, tmp_path):
    """A forfeited seat passes (ends its turns at once) so it scores less than a bot playing on."""
    spec = script(tmp_path, "illegal", ILLEGAL)
    args = ["simulate", "-p", "2", "-n", "3", "--format", "jsonl", "--bots", f"{spec},random"]
    code, forfeit, _ = run(capsys, *args, "--on-agent-error", "forfeit")
    code2, fallback, _ = run(capsys, *args, "--on-agent-error", "fallback:greedy")
    assert code == code2 == 0
    passed = sum(g["players"][0]["total"] for g in lines_of(forfeit))
    played = sum(g["players"][0]["total"] for g in lines_of(fallback))
    assert passed < played


def test_bad_policy_and_bad_command_are_usage_errors(capsys):
    code, _, err = run(
        capsys, "simulate", "-n", "1", "--bots", "cmd:true", "--on-agent-error", "retry"
    )
    assert code == 2 and "--on-agent-error" in err and "Traceback" not in err
    code, _, err = run(capsys, "simulate", "-n", "1", "-p", "2", "--bots", "cmd:,random")
    assert code == 2 and "cmd needs a command" in err
    code, _, err = run(capsys, "simulate", "-n", "1", "-p", "2", "--bots", 'cmd:"open,random')
    assert code == 2 and "cannot read the command" in err
    code, _, err = run(
        capsys, "simulate", "-n", "1", "-p", "2", "--bots", "cmd:true,random",
        "--on-agent-error", "fallback:cmd:true",
    )  # fmt: skip
    assert code == 2 and "fallback" in err


def test_a_missing_program_is_a_one_line_error(capsys):
    code, _, err = run(
        capsys, "simulate", "-n", "1", "-p", "2", "--bots", "cmd:no-such-agent-x,random"
    )
    assert code == 1
    assert err.strip() == (
        "castell: error: agent in seat 0 (cmd:no-such-agent-x) cannot start: "
        "No such file or directory"
    )


# ---- processes never outlive their parent ------------------------------------------------------


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ")[1].startswith("Z"))


def test_a_timed_out_program_is_killed(capsys, tmp_path, pid_file):
    spec = script(tmp_path, "slow", SLOW)
    code, _, err = run(
        capsys, "simulate", "-p", "2", "-n", "1", "--agent-timeout", "0.3",
        "--on-agent-error", "forfeit", "--bots", f"{spec},random",
    )  # fmt: skip
    assert code == 0, err
    (pid,) = map(int, pid_file.read_text().split())
    assert not alive(pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_programs_die_with_a_killed_parent(tmp_path, pid_file, jobs):
    """SIGKILL leaves the parent no chance to clean up: the kernel kills its programs."""
    spec = script(tmp_path, "slow", SLOW)
    command = [
        sys.executable, "-m", "castell_dsl", "simulate", "-p", "2", "-n", "4", "--jobs", jobs,
        "--agent-timeout", "600", "--bots", f"{spec},random",
    ]  # fmt: skip
    parent = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            if pid_file.exists() and pid_file.read_text().strip():
                break
            time.sleep(0.05)
        pids = list(map(int, pid_file.read_text().split()))
        assert pids and all(alive(pid) for pid in pids)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    for _ in range(200):
        if not any(alive(pid) for pid in pids):
            break
        time.sleep(0.05)
    assert not any(alive(pid) for pid in pids)


# ---- nobody else starts a program ---------------------------------------------------------------


def test_the_network_never_starts_a_program_unless_the_administrator_allowed_it():
    from castell_dsl.runtime.bots import BotSpecError, check_bot_spec

    with pytest.raises(BotSpecError, match="does not start programs"):
        check_bot_spec("cmd:python3 bot.py", served=True)
    with pytest.raises(BotSpecError, match="only the programs its administrator allowed"):
        check_bot_spec("cmd:rm -rf /", served=True, allowed_commands=["python3 bot.py"])
    check_bot_spec("cmd:python3 bot.py", served=True, allowed_commands=["python3 bot.py"])
    check_bot_spec("cmd:python3 bot.py")  # from the command line: the user's own choice


def test_a_save_never_starts_a_program(capsys, tmp_path):
    code, _, err = run(
        capsys, "simulate", "-p", "2", "-n", "1", "--save", str(tmp_path),
        "--bots", f"{python_agent()},random",
    )  # fmt: skip
    assert code == 0, err
    save = tmp_path / "game-00000.json"
    code, _, err = run(capsys, "play", "--load", str(save), "--frontend", "jsonl")
    assert code == 1 and "seat 0 is a program" in err and "--players" in err


def test_yaml_config_seats_a_program(capsys, tmp_path):
    config = tmp_path / "agents.yaml"
    config.write_text(
        "players: 2\ngames: 1\nformat: jsonl\nagent_timeout: 30\non_agent_error: forfeit\n"
        f"bots:\n  - {{name: cmd, command: {sys.executable} {PYTHON_EXAMPLE}}}\n  - greedy\n"
    )
    code, out, err = run(capsys, "simulate", "--config", str(config))
    assert code == 0, err
    (game,) = lines_of(out)
    assert game["players"][0]["bot"].startswith("cmd:timeout=30.0,on_error=forfeit,command=")


def test_play_seats_a_program_beside_you(capsys, monkeypatch, tmp_path):
    """`castell play --players you,cmd:…`: the jsonl front-end's `you` plays against it."""
    import io

    monkeypatch.setattr(
        "sys.stdin", io.StringIO('{"command": "quit", "path": "%s"}\n' % (tmp_path / "g.json"))
    )
    code, out, err = run(
        capsys, "play", "--players", f"{python_agent()},you", "--seed", "4", "--frontend", "jsonl"
    )
    assert code == 0, err
    messages = lines_of(out)
    assert messages[0]["seats"][0] == python_agent()
    assert any(m["type"] == "state" and m["player"] == 1 for m in messages)
    assert any(m["type"] == "event" and m["event"].get("player") == 0 for m in messages)


def test_stop_crosses_worker_processes_as_one_line(capsys, tmp_path):
    spec = script(tmp_path, "illegal", ILLEGAL)
    code, _, err = run(
        capsys, "simulate", "-p", "2", "-n", "4", "--jobs", "2", "--bots", f"random,{spec}"
    )
    assert code == 1 and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("castell: error: agent in seat 1 (cmd:")


@pytest.mark.parametrize("command", ["compare", "analyze"])
def test_compare_and_analyze_seat_a_program(capsys, command):
    extra = ["castell", "castell+short-season"] if command == "compare" else ["castell"]
    if command == "analyze":
        extra += ["--no-skill"]
    code, out, err = run(
        capsys, command, *extra, "-n", "2", "-p", "2", "--format", "json",
        "--bots", f"{python_agent()},greedy",
    )  # fmt: skip
    assert code == 0, err
    assert python_agent() in out


def test_a_plugin_cannot_take_the_name_cmd(monkeypatch):
    """Who may start a program is decided by the name `cmd`: the core keeps it."""
    import types

    from castell_dsl import hookimpl
    from castell_dsl.contract import BotFactory
    from castell_dsl.runtime import plugins as plugin_module
    from castell_dsl.runtime.agents import CommandAgent
    from castell_dsl.runtime.plugins import get_plugins, registries, reset

    def register_bots():
        return [BotFactory("cmd", "an impostor", lambda rules, seat, seed, **s: None)]

    module = types.ModuleType("impostor")
    module.register_bots = hookimpl(register_bots)  # type: ignore[attr-defined]

    class EntryPoint:
        name, dist = "impostor", None

        def load(self):
            return module

    real = plugin_module._entry_points
    monkeypatch.setattr(plugin_module, "_entry_points", lambda: [*real(), EntryPoint()])
    reset()
    try:
        assert registries().bots["cmd"].create.__module__ == CommandAgent.__module__
        assert any(
            "bot 'cmd' is already registered by plugin 'castell-dsl (the core)'" in str(f)
            for f in get_plugins().failures
        )
    finally:
        monkeypatch.undo()
        reset()


def test_a_chatty_program_s_stderr_is_kept_bounded_and_quoted_sanitised(capsys, tmp_path):
    """Megabytes on standard error neither block the program nor flood the error line."""
    spec = script(
        tmp_path,
        "chatty",
        """
        for line in sys.stdin:
            if json.loads(line)["type"] == "state":
                for _ in range(20_000):
                    sys.stderr.write("noise " * 10 + "\\n")
                sys.stderr.write("last words \\x1b[31mred\\n")
                sys.stderr.flush()
                sys.exit(2)
        """,
    )
    code, _, err = run(capsys, "simulate", "-n", "1", "-p", "2", "--bots", f"{spec},random")
    assert code == 1
    (line,) = err.strip().splitlines()
    assert "exited with code 2 (last words" in line
    assert "\x1b" not in line and len(line) < 400
