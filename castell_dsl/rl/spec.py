"""One rule set and player count made ready for learning: the codec, the observation layout,
the rewards. Both interfaces (PettingZoo, OpenSpiel) are thin layers over a `GameSpec`, so they
agree on every id, feature and return by construction.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.game import Game
from ..language.ruleset import RuleSet
from ..runtime.games import check_players, start_game
from ..runtime.loading import default_rules, load_rules
from .codec import ActionCodec, codec_for
from .explore import DEFAULT_BUDGET, Exploration, explore
from .observation import ObservationSchema

#: How a finished game's result becomes each seat's return.
REWARDS = ("win", "score", "margin")


@dataclass
class GameSpec:
    """A rule set, a player count and what an agent needs to play it."""

    rules: RuleSet
    players: int
    exploration: Exploration
    codec: ActionCodec
    observation: ObservationSchema
    reward: str = "win"

    @property
    def variants(self) -> tuple[str, ...]:
        return self.rules.variants

    def new_game(self, seed: int) -> Game:
        """A game of this rule set with this seed (no events recorded: agents do not read them)."""
        return start_game(self.rules, self.players, seed, record_events=False)

    def legal_ids(self, game: Game) -> dict[int, Any]:
        """Id -> `Action` for the current player's legal actions (the engine's list)."""
        return self.codec.assign(game.legal_actions())

    def mask(self, game: Game) -> np.ndarray:
        """1 for each legal id, 0 elsewhere (int8, as PettingZoo's classic games use)."""
        mask = np.zeros(self.codec.size, np.int8)
        ids = list(self.legal_ids(game))
        if ids:
            mask[ids] = 1
        return mask

    def returns(self, game: Game) -> list[float]:
        """Each seat's return from the engine's result (docs/rl.md, "Rewards").

        - `win`: the winners share 1 (a sole winner 1, two tied winners 0.5 each), the others 0;
          the returns always sum to 1 (constant-sum), a solo game's player always 1.
        - `score`: each seat's final total, as the rule set scores it.
        - `margin`: a seat's total minus the best other total (a solo player's total).
        Before the end, every return is 0: rewards come only at the end.
        """
        if not game.is_over():
            return [0.0] * self.players
        result = game.result()
        totals = [float(p["total"]) for p in result["players"]]
        if self.reward == "score":
            return totals
        if self.reward == "margin":
            return [
                t - max((u for j, u in enumerate(totals) if j != i), default=0.0)
                for i, t in enumerate(totals)
            ]
        winners = result["winners"]
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.players)]

    def return_bounds(self) -> tuple[float, float]:
        """The lowest and highest return (for OpenSpiel's GameInfo): exact for `win`, the
        exploration's range widened for the score-based ones (scores are not bounded by the
        rule set in general)."""
        if self.reward == "win":
            return 0.0, 1.0
        return -1000.0, 1000.0

    def observe(self, game: Game, seat: int) -> np.ndarray:
        return self.observation.observe(game.view(), seat)

    def render(self, game: Game, viewer: int | None = None) -> str:
        """The game's own drawing of the table (`GameLogic.render`), as plain text."""
        return render_text(game, viewer)


def render_text(game: Game, viewer: int | None = None, width: int = 110) -> str:
    """`GameLogic.render`'s renderables (rich, or plain strings) printed to plain text."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
    for item in game.logic.render(game, viewer):
        console.print(item)
    head = f"round {game.round}/{game.rounds}"
    head += "  (over)" if game.is_over() else f"  seat {game.current_player} to act"
    return head + "\n" + buffer.getvalue()


_SPECS: dict[tuple[Any, ...], GameSpec] = {}


def game_spec(
    rules: str | RuleSet | None = None,
    players: int = 4,
    variants: Sequence[str] = (),
    *,
    reward: str = "win",
    budget: int = DEFAULT_BUDGET,
) -> GameSpec:
    """The `GameSpec` of a rule set (a name, a path or a loaded `RuleSet`; None: the installed
    default rule set, `default_rules()`), memoised.

    The first call for a rule set explores it (`explore.py`; a few seconds for Castell with four
    players, then cached on disk).
    """
    if reward not in REWARDS:
        raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
    if rules is None:
        rules = default_rules()
    ruleset = rules if isinstance(rules, RuleSet) else load_rules(rules, tuple(variants))
    key = (ruleset.hash, players, reward, budget)
    found = _SPECS.get(key)
    if found is not None:
        return found
    check_players(ruleset, players)  # a GameSetupError, which is a ValueError
    exploration = explore(
        ruleset,
        players,
        lambda seed: start_game(ruleset, players, seed, record_events=False),
        budget,
    )
    spec = GameSpec(
        rules=ruleset,
        players=players,
        exploration=exploration,
        codec=codec_for(ruleset, players, exploration),
        observation=ObservationSchema(exploration),
        reward=reward,
    )
    _SPECS[key] = spec
    return spec
