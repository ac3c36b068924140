"""The services seam (issue 28, item 4): what a front-end asks of the host is the contract's
`FrontendServices`; the host implements it by delegation (`castell_dsl.cli.services`) and
hands it to `register_commands` and to a front-end's worker processes.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

from castell_dsl.cli.services import HostServices, host_services
from castell_dsl.contract import services as contract
from castell_dsl.runtime import bots, installed, plugins, saves

#: The roles the protocol is made of.
ROLES = [
    contract.Catalogue,
    contract.SavesAndReplays,
    contract.GamesAndSessions,
    contract.BotsService,
    contract.WorkerStartup,
    contract.PluginRegistry,
    contract.RuleTextService,
    contract.StudioAnalysis,
]


def _operations() -> dict[str, object]:
    return {
        name: member
        for role in ROLES
        for name, member in vars(role).items()
        if not name.startswith("_") and (callable(member) or isinstance(member, property))
    }


def test_the_runtime_raises_the_contracts_exceptions() -> None:
    """One hierarchy: what a front-end catches through the contract is what the runtime
    raises (the runtime imports the classes from the contract)."""
    assert installed.NotInstalled is contract.NotInstalled
    assert installed.Shadowed is contract.Shadowed
    assert saves.SaveError is contract.SaveError
    assert issubclass(saves.SaveWriteError, contract.SaveError)
    assert bots.BotSpecError is contract.BotSpecError
    assert plugins.PluginError is contract.PluginError
    assert plugins.NameClash is contract.NameClash
    assert plugins.WrongType is contract.WrongType


def test_a_name_that_is_not_installed_is_the_contracts_refusal() -> None:
    with pytest.raises(contract.NotInstalled):
        host_services().load_installed("../etc/passwd")
    with pytest.raises(contract.BotSpecError):
        host_services().check_bot_spec("no-such-bot")
    with pytest.raises(contract.SaveError):
        host_services().check_record({"format": "castell-save/3"})


def test_every_operation_is_documented_and_implemented() -> None:
    """Each method of each role says why, what it returns and raises (a docstring), and the
    host implements each with the same parameters."""
    operations = _operations()
    assert len(operations) >= 30
    for name, member in operations.items():
        assert inspect.getdoc(member), f"{name} has no docstring"
        implemented = getattr(HostServices, name)
        if callable(member):
            wanted = list(inspect.signature(member).parameters)
            assert list(inspect.signature(implemented).parameters) == wanted, name
    bases = {b for b in contract.FrontendServices.__bases__ if b.__name__ != "Protocol"}
    assert bases == set(ROLES)  # the roles read here are every role of the protocol


def test_the_catalogue_is_the_librarys() -> None:
    from castell_dsl.api import list_games, list_variants

    services = host_services()
    assert [g.name for g in services.list_games()] == [g.name for g in list_games()]
    assert [v.name for v in services.list_variants("calico")] == [
        v.name for v in list_variants("calico")
    ]
    assert services.installed_rule_sets() == installed.installed_rule_sets()


@pytest.mark.parametrize(
    "entry", ["castell_web.bots", "os:system; rm -rf /", "../x:main", ":main", "a.b:", "a b:c"]
)
def test_a_worker_entry_is_module_colon_function(entry: str) -> None:
    with pytest.raises(ValueError, match=r"is 'package\.module:function'"):
        host_services().worker_command(entry)


def test_the_worker_command_names_this_process_as_the_parent() -> None:
    command = host_services().worker_command("castell_web.bots:worker_main")
    assert command == [
        sys.executable,
        "-m",
        "castell_dsl.cli.worker",
        "castell_web.bots:worker_main",
        str(os.getpid()),
    ]


def test_a_worker_is_handed_the_services(tmp_path: Path) -> None:
    """The entry function runs in a fresh interpreter with the host's services."""
    (tmp_path / "probe_worker.py").write_text(
        "def main(services):\n"
        "    print(type(services).__name__, 'castell' in services.installed_rule_sets())\n",
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    done = subprocess.run(
        host_services().worker_command("probe_worker:main"),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "HostServices True"


def test_a_malformed_worker_command_line_is_refused_without_importing() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "castell_dsl.cli.worker", "os:system;x", str(os.getpid())],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert "usage:" in done.stderr
