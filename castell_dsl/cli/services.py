"""The host's side of `castell_dsl.contract.services`: what the `castell` command hands its
front-end plugins (`register_commands(cli, services)`) and their worker processes.

Every method delegates to the one function that does the job (the catalogue of the library
API, the runtime's installed names, saves, games, sessions, bots and plugins, the language
server's analysis, the design report): nothing here decides anything of its own. It lives at
the command line's layer because what it hands on spans the runtime, the library API (the
catalogue) and the tools (the language server), and only this layer may import all three.
Each import is inside its method, so handing the object over costs nothing and a worker
process loads only what it uses.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..contract.services import PluginError

if TYPE_CHECKING:
    from ..contract import Bot, Mechanics, PlayableGame, PlaySession
    from ..contract.services import (
        Completion,
        FrontendServices,
        InstalledGame,
        InstalledVariant,
        TextAnalysis,
    )
    from ..language.diagnostics import Diagnostic, Diagnostics
    from ..language.loader import Loader, RulePath
    from ..language.ruleset import RuleSet
    from ..tools.analysis import Analysis

#: A worker's entry, `package.module:function`.
ENTRY = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")
#: The module a worker process starts in (`worker.py` beside this one).
WORKER_MODULE = "castell_dsl.cli.worker"


def _game(game: PlayableGame) -> Any:
    """The engine's game behind a `PlayableGame` the services started (saves read its
    rules' provenance and state hash, which the contract does not show)."""
    from ..engine.game import Game

    if not isinstance(game, Game):
        raise TypeError(f"a game the services started, not a {type(game).__name__}")
    return game


def _analysis(analysis: TextAnalysis) -> Analysis:
    """The language server's `Analysis` behind a `TextAnalysis` that `analyze_text` made."""
    from ..tools.analysis import Analysis

    if not isinstance(analysis, Analysis):
        raise TypeError(f"an analysis made by analyze_text, not a {type(analysis).__name__}")
    return analysis


class HostServices:
    """`FrontendServices`, implemented by delegation (see the module docstring)."""

    @property
    def save_format(self) -> str:
        from ..runtime.saves import SAVE_FORMAT

        return SAVE_FORMAT

    # ---- catalogue ----
    def list_games(self) -> Sequence[InstalledGame]:
        from ..api.catalogue import list_games

        return list_games()

    def list_variants(self, game: str) -> Sequence[InstalledVariant]:
        from ..api.catalogue import list_variants

        return list_variants(game)

    def installed_rule_sets(self) -> list[str]:
        from ..runtime.installed import installed_rule_sets

        return installed_rule_sets()

    def installed_rules_path(self, name: str) -> Path:
        from ..runtime.installed import installed_rules_path

        return installed_rules_path(name)

    def installed_variants(self, rules_name: str) -> dict[str, Path | None]:
        from ..runtime.installed import installed_variants

        return installed_variants(rules_name)

    def check_installed(self, rules_name: Any, variants: Any) -> tuple[str, tuple[str, ...]]:
        from ..runtime.installed import check_installed

        return check_installed(rules_name, variants)

    def load_installed(self, rules_name: Any, variants: Any = ()) -> RuleSet:
        from ..runtime.installed import load_installed

        return load_installed(rules_name, variants)

    def installed_mechanics(self) -> list[Mechanics]:
        from ..runtime.loading import find_mechanics, mechanics_names

        found = (find_mechanics(name) for name in mechanics_names())
        return [mechanics for mechanics in found if mechanics is not None]

    def bot_names(self) -> list[str]:
        from ..runtime.plugins import registries

        return sorted(registries().bots)

    # ---- saves and replays ----
    def rules_identity(self, rules: RuleSet) -> dict[str, Any]:
        from ..runtime.saves import rules_identity

        return rules_identity(rules)

    def save_record(self, game: PlayableGame, seats: list[str] | None = None) -> dict[str, Any]:
        from ..runtime.saves import save_record

        return save_record(_game(game), seats)

    def check_record(self, record: Any, where: str = "save file") -> dict[str, Any]:
        from ..runtime.saves import check_record

        return check_record(record, where)

    def rules_from_identity(
        self, identity: dict[str, Any], fmt: str, *, installed_only: bool = False
    ) -> RuleSet:
        from ..runtime.saves import rules_from_identity

        return rules_from_identity(identity, fmt, installed_only=installed_only)

    def replay(
        self, record: dict[str, Any], *, verify: bool = True, installed_only: bool = False
    ) -> PlayableGame:
        from ..runtime.saves import replay

        return replay(record, verify=verify, installed_only=installed_only)

    # ---- games and sessions ----
    def start_game(
        self, rules: RuleSet, players: int, seed: int, *, record_events: bool = True
    ) -> PlayableGame:
        from ..runtime.games import start_game

        return start_game(rules, players, seed, record_events=record_events)

    def new_session(
        self,
        rules: RuleSet,
        players: int,
        seed: int,
        seats: list[str],
        log: Sequence[str] | None = None,
    ) -> PlaySession:
        from ..runtime.session import Session

        return Session(rules, players, seed, seats, log=log or ())

    # ---- bots ----
    def check_bot_spec(
        self, spec: str, *, served: bool = False, allowed_commands: Collection[str] = ()
    ) -> None:
        from ..runtime.bots import check_bot_spec

        check_bot_spec(spec, served=served, allowed_commands=allowed_commands)

    def make_bot(self, spec: str, rules: RuleSet, seat: int, game_seed: int) -> Bot:
        from ..runtime.bots import make_bot

        return make_bot(spec, rules, seat, game_seed)

    def finish_bots(self, bots: Collection[Bot], game: PlayableGame) -> None:
        from ..runtime.bots import finish_bots

        finish_bots(bots, game)

    # ---- worker processes ----
    def worker_command(self, entry: str) -> list[str]:
        if not isinstance(entry, str) or not ENTRY.fullmatch(entry):
            raise ValueError(f"a worker's entry is 'package.module:function', not {entry!r}")
        return [sys.executable, "-m", WORKER_MODULE, entry, str(os.getpid())]

    # ---- plugin registrations ----
    def collect(
        self, hook: str, accept: Callable[[Any], bool], expected: str
    ) -> list[tuple[str, Any]]:
        from ..runtime.plugins import get_plugins

        return get_plugins().collect_from(
            hook, accept=accept, expected=expected, registration_order=True
        )

    def package_dir(self, plugin: str) -> Path | None:
        from ..runtime.plugins import get_plugins

        registered: Any = get_plugins().manager.get_plugin(plugin)
        if isinstance(registered, ModuleType):
            module: Any = registered
        else:  # a plugin object: the module its class is defined in
            module = sys.modules.get(type(registered).__module__)
        file = getattr(module, "__file__", None)
        return Path(file).resolve().parent if isinstance(file, str) else None

    def report_failure(self, error: PluginError) -> None:
        from ..runtime.plugins import get_plugins

        get_plugins().fail(error)

    # ---- rule text (the studio) ----
    def rule_path(self) -> RulePath:
        from ..runtime.loading import rule_path

        return rule_path()

    def file_diagnostics(self, path: Path) -> list[Diagnostic]:
        from ..runtime.loading import load_report

        return list(load_report(path).diagnostics)

    def analyze_text(
        self, path: Path, text: str, loader: Callable[[Diagnostics], Loader]
    ) -> TextAnalysis:
        from ..tools.analysis import analyze

        return analyze(path, text, loader=loader)

    def hover(self, analysis: TextAnalysis, line: int, column: int) -> str | None:
        from ..tools.assist import hover_text
        from ..tools.navigation import word_at

        found = _analysis(analysis)
        word = word_at(found.text, line, column)
        if word is None:
            return None
        return hover_text(found, line, column, word.bare, word.quoted, files=False)

    def completions(self, analysis: TextAnalysis, line: int, column: int) -> list[Completion]:
        from ..tools.assist import completions

        return list(completions(_analysis(analysis), line, column))

    # ---- the studio's analyses ----
    def analyze_variant(
        self,
        variant_file: Path,
        base: str,
        players: int,
        bots: Sequence[str],
        seed: int,
        games: int,
        on_game: Callable[[], None] | None = None,
    ) -> dict[str, Any]:
        from ..runtime.analysis.report import analyze
        from ..runtime.paired import Contender

        subject = Contender("variant", str(variant_file), ())
        return analyze(
            subject, Contender(base, base, ()), players, bots, seed, games, 1, None, False, 0.0,
            on_game=on_game,
        )  # fmt: skip

    def report_html(self, report: dict[str, Any]) -> str:
        from ..runtime.analysis.html import render_html

        return render_html(report)


def host_services() -> FrontendServices:
    """The services the `castell` command hands its front-ends."""
    return HostServices()
