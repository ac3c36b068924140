"""Finding plugins and calling their hooks.

Plugins are discovered through the `castell_dsl` entry-point group — the built-in ones too, so
removing a built-in from `pyproject.toml` removes its feature and nothing else. A plugin that
fails to import, or raises inside a hook, is reported by name (plugin and hook), never as a bare
traceback.

Debugging switches:
- `CASTELL_DISABLE_PLUGINS=name,name` skips those entry points;
- `--no-plugins` (or `CASTELL_NO_PLUGINS=1`) loads only the built-in plugins;
- `CASTELL_TRACE_HOOKS=1` logs every hook call, with its plugin, to standard error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import metadata
from typing import Any

import pluggy

from .. import hookspecs
from ..language.diagnostics import register_codes

ENTRY_POINT_GROUP = "castell_dsl"
BUILTIN_DISTRIBUTION = "castell-dsl"


class PluginError(Exception):
    """A plugin failed: names the plugin and the hook so the user knows whom to blame."""

    def __init__(self, plugin: str, hook: str, error: BaseException):
        self.plugin, self.hook, self.error = plugin, hook, error
        super().__init__(
            f"plugin '{plugin}' failed in hook '{hook}': {type(error).__name__}: {error}"
        )


@dataclass
class PluginInfo:
    name: str
    source: str  # "built-in" or "DIST VERSION"
    distribution: str | None
    version: str | None
    builtin: bool
    error: str | None = None


@dataclass
class Plugins:
    """The loaded plugins and a safe way to call their hooks."""

    manager: pluggy.PluginManager
    infos: dict[str, PluginInfo] = field(default_factory=dict)
    trace: bool = False
    failures: list[PluginError] = field(default_factory=list)

    def call(self, hook_name: str, *, tolerant: bool = False, **kwargs: Any) -> list[Any]:
        """Call every implementation of a hook; a failure raises `PluginError` naming the
        plugin and the hook (or, when `tolerant`, is reported as a warning and skipped)."""
        caller = getattr(self.manager.hook, hook_name)
        results = []
        # pluggy calls later-registered implementations first; keep that order.
        for impl in reversed(caller.get_hookimpls()):
            args = {name: kwargs[name] for name in impl.argnames if name in kwargs}
            if self.trace:
                print(f"castell: hook {hook_name} -> {impl.plugin_name}", file=sys.stderr)
            try:
                result = impl.function(**args)
            except PluginError:
                raise
            except Exception as exc:
                error = PluginError(impl.plugin_name, hook_name, exc)
                if not tolerant:
                    raise error from exc
                self.failures.append(error)
                print(f"castell: warning: {error} (skipped)", file=sys.stderr)
                continue
            if result is not None:
                results.append(result)
        return results

    def collect(self, hook_name: str, **kwargs: Any) -> list[Any]:
        """Call a `register_*` hook and flatten the lists it returns. A plugin failing here
        is skipped with a warning: one broken plugin must not take the others down."""
        out: list[Any] = []
        for result in self.call(hook_name, tolerant=True, **kwargs):
            out.extend(result if isinstance(result, (list, tuple)) else [result])
        return out

    def implemented(self, hook_name: str) -> bool:
        return bool(getattr(self.manager.hook, hook_name).get_hookimpls())

    def hook_caller(self, hook_name: str) -> Callable[..., None] | None:
        """A fast caller for a hook called often (per move), or None when nothing implements
        it: the implementations are looked up once, failures still name plugin and hook."""
        impls = list(reversed(getattr(self.manager.hook, hook_name).get_hookimpls()))
        if not impls:
            return None
        if self.trace:

            def traced(**kwargs: Any) -> None:
                self.call(hook_name, **kwargs)

            return traced
        bound = [(impl.plugin_name, impl.function, tuple(impl.argnames)) for impl in impls]

        def call(**kwargs: Any) -> None:
            for plugin, function, argnames in bound:
                try:
                    function(**{name: kwargs[name] for name in argnames})
                except Exception as exc:
                    raise PluginError(plugin, hook_name, exc) from exc

        return call

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


def load_plugins(builtins_only: bool | None = None) -> Plugins:
    """Discover and register plugins (no caching; see `get_plugins`)."""
    if builtins_only is None:
        builtins_only = builtins_only_from_env()
    manager = pluggy.PluginManager("castell_dsl")
    manager.add_hookspecs(hookspecs)
    plugins = Plugins(manager, trace=os.environ.get("CASTELL_TRACE_HOOKS", "") not in ("", "0"))
    disabled = _disabled()
    for ep in _entry_points():
        dist = getattr(ep, "dist", None)
        dist_name = dist.metadata["Name"] if dist is not None else None
        version = dist.version if dist is not None else None
        builtin = dist_name is not None and _canonical(dist_name) == BUILTIN_DISTRIBUTION
        source = "built-in" if builtin else f"{dist_name or 'unknown'} {version or ''}".strip()
        info = PluginInfo(ep.name, source, dist_name, version, builtin)
        if ep.name in disabled or (builtins_only and not builtin):
            continue
        if manager.get_plugin(ep.name) is not None:
            continue  # the same entry point from two installs: first wins
        try:
            module = ep.load()
            manager.register(module, name=ep.name)
        except Exception as exc:  # a broken plugin must not take the tool down
            info.error = f"{type(exc).__name__}: {exc}"
        plugins.infos[ep.name] = info
    return plugins


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

    def _by_name(self, hook: str) -> dict[str, Any]:
        return {item.name: item for item in self._plugins.collect(hook)}

    def load_all(self) -> None:
        """Call every `register_*` hook now (for `castell plugins`)."""
        for registry in ("mechanics", "variants", "bots", "frontends"):
            getattr(self, registry)

    @cached_property
    def mechanics(self) -> dict[str, Any]:
        found = self._by_name("register_mechanics")
        for mechanics in found.values():
            register_codes(getattr(mechanics, "codes", {}), owner=f"mechanics {mechanics.name}")
        return found

    @cached_property
    def variants(self) -> dict[str, Any]:
        return self._by_name("register_variants")

    @cached_property
    def bots(self) -> dict[str, Any]:
        return self._by_name("register_bots")

    @cached_property
    def frontends(self) -> dict[str, Any]:
        return self._by_name("register_frontends")


@cache
def registries() -> Registries:
    return Registries(get_plugins())
