"""Finding plugins and calling their hooks.

Plugins are discovered through the `castell_dsl` entry-point group — the built-in ones too, so
removing a built-in from `pyproject.toml` removes its feature and nothing else. A plugin that
fails in any way is named and skipped, and the rest keeps working:

- an exception at import, even `SystemExit` or `KeyboardInterrupt` (a plugin calling
  `sys.exit()` at import must not silently end every command), skips the plugin;
- a `register_*` hook that raises, or returns something other than a list of the contract's
  type (`Mechanics`, `Variant`, `BotFactory`, `Frontend`; paths for `register_rule_paths`),
  has its result skipped, item by item;
- a name another plugin already registered (a bot, variant, front-end or mechanics) keeps
  its first owner — built-in plugins register first, so no plugin can take over `random` —
  and the clash is reported naming both plugins.

Every failure is a `PluginError` in `Plugins.failures`, printed once as a warning and listed
by `castell plugins`; when one becomes a rule diagnostic it has code E0280.

How: pluggy calls the hooks (`manager.hook.NAME(...)`), and a plugin is registered through
`IsolatingPluginManager`, which wraps each of its hook implementations so that a failure is
recorded as that plugin's `PluginError` and the call goes on with the other plugins; each result
comes back as an `Answer` naming its plugin. `Plugins.call` decides what a failure means for
the call at hand (raise it, or warn and skip). After loading, `check_pending` reports every hook
implementation whose name no hook has (a misspelt `register_bot`), by plugin and name.

Debugging switches:
- `CASTELL_DISABLE_PLUGINS=name,name` skips those entry points;
- `--no-plugins` (or `CASTELL_NO_PLUGINS=1`) loads only the built-in plugins;
- `CASTELL_TRACE_HOOKS=1` logs every hook call, with its plugins, to standard error (pluggy's
  hook-call monitoring).
"""

from __future__ import annotations

import functools
import os
import sys
import types
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import metadata
from typing import Any

import pluggy

from .. import hookspecs
from ..contract.services import NameClash, PluginError, WrongType
from ..language.diagnostics import did_you_mean, register_codes

ENTRY_POINT_GROUP = "castell_dsl"
BUILTIN_DISTRIBUTION = "castell-dsl"


#: Exceptions a plugin's import may raise that must not end the command. KeyboardInterrupt
#: is among them: raised at import it is the plugin's doing, not the user's Ctrl-C.
IMPORT_FAILURES: tuple[type[BaseException], ...] = (Exception, SystemExit, KeyboardInterrupt)
#: Exceptions a hook may raise that are the plugin's failure (SystemExit too: a hook must
#: not end the command).
HOOK_FAILURES: tuple[type[BaseException], ...] = (Exception, SystemExit)


@dataclass
class PluginInfo:
    name: str
    source: str  # "built-in" or "DIST VERSION"
    distribution: str | None
    version: str | None
    builtin: bool
    error: str | None = None


@dataclass(frozen=True)
class Answer:
    """A hook implementation's result (never None), with the plugin that gave it."""

    plugin: str
    value: Any


class UnknownHook(Exception):
    """A plugin implements a hook no specification has (a misspelt name)."""


#: The plugin whose hook implementation is running (its `register_commands` adds commands
#: in its own name).
_CURRENT: ContextVar[str | None] = ContextVar("castell_plugin", default=None)


def current_plugin() -> str | None:
    """The plugin whose hook implementation is running now, if any."""
    return _CURRENT.get()


class IsolatingPluginManager(pluggy.PluginManager):
    """pluggy's manager, registering each plugin with every hook implementation wrapped: a
    failure becomes that plugin's `PluginError`, handed to `on_failure`, and the hook call goes
    on with the other plugins; a result comes back as an `Answer`. Generator hook wrappers
    (`wrapper=True`, `hookwrapper=True`) are registered as they are."""

    def __init__(self, project_name: str):
        super().__init__(project_name)
        #: Who hears of a failure (`Plugins` sets it); without one, the failure is raised.
        self.on_failure: Callable[[PluginError], None] | None = None

    def register(self, plugin: object, name: str | None = None) -> str | None:
        name = name or self.get_canonical_name(plugin)
        return super().register(self._isolated(plugin, name), name)

    def _isolated(self, plugin: object, name: str) -> object:
        """The plugin as registered: a module standing for it (its name, file and the plugin
        itself as `__wrapped__`, so `castell plugins` and asset checks still see where it
        comes from) whose hook implementations are guarded."""
        proxy = types.ModuleType(getattr(plugin, "__name__", name))
        home = (
            plugin
            if isinstance(plugin, types.ModuleType)
            else sys.modules.get(type(plugin).__module__)
        )
        proxy.__file__ = getattr(home, "__file__", None)
        proxy.__dict__["__wrapped__"] = plugin
        for attr in dir(plugin):
            opts = self.parse_hookimpl_opts(plugin, attr)
            if opts is None:
                continue
            function = getattr(plugin, attr)
            if opts.get("wrapper") or opts.get("hookwrapper"):
                setattr(proxy, attr, function)
            else:
                setattr(proxy, attr, self._guarded(function, name, attr))
        return proxy

    def _guarded(self, function: Callable[..., Any], plugin: str, hook: str) -> Callable:
        @functools.wraps(function)  # the same arguments and hookimpl marker, for pluggy
        def guarded(*args: Any, **kwargs: Any) -> Any:
            token = _CURRENT.set(plugin)
            try:
                value = function(*args, **kwargs)
            except HOOK_FAILURES as exc:
                error = exc if isinstance(exc, PluginError) else PluginError(plugin, hook, exc)
                if self.on_failure is None:
                    raise error from exc
                self.on_failure(error)
                return None
            finally:
                _CURRENT.reset(token)
            return None if value is None else Answer(plugin, value)

        return guarded


@dataclass
class Plugins:
    """The loaded plugins and a safe way to call their hooks."""

    manager: IsolatingPluginManager
    infos: dict[str, PluginInfo] = field(default_factory=dict)
    trace: bool = False
    failures: list[PluginError] = field(default_factory=list)
    #: Failures of the hook calls under way, innermost last (see `call`).
    _calls: list[list[PluginError]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.manager.on_failure = self._failed
        if self.trace:
            self.manager.add_hookcall_monitoring(_trace_before, _trace_after)

    def _failed(self, error: PluginError) -> None:
        if self._calls:
            self._calls[-1].append(error)
        else:  # a hook called outside `call` (pluggy directly): warn and go on
            self.fail(error)

    def call(
        self, hook_name: str, *, tolerant: bool = False, _pairs: bool = False, **kwargs: Any
    ) -> list[Any]:
        """Call a hook through pluggy (every implementation; the first answer for a
        `firstresult` hook), in pluggy's order: the last registered first. A plugin's failure
        raises its `PluginError` once the others have answered (or, when `tolerant`, is
        reported as a warning and skipped). With `_pairs`, each result comes as (plugin name,
        result)."""
        failed: list[PluginError] = []
        self._calls.append(failed)
        try:
            results = getattr(self.manager.hook, hook_name)(**kwargs)
        finally:
            self._calls.pop()
        if failed and not tolerant:
            raise failed[0]
        for error in failed:
            self.fail(error)
        answers = results if isinstance(results, list) else [results]
        pairs = [(a.plugin, a.value) for a in answers if isinstance(a, Answer)]
        return pairs if _pairs else [value for _plugin, value in pairs]

    def fail(self, error: PluginError) -> None:
        """Record a plugin's failure and warn once; the plugin's contribution is skipped."""
        if any(str(known) == str(error) for known in self.failures):
            return
        self.failures.append(error)
        print(f"castell: warning: {error} (skipped)", file=sys.stderr)

    def collect_from(
        self,
        hook_name: str,
        accept: Callable[[Any], bool] | None = None,
        expected: str = "",
        registration_order: bool = False,
        **kwargs: Any,
    ) -> list[tuple[str, Any]]:
        """Call a `register_*` hook: (plugin, item) for every item of the lists it returns.

        A plugin failing here is skipped with a warning — one broken plugin must not take
        the others down — and so is each item `accept` refuses (a wrong type), named.
        With `registration_order`, plugins come in the order they were registered (built-ins
        first), the order in which names are claimed.
        """
        out: list[tuple[str, Any]] = []
        results = self.call(hook_name, tolerant=True, _pairs=True, **kwargs)
        if registration_order:  # pluggy's call order is the reverse
            results.reverse()
        for plugin, result in results:
            items = list(result) if isinstance(result, (list, tuple)) else [result]
            for item in items:
                if accept is not None and not accept(item):
                    shown = type(item).__name__
                    self.fail(
                        PluginError(
                            plugin,
                            hook_name,
                            WrongType(f"returned a {shown}, expected {expected or 'a list'}"),
                        )
                    )
                    continue
                out.append((plugin, item))
        return out

    def collect(self, hook_name: str, **kwargs: Any) -> list[Any]:
        """Call a `register_*` hook and flatten the lists it returns (see `collect_from`)."""
        return [item for _plugin, item in self.collect_from(hook_name, **kwargs)]

    def hook_caller(self, hook_name: str) -> Callable[..., None] | None:
        """A caller for a hook called often (per move), or None when nothing implements it, so
        that an unused hook costs nothing. A failure raises, naming plugin and hook."""
        if not getattr(self.manager.hook, hook_name).get_hookimpls():
            return None

        def call(**kwargs: Any) -> None:
            self.call(hook_name, **kwargs)

        return call

    def registration_index(self, plugin: str) -> int:
        """Where a plugin stands in registration order (built-ins first); unknown ones last."""
        names = list(self.infos)
        return names.index(plugin) if plugin in names else len(names)

    def check_pending(self) -> None:
        """pluggy's `check_pending`, reporting every hook implementation that no hook
        specification matches (a misspelt name) as its plugin's failure, rather than raising
        at the first: the plugin's other hooks keep working."""
        specs = [n for n in dir(hookspecs) if hasattr(getattr(hookspecs, n), "castell_dsl_spec")]
        for name in sorted(vars(self.manager.hook)):
            caller = getattr(self.manager.hook, name)
            if not isinstance(caller, pluggy.HookCaller) or caller.has_spec():
                continue
            for impl in caller.get_hookimpls():
                if impl.optionalhook:
                    continue
                hint = did_you_mean(name, specs) or "see `castell plugins --reference`"
                unknown = UnknownHook(f"no hook is named '{name}' ({hint})")
                self.fail(PluginError(impl.plugin_name, name, unknown))

    def hooks_of(self, plugin_name: str) -> list[str]:
        plugin = self.manager.get_plugin(plugin_name)
        if plugin is None:
            return []
        callers = self.manager.get_hookcallers(plugin) or []
        return sorted(c.name for c in callers)

    @property
    def load_errors(self) -> list[PluginInfo]:
        return [info for info in self.infos.values() if info.error]


def _disabled() -> set[str]:
    raw = os.environ.get("CASTELL_DISABLE_PLUGINS", "")
    return {name.strip() for name in raw.split(",") if name.strip()}


def builtins_only_from_env() -> bool:
    return os.environ.get("CASTELL_NO_PLUGINS", "") not in ("", "0")


def _entry_points() -> list[metadata.EntryPoint]:
    return sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)


def _trace_before(hook_name: str, impls: Sequence[pluggy.HookImpl], kwargs: Any) -> None:
    for impl in impls:
        print(f"castell: hook {hook_name} -> {impl.plugin_name}", file=sys.stderr)


def _trace_after(outcome: Any, hook_name: str, impls: Any, kwargs: Any) -> None:
    return None


def load_plugins(builtins_only: bool | None = None) -> Plugins:
    """Discover and register plugins (no caching; see `get_plugins`)."""
    if builtins_only is None:
        builtins_only = builtins_only_from_env()
    manager = IsolatingPluginManager("castell_dsl")
    manager.add_hookspecs(hookspecs)
    plugins = Plugins(manager, trace=os.environ.get("CASTELL_TRACE_HOOKS", "") not in ("", "0"))
    disabled = _disabled()
    identities: dict[int, tuple[str | None, str | None]] = {}
    found = [(ep, _describe(ep, identities)) for ep in _entry_points()]
    # Built-in plugins first (so their names are theirs), then the others by name.
    found.sort(key=lambda item: (not item[1].builtin, item[0].name))
    for ep, info in found:
        if ep.name in disabled or (builtins_only and not info.builtin):
            continue
        if manager.get_plugin(ep.name) is not None or ep.name in plugins.infos:
            continue  # the same entry point from two installs: first wins
        try:
            module = ep.load()
            manager.register(module, name=ep.name)
        except IMPORT_FAILURES as exc:  # a broken plugin must not take the tool down
            info.error = f"{type(exc).__name__}: {exc}"
            if manager.get_plugin(ep.name) is not None:
                manager.unregister(name=ep.name)
        plugins.infos[ep.name] = info
    plugins.check_pending()
    return plugins


def _describe(
    ep: metadata.EntryPoint, identities: dict[int, tuple[str | None, str | None]] | None = None
) -> PluginInfo:
    """Where an entry point comes from (reading a broken distribution's metadata may fail).

    Entry points of one distribution share its object (castell-dsl has nine), and each read of
    `metadata` parses the whole file, README included: `identities` keeps the name and version
    read per distribution object, so it is parsed once, not twice per entry point."""
    dist = getattr(ep, "dist", None)
    known = identities.get(id(dist)) if identities is not None else None
    if known is None:
        try:
            if dist is None:
                known = (None, None)
            else:
                meta = dist.metadata  # what `dist.version` reads, too
                known = (meta["Name"], meta["Version"])
        except Exception:  # metadata of a broken install: the plugin may still load
            known = (None, None)
        if identities is not None:
            identities[id(dist)] = known
    dist_name, version = known
    builtin = dist_name is not None and _canonical(dist_name) == BUILTIN_DISTRIBUTION
    source = "built-in" if builtin else f"{dist_name or 'unknown'} {version or ''}".strip()
    return PluginInfo(ep.name, source, dist_name, version, builtin)


def _canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


_STATE: dict[str, Any] = {}


def get_plugins() -> Plugins:
    """The process-wide plugins, loaded on first use."""
    plugins = _STATE.get("plugins")
    if plugins is None:
        plugins = load_plugins(_STATE.get("builtins_only"))
        _STATE["plugins"] = plugins
        for info in plugins.load_errors:
            print(
                f"castell: warning: plugin '{info.name}' ({info.source}) failed to load: "
                f"{info.error}",
                file=sys.stderr,
            )
    return plugins


def configure(builtins_only: bool) -> None:
    """Choose, before first use, whether third-party plugins are loaded (`--no-plugins`)."""
    _STATE["builtins_only"] = builtins_only
    _STATE.pop("plugins", None)
    registries.cache_clear()


def reset() -> None:
    """Forget loaded plugins (tests that install or disable plugins call this)."""
    _STATE.clear()
    registries.cache_clear()


class Registries:
    """What plugins registered, by name. Each registry is collected on first use, so a
    command that needs only mechanics (`castell validate`) never imports a front-end."""

    def __init__(self, plugins: Plugins):
        self._plugins = plugins

        #: registry -> {name: plugin that registered it}, for `castell plugins`.
        self.owners: dict[str, dict[str, str]] = {}

    def _by_name(self, hook: str, what: str, kind: type) -> dict[str, Any]:
        """Items of `kind` by name; wrong types and second claims to a name are skipped and
        reported (the first plugin to register a name keeps it)."""
        items: dict[str, Any] = {}
        owners = self.owners.setdefault(what, {})
        expected = f"a list of {kind.__name__} with a name"
        for plugin, item in self._plugins.collect_from(
            hook, accept=lambda x: _valid(x, kind), expected=expected, registration_order=True
        ):
            if item.name in items:
                clash = NameClash(what, item.name, owners[item.name], plugin)
                self._plugins.fail(PluginError(plugin, hook, clash))
                continue
            items[item.name] = item
            owners[item.name] = plugin
        return items

    def load_all(self) -> None:
        """Call every `register_*` hook now (for `castell plugins`)."""
        for registry in ("mechanics", "variants", "bots", "frontends"):
            getattr(self, registry)

    @cached_property
    def mechanics(self) -> dict[str, Any]:
        from ..contract import Mechanics

        found = self._by_name("register_mechanics", "mechanics", Mechanics)
        for name, mechanics in list(found.items()):
            try:
                register_codes(dict(mechanics.codes or {}), owner=f"mechanics {name}")
            except (ValueError, TypeError, AttributeError) as exc:
                plugin = self.owners["mechanics"].pop(name)
                self._plugins.fail(PluginError(plugin, "register_mechanics", exc))
                del found[name]
        return found

    @cached_property
    def variants(self) -> dict[str, Any]:
        from ..contract import Variant

        return self._by_name("register_variants", "variant", Variant)

    @cached_property
    def bots(self) -> dict[str, Any]:
        from ..contract import BotFactory

        found = self._by_name("register_bots", "bot", BotFactory)
        from .agents import AGENT_BOT, factory

        # The core's own kind, a program as a seat (`cmd:COMMAND`, runtime/agents.py), keeps
        # its name: who may start a program is decided by that name (docs/security.md).
        plugin = self.owners["bot"].pop(AGENT_BOT, None)
        if plugin is not None:
            clash = NameClash("bot", AGENT_BOT, "castell-dsl (the core)", plugin)
            self._plugins.fail(PluginError(plugin, "register_bots", clash))
        found[AGENT_BOT] = factory()
        return found

    @cached_property
    def frontends(self) -> dict[str, Any]:
        from ..contract import Frontend

        return self._by_name("register_frontends", "frontend", Frontend)


def _valid(item: Any, kind: type) -> bool:
    """An item of the contract's type, with a usable name and callables where they are due."""
    if not isinstance(item, kind):
        return False
    name = getattr(item, "name", None)
    if not isinstance(name, str) or not name or len(name) > 100:
        return False
    for attr in ("create", "run", "build"):
        declared = hasattr(kind, attr) or attr in getattr(kind, "__dataclass_fields__", {})
        if declared and not callable(getattr(item, attr, None)):
            return False
    settings = getattr(item, "settings", {})
    return isinstance(settings, Mapping) and all(isinstance(k, str) for k in settings)


@cache
def registries() -> Registries:
    return Registries(get_plugins())
