"""A deterministic exploration of a rule set: what the generic codec and observation are built from.

Games are data, so nothing here knows any game: the engine is asked, in `budget` games played
by a seeded uniform-random policy (game `i` has seed `i`, and its choices come from the
contract's `Rng` seeded with `i`, so the walk is the same on every machine and Python), which
actions it lists (`legal_actions()`, the single truth of legality) and what its public view
(`view()`) holds. The result is a pure function of (rule set hash, players, budget, version),
so it is cached on disk (`castell_dsl.cache`) and a second environment of the same rule set
starts at once.

What is kept is small and JSON-able:

- per action kind (in the rule set's turn order), every distinct canonical text seen and the
  game in which it was first seen (for the codec's open/closed decision, see `codec.py`);
- per state, which texts of each kind were listed together (as text numbers), so the codec can
  size its overflow slots to the largest number of out-of-vocabulary actions listed at once;
- the longest game (in actions), for OpenSpiel's `max_game_length`;
- the observation schema's raw material: every feature key met in the views (see
  `observation.py`) with the range of values it took.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .. import cache
from ..contract import Rng, seed_state
from ..engine.game import Game
from ..language.ruleset import RuleSet
from .flatten import features

#: Bump when what an exploration records (or how) changes: cached explorations are keyed by it.
VERSION = 1
#: Games explored by default: enough that the closed vocabularies of Castell, Calico and Pebbles
#: stop growing well before the second half starts (see docs/rl.md, "How ids stay fixed").
DEFAULT_BUDGET = 128
#: Views sampled per game for the observation schema (every state of the first games is cheap
#: enough; beyond `VIEW_GAMES` games, one view in `VIEW_STRIDE`).
VIEW_GAMES = 6
VIEW_STRIDE = 13


@dataclass(frozen=True)
class Exploration:
    """What `budget` seeded random games of one rule set and player count listed and showed."""

    rules_hash: str
    players: int
    budget: int
    #: Action kinds in the rule set's turn order (every kind a turn block offers).
    kinds: tuple[str, ...]
    #: kind -> {text: the game (0-based) in which it was first listed}.
    first_seen: dict[str, dict[str, int]]
    #: kind -> the sets of texts listed together in one state (each text by its number in
    #: `first_seen[kind]` order), deduplicated.
    together: dict[str, list[list[int]]]
    #: The most actions any explored game took.
    max_length: int
    #: Feature key -> [lowest, highest] value seen (see `observation.features`).
    features: dict[str, list[float]]

    def to_json(self) -> dict[str, Any]:
        return {
            "rules_hash": self.rules_hash,
            "players": self.players,
            "budget": self.budget,
            "kinds": list(self.kinds),
            "first_seen": self.first_seen,
            "together": self.together,
            "max_length": self.max_length,
            "features": self.features,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Exploration:
        return cls(
            rules_hash=data["rules_hash"],
            players=data["players"],
            budget=data["budget"],
            kinds=tuple(data["kinds"]),
            first_seen=data["first_seen"],
            together=data["together"],
            max_length=data["max_length"],
            features=data["features"],
        )


def _is_str_int_map(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and type(v) is int for k, v in value.items()
    )


def valid_exploration(value: Any, rules_hash: str, players: int, budget: int) -> bool:
    """Is a cached entry an exploration of exactly this rule set, of the recorded shape?

    The cache lives in the user's own directory and is checked on read (`castell_dsl.cache`);
    this is the entry's schema, so a damaged or planted entry is ignored and the exploration
    played again rather than trusted to shape a codec."""
    if not isinstance(value, dict) or set(value) != {
        "rules_hash", "players", "budget", "kinds", "first_seen", "together", "max_length",
        "features",
    }:  # fmt: skip
        return False
    if (value["rules_hash"], value["players"], value["budget"]) != (rules_hash, players, budget):
        return False
    kinds, first_seen, together = value["kinds"], value["first_seen"], value["together"]
    return (
        isinstance(kinds, list)
        and all(isinstance(k, str) for k in kinds)
        and isinstance(first_seen, dict)
        and all(isinstance(k, str) and _is_str_int_map(v) for k, v in first_seen.items())
        and isinstance(together, dict)
        and all(
            isinstance(k, str)
            and isinstance(v, list)
            and all(isinstance(s, list) and all(type(n) is int for n in s) for s in v)
            for k, v in together.items()
        )
        and type(value["max_length"]) is int
        and isinstance(value["features"], dict)
        and all(
            isinstance(k, str)
            and isinstance(v, list)
            and len(v) == 2
            and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
            for k, v in value["features"].items()
        )
    )


def turn_kinds(game: Game) -> tuple[str, ...]:
    """Every action kind the rule set's turn blocks offer, in the order they are written.

    Read from the engine's precompiled flow (`game.plan`), the rule set's own order: so the
    codec's layout follows the rule file, not the order in which an exploration met them.
    """
    kinds: list[str] = []
    for plans in game.plan.turns.values():
        for plan in plans:
            if plan.kind not in kinds:
                kinds.append(plan.kind)
    return tuple(kinds)


_MEMORY: dict[str, Exploration] = {}


def explore(rules: RuleSet, players: int, start: Any, budget: int = DEFAULT_BUDGET) -> Exploration:
    """The exploration of `rules` with `players` players (from memory, disk, or played now).

    `start(seed) -> Game` starts a game of this rule set without events (the runtime's
    `start_game`, passed in so that tests may explore a toy logic too).
    """
    key = cache.key_of("rl-explore", VERSION, rules.hash, players, budget)
    found = _MEMORY.get(key)
    if found is not None:
        return found

    def valid(value: Any) -> bool:
        return valid_exploration(value, rules.hash, players, budget)

    stored = cache.get("rl_explore", key, valid)
    if isinstance(stored, dict):
        found = Exploration.from_json(stored)
        _MEMORY[key] = found
        return found
    started = time.perf_counter()
    first_seen: dict[str, dict[str, int]] = {}
    numbers: dict[str, dict[str, int]] = {}
    together: dict[str, set[tuple[int, ...]]] = {}
    ranges: dict[str, list[float]] = {}
    views = 0
    kinds: tuple[str, ...] = ()
    max_length = 0
    for index in range(budget):
        game: Game = start(index)
        if not kinds:
            kinds = turn_kinds(game)
        chooser = Rng({"rng": seed_state(index)})
        steps = 0
        while True:
            if game.is_over() or index < VIEW_GAMES or steps % VIEW_STRIDE == 0:
                _widen(ranges, features(game.view()))
                views += 1
            if game.is_over():
                break
            legal = game.legal_actions()
            listed: dict[str, set[int]] = {}
            for action in legal:
                known = numbers.setdefault(action.kind, {})
                number = known.get(action.text)
                if number is None:
                    number = known[action.text] = len(known)
                    first_seen.setdefault(action.kind, {})[action.text] = index
                listed.setdefault(action.kind, set()).add(number)
            for kind, listed_numbers in listed.items():
                together.setdefault(kind, set()).add(tuple(sorted(listed_numbers)))
            game.apply(legal[chooser.below(len(legal))])
            steps += 1
        max_length = max(max_length, steps)
    for seen in ranges.values():  # a feature absent from a view was 0 there
        if seen[2] < views:
            seen[0], seen[1] = min(seen[0], 0.0), max(seen[1], 0.0)
    result = Exploration(
        rules_hash=rules.hash,
        players=players,
        budget=budget,
        kinds=kinds + tuple(k for k in first_seen if k not in kinds),
        first_seen=first_seen,
        together={k: [list(s) for s in sorted(v)] for k, v in together.items()},
        max_length=max_length,
        features={k: v[:2] for k, v in sorted(ranges.items())},
    )
    _MEMORY[key] = result
    if time.perf_counter() - started > 0.5:  # cheap ones are not worth a disk write
        cache.put_many("rl_explore", {key: result.to_json()}, valid)
    return result


def _widen(ranges: dict[str, list[float]], values: dict[str, float]) -> None:
    """Widen each feature's [lowest, highest, views it was in] by one view's values."""
    for key, value in values.items():
        seen = ranges.get(key)
        if seen is None:
            ranges[key] = [value, value, 1]
            continue
        if value < seen[0]:
            seen[0] = value
        if value > seen[1]:
            seen[1] = value
        seen[2] += 1
