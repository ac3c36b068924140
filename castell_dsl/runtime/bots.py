"""Bots by spec: `mcts:iterations=200` → a `Bot` for one seat, from the registered factories.

Bots are registered by plugins (`register_bots`; the types are in `castell_dsl.contract`). A
spec names a factory and its settings; the bot's own randomness is seeded from the game seed and
its seat, so a simulation is reproducible whatever runs it (one process or many).

A spec comes from people and from files (`--players`, `--bots`, YAML configs, the `seats` of a
save), so it is checked before any bot is built: the settings must be ones the factory
declares, of the type of their default, and within the range the factory declares in its
`ranges` (`{"iterations": (1, 20_000)}`). A save that seats `mcts:iterations=1000000000` is
refused with a message instead of hanging `play --load`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from ..contract import Bot, bot_seed
from ..contract.services import BotSpecError
from ..language.diagnostics import did_you_mean
from .agents import (
    AGENT_BOT,
    CommandAgent,
    canonical_spec,
    check_settings,
    fallback_spec,
    split_agent_spec,
)
from .plugins import registries

if TYPE_CHECKING:
    from ..language.ruleset import RuleSet

#: Longest bot spec accepted (a spec is a name and a few settings).
MAX_SPEC_CHARS = 200


def parse_bot_spec(text: str) -> tuple[str, dict[str, Any]]:
    """`mcts:iterations=200,c=1.4` → ("mcts", {"iterations": 200, "c": 1.4})."""
    if not isinstance(text, str):
        raise BotSpecError(f"a bot spec is text, not {type(text).__name__}")
    if len(text) > MAX_SPEC_CHARS:
        raise BotSpecError(f"bot spec of {len(text)} characters is too long")
    name, _, rest = text.strip().partition(":")
    command = None
    if name.strip() == AGENT_BOT:  # a program: its command takes the rest (runtime/agents.py)
        rest, command = split_agent_spec(rest)
    settings: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise BotSpecError(f"bot setting '{item}' must be KEY=VALUE")
        settings[key.strip()] = _value(value.strip())
    if command is not None:
        settings["command"] = command
    return name.strip(), settings


def _value(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def setting_ranges(factory: Any) -> Mapping[str, tuple[float, float]]:
    """The (low, high) range of each setting a factory declares (`BotFactory.ranges`; a
    plugin's factory of another type may have none)."""
    ranges = getattr(factory, "ranges", None)
    return ranges if isinstance(ranges, Mapping) else {}


def _check_setting(bot: str, key: str, value: Any, default: Any, bounds: Any) -> Any:
    """The setting's value, converted to its default's type, or a BotSpecError saying why not."""
    if isinstance(default, bool):
        if not isinstance(value, bool) and value not in (0, 1):
            raise BotSpecError(f"bot '{bot}': '{key}' must be 0 or 1, not {value!r}")
        value = bool(value)
    elif isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise BotSpecError(f"bot '{bot}': '{key}' must be a whole number, not {value!r}")
    elif isinstance(default, float):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise BotSpecError(f"bot '{bot}': '{key}' must be a number, not {value!r}")
        value = float(value)
        if not math.isfinite(value):
            raise BotSpecError(f"bot '{bot}': '{key}' must be a finite number, not {value!r}")
    if bounds is not None:
        low, high = bounds
        if not (isinstance(value, (int, float)) and low <= value <= high):
            raise BotSpecError(f"bot '{bot}': '{key}' must be from {low} to {high}, not {value!r}")
    return value


def served_ranges(factory: Any) -> Mapping[str, tuple[float, float]]:
    """The ranges a server accepts from the network: `BotFactory.served` over `ranges`."""
    served = getattr(factory, "served", None)
    return {**setting_ranges(factory), **(served if isinstance(served, Mapping) else {})}


def checked_settings(
    spec: str, *, served: bool = False, allowed_commands: Collection[str] = ()
) -> tuple[Any, dict[str, Any]]:
    """The factory a spec names and its complete settings, every one checked (BotSpecError).
    `served`: the spec came over a network, and the factory's `served` ranges apply; a program
    (`cmd:`) is then refused unless its command is one of `allowed_commands`, those the
    server's administrator allowed (docs/security.md: a stranger never starts a process)."""
    name, settings = parse_bot_spec(spec)
    if name == AGENT_BOT and served and settings.get("command", "").strip() not in allowed_commands:
        raise BotSpecError(
            "this server does not start programs as seats"
            if not allowed_commands
            else "this server starts only the programs its administrator allowed: "
            + ", ".join(f"cmd:{c}" for c in allowed_commands)
        )
    factories = registries().bots
    factory = factories.get(name)
    if factory is None:
        hint = did_you_mean(name, factories)
        raise BotSpecError(
            f"unknown bot '{name}'"
            + (f"; {hint}" if hint else "")
            + f" (bots: {', '.join(sorted(factories)) or 'none installed'})"
        )
    unknown = [k for k in settings if k not in factory.settings]
    if unknown:
        raise BotSpecError(
            f"bot '{name}' has no setting '{unknown[0]}'"
            + (f" (settings: {', '.join(factory.settings)})" if factory.settings else "")
        )
    ranges = served_ranges(factory) if served else setting_ranges(factory)
    merged = dict(factory.settings)
    for key, value in settings.items():
        merged[key] = _check_setting(name, key, value, factory.settings[key], ranges.get(key))
    if name == AGENT_BOT:
        try:
            check_agent_settings(merged)
        except ValueError as exc:
            raise BotSpecError(f"bot 'cmd': {exc}") from None
    return factory, merged


def check_agent_settings(settings: Mapping[str, Any]) -> None:
    """A program's settings (runtime/agents.py) and its fallback bot's spec (ValueError)."""
    check_settings(settings)
    fallback = fallback_spec(str(settings.get("on_error", "stop")))
    if fallback is not None:
        try:
            checked_settings(fallback)
        except BotSpecError as exc:
            raise ValueError(f"fallback: {exc}") from None


def with_agent_options(spec: str, timeout: float | None, on_error: str | None) -> str:
    """`spec` with the command line's `--agent-timeout`/`--on-agent-error` written into it when
    it seats a program (settings the spec gives itself win); other specs are returned as they
    are. The result is the canonical form `cmd:timeout=T,on_error=P,command=COMMAND`, which
    travels to worker processes and save files as one string."""
    name = spec.strip().partition(":")[0]
    if name.strip() != AGENT_BOT or (timeout is None and on_error is None):
        return spec
    _, settings = parse_bot_spec(spec)
    if timeout is not None:
        settings.setdefault("timeout", float(timeout))
    if on_error is not None:
        settings.setdefault("on_error", on_error)
    return canonical_spec(settings)


def check_bot_spec(
    spec: str, *, served: bool = False, allowed_commands: Collection[str] = ()
) -> None:
    """Refuse (BotSpecError) a spec that `make_bot` would refuse, without building a bot;
    `served`: within the tighter ranges a server accepts from the network (and a program only
    among `allowed_commands`)."""
    checked_settings(spec, served=served, allowed_commands=allowed_commands)


def finish_bots(bots: Collection[Any], game: Any) -> None:
    """The game is over or abandoned: let each bot that holds something (a program's process,
    `runtime/agents.py`) hear the result and let it go. Every bot is finished, whatever fails."""
    for bot in bots:
        finish = getattr(bot, "finish", None)
        if callable(finish):
            try:
                finish(game)
            except Exception:
                continue


def make_bot(spec: str, rules: RuleSet, seat: int, game_seed: int) -> Bot:
    """A bot for `seat` from a spec such as `random` or `mcts:iterations=200`."""
    factory, merged = checked_settings(spec)
    seed = bot_seed(game_seed, seat)
    bot = factory.create(rules=rules, seat=seat, seed=seed, **merged)
    fallback = (
        fallback_spec(str(merged.get("on_error", ""))) if spec_name(spec) == AGENT_BOT else None
    )
    if fallback is not None and isinstance(bot, CommandAgent):
        bot.make_fallback = partial(_fallback_bot, fallback, rules, seat, seed)
    return bot


def spec_name(spec: str) -> str:
    """The bot a spec names (`mcts` of `mcts:iterations=200`)."""
    return spec.strip().partition(":")[0].strip()


def _fallback_bot(spec: str, rules: RuleSet, seat: int, seed: int) -> Bot:
    """The bot that plays on for a failed program (`fallback:BOT`), with the program's seed."""
    factory, merged = checked_settings(spec)
    return factory.create(rules=rules, seat=seat, seed=seed, **merged)
