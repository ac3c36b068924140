"""An OpenSpiel game for every rule set: importing this module registers `castell_dsl`.

    import castell_dsl.rl.openspiel  # noqa: F401  (registers the game)
    import pyspiel
    game = pyspiel.load_game("castell_dsl(rules=calico,players=2)")

Parameters: `rules` (a rule set name or path, default the installed default rule set,
`default_rules()`: Castell with the shipped plugins), `players` (default 2),
`variants` (`+`-separated, e.g. `solo+low-luck`; default none), `reward` (`win`, `score`,
`margin`; default `win`), `seed` (the first initial state's game seed; each further
`new_initial_state()` of the same game object takes the next seed; default 0).

**Chance** is SAMPLED_STOCHASTIC: the engine draws inside its automatic steps and actions from
the generator seeded with the game's seed (its state is part of the game state), and exposes no
chance outcomes, so there are no chance nodes. A consequence to know: a cloned state carries
the generator, so a search that clones (OpenSpiel's MCTS) sees the draws the real game will
make — a perfect-information determinisation. This project's own MCTS bot reseeds its clones
(`Game.reseed`) instead. For the information type, every seat sees the same public view
(`Game.view()`), so the game is PERFECT_INFORMATION in OpenSpiel's sense: the hidden part is
only chance's future.

Action ids, observations and returns are the `GameSpec`'s (`spec.py`), exactly those of the
PettingZoo environment. `max_game_length` is twice the longest game of the exploration (the
engine bounds a game by its rounds, not by a number of actions, so this is an estimate with a
margin, not a proof).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ..engine.game import Game
from ..runtime.loading import default_rules
from .codec import action_id
from .spec import GameSpec, game_spec

SHORT_NAME = "castell_dsl"

_DEFAULTS: dict[str, Any] = {
    "rules": default_rules(),  # the installed default rule set (a game plugin names it)
    "players": 2,
    "variants": "",
    "reward": "win",
    "seed": 0,
}


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Castell DSL (any rule set)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
    )


_REGISTERED_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


def spec_from_params(params: dict[str, Any]) -> GameSpec:
    """The `GameSpec` an OpenSpiel parameter dict names."""
    merged = {**_DEFAULTS, **(params or {})}
    variants = tuple(v for v in str(merged["variants"]).split("+") if v)
    return game_spec(
        str(merged["rules"]), int(merged["players"]), variants, reward=str(merged["reward"])
    )


class CastellDSLGame(pyspiel.Game):
    """One rule set, player count and reward as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None):
        merged = {**_DEFAULTS, **(params or {})}
        self.spec = spec_from_params(merged)
        low, high = self.spec.return_bounds()
        constant = self.spec.reward == "win"
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.codec.size,
            max_chance_outcomes=0,
            num_players=self.spec.players,
            min_utility=low,
            max_utility=high,
            utility_sum=1.0 if constant else None,
            max_game_length=2 * self.spec.exploration.max_length,
        )
        utility = (
            pyspiel.GameType.Utility.CONSTANT_SUM
            if constant
            else pyspiel.GameType.Utility.GENERAL_SUM
        )
        super().__init__(_game_type(utility), info, merged)
        self._next_seed = int(merged["seed"])

    def new_initial_state(self) -> CastellDSLState:
        seed = self._next_seed
        self._next_seed += 1
        return CastellDSLState(self, self.spec.new_game(seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return ViewObserver(self.spec, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Held:
    """What a state holds, copied the engine's way.

    OpenSpiel clones a Python state by deep-copying its attributes; a `Game` holds its rule set
    and logic (shared and immutable, and not deep-copyable), so the copy is `Game.clone()` — the
    cheap, correct copy the engine's search bots use — and the spec is shared."""

    def __init__(self, spec: GameSpec, engine: Game):
        self.spec = spec
        self.engine = engine
        self.legal: dict[int, Any] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.spec, self.engine.clone())


class CastellDSLState(pyspiel.State):
    """A game in progress: the engine's `Game`, its legal ids cached per position."""

    def __init__(self, game: CastellDSLGame, engine: Game):
        super().__init__(game)
        self._held = _Held(game.spec, engine)

    @property
    def spec(self) -> GameSpec:
        return self._held.spec

    @property
    def engine(self) -> Game:
        """The engine's game this state wraps (read it; change it only through actions)."""
        return self._held.engine

    def _ids(self) -> dict[int, Any]:
        held = self._held
        if held.legal is None:
            held.legal = held.spec.codec.assign(held.engine.legal_actions())
        return held.legal

    def current_player(self) -> int:
        if self.engine.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        player = self.engine.current_player
        assert player is not None
        return player

    def _legal_actions(self, player: int) -> list[int]:
        if self.engine.is_over() or player != self.engine.current_player:
            return []
        return sorted(self._ids())

    def _apply_action(self, action: int) -> None:
        index = action_id(action)
        chosen = self._ids().get(index)
        if chosen is None:
            raise ValueError(f"action {index} ({self.spec.codec.label(index)}) is not legal")
        self.engine.apply(chosen)
        self._held.legal = None

    def _action_to_string(self, player: int, action: int) -> str:
        legal = self._ids() if player == self.engine.current_player else {}
        index = action_id(action)
        chosen = legal.get(index)
        return chosen.text if chosen is not None else self.spec.codec.label(index)

    def is_terminal(self) -> bool:
        return self.engine.is_over()

    def returns(self) -> list[float]:
        return self.spec.returns(self.engine)

    def __str__(self) -> str:
        return self.spec.render(self.engine, None)


class ViewObserver:
    """OpenSpiel's observer protocol over the `ObservationSchema`: `tensor`, `dict`, strings."""

    def __init__(self, spec: GameSpec, params: Any = None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.spec = spec
        self.tensor = np.zeros(spec.observation.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CastellDSLState, player: int) -> None:
        self.tensor[:] = self.spec.observe(state.engine, player)

    def string_from(self, state: CastellDSLState, player: int) -> str:
        return self.spec.render(state.engine, player)


pyspiel.register_game(_REGISTERED_TYPE, CastellDSLGame)
