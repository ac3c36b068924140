"""Bots: what a computer player implements, and what it may ask of the game it plays.

A `BotFactory` (registered through `register_bots`) makes a `Bot` for one seat of one game.
Bots see the game through `PlayableGame`, the public API every front-end uses too: whose turn
it is, the legal actions, whether an action ends the turn, cheap clones for search, reseeding a
clone's chance for determinised search. A bot's own randomness comes from `decision_rng`, seeded
from its seed and the game's progress, so a saved and loaded (or undone) game continues exactly
as it would have.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .logic import GameContext
from .rng import Rng, seed_state

if TYPE_CHECKING:
    from .actions import Action, Rejection


class PlayableGame(GameContext, Protocol):
    """The public face of a game in progress, for bots and front-ends.

    The game a player holds is also the `GameContext` its logic sees, so a bot or a front-end
    may hand it to the logic's methods for players (`heuristic`, `hints`, `render`,
    `narrate`, `view`). A bot plays through the methods below and reads no more than a
    player at the table could (the state also holds the future of chance).
    """

    log: list[str]

    @property
    def actions_this_turn(self) -> int:
        """How many actions the current player has taken this turn (granted ones excluded)."""
        ...

    def legal_actions(self) -> list[Action]: ...
    def sample_legal(self, rng: Rng) -> Action:
        """A uniform draw from `rng` among `legal_actions()`, without listing them when the
        mechanics can count them (see `Game.sample_legal`)."""
        ...

    def explain(self, action: Action | str) -> Rejection | None: ...
    def apply(self, action: Action | str) -> Action: ...
    def parse(self, text: str) -> Action: ...
    def ends_turn(self, action: Action) -> bool:
        """True if taking `action` now ends the current player's turn."""
        ...

    def clone(self, *, keep_log: bool = True) -> PlayableGame: ...
    def copier(self) -> Callable[[], PlayableGame]:
        """A maker of copies of this position, as `clone(keep_log=False)` makes them, for a
        search that copies one position many times (cheaper than cloning each time)."""
        ...

    def reseed(self, seed: int) -> None:
        """Give this game's chance a new seed (for a search's determinised copy)."""
        ...

    def drew_since_reseed(self, seed: int) -> bool:
        """Whether chance was drawn since `reseed(seed)` (if not, the position reached is
        the same under every seed, the generator aside)."""
        ...

    def is_over(self) -> bool: ...
    def score_of(self, player: int) -> int: ...
    def scores(self) -> list[dict[str, Any]]:
        """Each seat's categories, tie-break values and total, scored now."""
        ...

    def result(self) -> dict[str, Any]: ...
    def view(self) -> dict[str, Any]: ...


class Bot(Protocol):
    """Chooses an action for the current player of a game it must not modify."""

    name: str

    def choose(self, game: PlayableGame) -> Action: ...


@dataclass
class BotFactory:
    """A named kind of bot, with its settings (`mcts:iterations=200`)."""

    name: str
    description: str
    #: `create(rules=…, seat=…, seed=…, **settings)` → a `Bot`.
    create: Callable[..., Bot]
    #: Settings the bot accepts, with their default values (documented in `castell plugins`).
    settings: Mapping[str, Any] = field(default_factory=dict)
    #: The (low, high) range of numeric settings: a spec outside it (on the command line, in a
    #: config or a save) is refused, so no seat can ask for a decision that never ends.
    ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    #: Tighter ranges for seats asked for over a network (`castell serve`), where a stranger
    #: chooses the settings and the server's cores are shared: a setting not named here keeps
    #: its `ranges`. One decision within them should take about a second.
    served: Mapping[str, tuple[float, float]] = field(default_factory=dict)


def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's own seed: distinct per seat, fixed by the game seed."""
    return (game_seed * 1_000_003 + seat * 7_919 + 17) & ((1 << 63) - 1)


def decision_rng(seed: int, game: PlayableGame) -> Rng:
    """A generator for one decision, seeded from the bot's seed and the game's progress.

    Bots draw from this instead of a generator that advances with each move, so a bot's choice
    depends only on the position and its seed: a game saved and loaded, or rebuilt after an
    undo, continues exactly as it would have.
    """
    return Rng({"rng": seed_state(seed * 1_000_033 + len(game.log))})
