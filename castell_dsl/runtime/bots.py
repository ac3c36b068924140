"""Bots by spec: `mcts:iterations=200` → a `Bot` for one seat, from the registered factories.

Bots are registered by plugins (`register_bots`; the types are in `castell_dsl.contract`). A
spec names a factory and its settings; the bot's own randomness is seeded from the game seed and
its seat, so a simulation is reproducible whatever runs it (one process or many).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..contract import Bot, bot_seed
from ..language.diagnostics import did_you_mean
from .plugins import registries

if TYPE_CHECKING:
    from ..language.ruleset import RuleSet


class BotSpecError(ValueError):
    """A `--players`/`--bots` entry that names no bot or gives a bad setting."""


def parse_bot_spec(text: str) -> tuple[str, dict[str, Any]]:
    """`mcts:iterations=200,c=1.4` → ("mcts", {"iterations": 200, "c": 1.4})."""
    name, _, rest = text.strip().partition(":")
    settings: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise BotSpecError(f"bot setting '{item}' must be KEY=VALUE")
        settings[key.strip()] = _value(value.strip())
    return name.strip(), settings


def _value(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def make_bot(spec: str, rules: RuleSet, seat: int, game_seed: int) -> Bot:
    """A bot for `seat` from a spec such as `random` or `mcts:iterations=200`."""
    name, settings = parse_bot_spec(spec)
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
    merged = {**factory.settings, **settings}
    return factory.create(rules=rules, seat=seat, seed=bot_seed(game_seed, seat), **merged)
