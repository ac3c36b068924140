"""The bot interface: one way for every front-end and `castell simulate` to ask for a move.

Bots are registered by plugins (`register_bots`). A `BotFactory` makes a `Bot` for one seat of
one game; the bot's own randomness is seeded from the game seed and its seat, so a simulation is
reproducible whatever runs it (one process or many).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .engine.actions import Action
    from .engine.game import Game
    from .engine.rng import Rng
    from .language.ruleset import RuleSet


class Bot(Protocol):
    """Chooses an action for the current player of a game it must not modify."""

    name: str

    def choose(self, game: Game) -> Action: ...


@dataclass
class BotFactory:
    """A named kind of bot, with its settings (`mcts:iterations=200`)."""

    name: str
    description: str
    create: Callable[..., Bot]
    #: Settings the bot accepts, with their default values (documented in `castell plugins`).
    settings: Mapping[str, Any] = field(default_factory=dict)


def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's own seed: distinct per seat, fixed by the game seed."""
    return (game_seed * 1_000_003 + seat * 7_919 + 17) & ((1 << 63) - 1)


def decision_rng(seed: int, game: Game) -> Rng:
    """A generator for one decision, seeded from the bot's seed and the game's progress.

    Bots draw from this instead of a generator that advances with each move, so a bot's choice
    depends only on the position and its seed: a game saved and loaded, or rebuilt after an
    undo, continues exactly as it would have.
    """
    from .engine.rng import Rng, seed_state

    return Rng({"rng": seed_state(seed * 1_000_033 + len(game.log))})


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
    from .language.diagnostics import did_you_mean
    from .pluginmanager import registries

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
