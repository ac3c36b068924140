"""What a front-end plugin asks of the host that runs it: the services interface.

A front-end that only plays one game is handed a `PlaySession` (`frontends.py`). A server
such as `castell serve` does more: it lists the installed games, starts matches and sessions,
reads and replays saves, checks bot specs and runs bots in worker processes, collects the
games' web assets and, in the studio, analyses a stranger's rule text. Those operations live
in the runtime, the library API and the tools, which a plugin must not import (they are free
to change; docs/architecture.md). So the host hands the front-end one object that implements
`FrontendServices` below: the `castell` command passes it to `register_commands(cli,
services)`, and a worker process a front-end starts with `worker_command` receives it as the
argument of its entry function.

The protocol is grouped by role (`Catalogue`, `SavesAndReplays`, `GamesAndSessions`,
`BotsService`, `WorkerStartup`, `PluginRegistry`, `RuleTextService`, `StudioAnalysis`), so a
part of a front-end can say which role it needs. Each method says why it exists, what it
returns and what it raises. The exceptions a front-end must catch are defined here, and the
runtime raises these very classes (it imports them from here): one hierarchy, reachable
through the contract.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from ..language import syntax
    from ..language.diagnostics import Diagnostic, Diagnostics
    from ..language.loader import Definitions, Loader, RulePath
    from ..language.ruleset import RuleSet
    from ..language.schema import Kind
    from .bots import Bot, PlayableGame
    from .frontends import PlaySession
    from .mechanics import Mechanics

# ---- the exceptions a front-end catches ------------------------------------------------------


class NotInstalled(ValueError):
    """A name that is not an installed rule set or variant; the message says which are."""


class Shadowed(RuntimeError):
    """The installed rules were not loaded from their installed files: a problem for the
    operator (logged), not the client."""


class SaveError(Exception):
    """A save file that cannot be used; the message names what is wrong."""


class BotSpecError(ValueError):
    """A `--players`/`--bots` entry that names no bot or gives a bad setting."""


class PluginError(Exception):
    """A plugin failed: names the plugin and the hook so the user knows whom to blame."""

    def __init__(self, plugin: str, hook: str, error: BaseException):
        self.plugin, self.hook, self.error = plugin, hook, error
        super().__init__(
            f"plugin '{plugin}' failed in hook '{hook}': {type(error).__name__}: {error}"
        )


class NameClash(Exception):
    """Two plugins registered the same name; the first keeps it."""

    def __init__(self, what: str, name: str, owner: str, other: str):
        self.what, self.name, self.owner, self.other = what, name, owner, other
        super().__init__(
            f"{what} '{name}' is already registered by plugin '{owner}'; plugin '{other}' "
            f"registers it too and its {what} is skipped"
        )


class WrongType(TypeError):
    """A registration hook returned something that is not what its spec asks for."""


# ---- what the services return ------------------------------------------------------------------


class InstalledGame(Protocol):
    """An installed game as the catalogue lists it (the library's `GameInfo`)."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def mechanics(self) -> str: ...
    @property
    def players(self) -> tuple[int, int]: ...


class InstalledVariant(Protocol):
    """A variant of an installed game (the library's `VariantInfo`); `players` is the player
    range with this variant alone (None when it does not load alone)."""

    @property
    def name(self) -> str: ...
    @property
    def players(self) -> tuple[int, int] | None: ...


class TextAnalysis(Protocol):
    """One load of one rule text, as the language server makes it (`castell lsp`). It is a
    dataclass: `dataclasses.replace` makes a copy with some parts changed."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def path(self) -> Path: ...
    @property
    def text(self) -> str: ...
    @property
    def tree(self) -> syntax.RuleFile | None: ...
    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    @property
    def definitions(self) -> Definitions | None: ...
    @property
    def rules(self) -> RuleSet | None: ...
    @property
    def kinds(self) -> Mapping[str, Kind]: ...


class Completion(Protocol):
    """One thing that may be typed at a place of a rule text."""

    @property
    def label(self) -> str: ...
    @property
    def sort(self) -> str: ...
    @property
    def detail(self) -> str: ...
    @property
    def documentation(self) -> str: ...


# ---- the roles ----------------------------------------------------------------------------------


class Catalogue(Protocol):
    """The installed games, variants, mechanics and bots: by installed name only, so the
    answers may go to a stranger on a network (a name given is never opened as a path)."""

    def __hash__(self) -> int:
        """The services are hashable: a front-end may keep answers per services object (the
        installed games do not change while a process runs)."""
        ...

    def list_games(self) -> Sequence[InstalledGame]:
        """The installed games that load, the default game first (the one catalogue that
        `castell rules list` and the library's `list_games` read too)."""
        ...

    def list_variants(self, game: str) -> Sequence[InstalledVariant]:
        """The variants of the installed game `game`, in natural order. Raises `LookupError`
        for a game that is not installed."""
        ...

    def installed_rule_sets(self) -> list[str]:
        """The names of the installed rule sets (sorted)."""
        ...

    def installed_rules_path(self, name: str) -> Path:
        """The installed file of the rule set `name`. Raises `NotInstalled`."""
        ...

    def installed_variants(self, rules_name: str) -> Mapping[str, Path | None]:
        """Variant name -> its installed file (None: a plugin's code variant) for the
        installed rule set `rules_name`."""
        ...

    def check_installed(self, rules_name: Any, variants: Any) -> tuple[str, tuple[str, ...]]:
        """(rule set, variants) as installed names, for names that came from a network.
        Raises `NotInstalled` (for anything else too: a path, a number, too many variants)."""
        ...

    def load_installed(self, rules_name: Any, variants: Any = ()) -> RuleSet:
        """The installed rule set with installed variants, loaded from the installed files.
        Raises `NotInstalled`, `Shadowed` (the files loaded were not the installed ones) or
        `RuleError` (these variants do not go together)."""
        ...

    def installed_mechanics(self) -> list[Mechanics]:
        """Every registered mechanics (for the studio's highlighting of their kinds)."""
        ...

    def bot_names(self) -> list[str]:
        """The names of the registered bots (the program kind `cmd` among them)."""
        ...


class SavesAndReplays(Protocol):
    """The castell-save format: what identifies a rule set as played, records, replays."""

    @property
    def save_format(self) -> str:
        """The current save format's name (`castell-save/3`)."""
        ...

    def rules_identity(self, rules: RuleSet) -> dict[str, Any]:
        """How a save names `rules`: exactly as played (names, hashes, files)."""
        ...

    def save_record(self, game: PlayableGame, seats: list[str] | None = None) -> dict[str, Any]:
        """The save record of a game the services started (JSON-ready)."""
        ...

    def check_record(self, record: Any, where: str = "save file") -> dict[str, Any]:
        """`record`, every field's type and bound checked. Raises `SaveError` saying which."""
        ...

    def rules_from_identity(
        self, identity: dict[str, Any], fmt: str, *, installed_only: bool = False
    ) -> RuleSet:
        """The rules a save's identity names. `installed_only`: by installed names only (for
        identities from a network or a server's store; no recorded path is opened). Raises
        `SaveError` when they are not there or have changed since."""
        ...

    def replay(
        self, record: dict[str, Any], *, verify: bool = True, installed_only: bool = False
    ) -> PlayableGame:
        """The game a checked save record reaches, its state hash verified (`verify`).
        Raises `SaveError` (with the reason) for a record that does not replay."""
        ...


class GamesAndSessions(Protocol):
    """Starting games, and sessions that seat people and bots at them."""

    def start_game(
        self, rules: RuleSet, players: int, seed: int, *, record_events: bool = True
    ) -> PlayableGame:
        """A new game of `rules`, its logic found through the plugins. Raises `ValueError`
        for a player count the rules do not allow."""
        ...

    def new_session(
        self,
        rules: RuleSet,
        players: int,
        seed: int,
        seats: list[str],
        log: Sequence[str] | None = None,
    ) -> PlaySession:
        """A session: `seats` are `HUMAN` or bot specs; `log` (actions already played) is
        replayed. Raises `BotSpecError` or `ValueError` for seats or players that do not fit,
        and `ActionError` for a log that does not replay."""
        ...


class BotsService(Protocol):
    """Bots by spec (`greedy`, `mcts:iterations=200`, `cmd:PROGRAM`)."""

    def check_bot_spec(
        self, spec: str, *, served: bool = False, allowed_commands: Collection[str] = ()
    ) -> None:
        """Refuse (`BotSpecError`) a spec that `make_bot` would refuse, without building a
        bot; `served`: within the tighter ranges a server accepts from a network, and a
        program only among `allowed_commands`."""
        ...

    def make_bot(self, spec: str, rules: RuleSet, seat: int, game_seed: int) -> Bot:
        """A bot for `seat`. Raises `BotSpecError`."""
        ...

    def finish_bots(self, bots: Collection[Bot], game: PlayableGame) -> None:
        """The game is over or abandoned: let each bot that holds something (a program's
        process) hear the result and let it go. Never raises."""
        ...


class WorkerStartup(Protocol):
    """Worker processes a front-end starts (bots thinking, analyses): fresh interpreters
    that exit with their parent and are handed the services too."""

    def worker_command(self, entry: str) -> list[str]:
        """The command line of a worker process that runs `entry` ("package.module:function",
        a function of the calling front-end's own package, chosen by its code and never by a
        network) with the services as its one argument. The worker exits as soon as this
        process is gone and leaves Ctrl-C to it; its standard streams are the caller's to
        connect. Raises `ValueError` for an entry that is not `module:function`."""
        ...


class PluginRegistry(Protocol):
    """What plugins registered, for a front-end that serves registrations of its own kind
    (the web server's `register_web_assets`)."""

    def collect(
        self, hook: str, accept: Callable[[Any], bool], expected: str
    ) -> list[tuple[str, Any]]:
        """(plugin name, item) for each item of each plugin's answer to `hook`, built-in
        plugins first. An answer that is not a list, or an item `accept` refuses, is reported
        as that plugin's failure (it must return `expected`) and left out."""
        ...

    def package_dir(self, plugin: str) -> Path | None:
        """The folder of a registered plugin's package (for a plugin that is one module, the
        module's folder; for an object, its class's module's), None when it cannot be told."""
        ...

    def report_failure(self, error: PluginError) -> None:
        """Report a plugin's failure as every command reports one (once, with its name)."""
        ...


class RuleTextService(Protocol):
    """Rule text as `castell validate` and the language server read it (the studio)."""

    def rule_path(self) -> RulePath:
        """The rule path: the directories rule sets are found in by name (what a `Loader`
        is made with)."""
        ...

    def file_diagnostics(self, path: Path) -> list[Diagnostic]:
        """Every diagnostic of the rule file at `path` loaded alone (`castell validate`)."""
        ...

    def analyze_text(
        self, path: Path, text: str, loader: Callable[[Diagnostics], Loader]
    ) -> TextAnalysis:
        """The language server's analysis of `text` as the file at `path`, loaded by the
        `loader` the caller makes (one that confines a stranger's `extends`/`include`)."""
        ...

    def hover(self, analysis: TextAnalysis, line: int, column: int) -> str | None:
        """The language server's hover (Markdown) at (line, column), None where there is
        none; a quoted `extends`/`include` target is not looked up on disk."""
        ...

    def completions(self, analysis: TextAnalysis, line: int, column: int) -> list[Completion]:
        """What may be typed at (line, column), as the language server offers it."""
        ...


class StudioAnalysis(Protocol):
    """`castell analyze` for the studio: a variant against the rule set it extends."""

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
        """The design report (JSON-ready, as `castell analyze --json` writes it) of the rule
        file `variant_file` against the installed rule set `base`, on `games` paired games
        in this process, without the skill ladder; `on_game` is called after each game.
        Raises `RuleError` for rules that do not load."""
        ...

    def report_html(self, report: dict[str, Any]) -> str:
        """The report as the page `castell analyze --html` writes (no script in it)."""
        ...


class FrontendServices(
    Catalogue,
    SavesAndReplays,
    GamesAndSessions,
    BotsService,
    WorkerStartup,
    PluginRegistry,
    RuleTextService,
    StudioAnalysis,
    Protocol,
):
    """Everything the host offers a front-end plugin (see the module docstring)."""


__all__ = [
    "BotSpecError",
    "BotsService",
    "Catalogue",
    "Completion",
    "FrontendServices",
    "GamesAndSessions",
    "InstalledGame",
    "InstalledVariant",
    "NameClash",
    "NotInstalled",
    "PluginError",
    "PluginRegistry",
    "RuleTextService",
    "SaveError",
    "SavesAndReplays",
    "Shadowed",
    "StudioAnalysis",
    "TextAnalysis",
    "WorkerStartup",
    "WrongType",
]
