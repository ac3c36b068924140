"""Environment steps per second through each RL interface, as a ratio to the engine's own loop,
measured in the same run: `python benchmarks/rl_steps.py [--seconds S] [--json FILE]`.

For each rule set, a uniformly random policy plays whole games for about `--seconds` seconds
through:

- the engine: `legal_actions()` and `apply()` (the baseline, as `benchmarks/run.py` plays);
- PettingZoo: `last()` (the observation vector and the action mask) and `step(id)`;
- OpenSpiel: `legal_actions()`, `observation_tensor()` and `apply_action(id)`.

A step is one engine action. The explorations the codecs are built from are done (or loaded
from the cache) before timing starts. The machines are shared, so the ratios are the figures
to compare.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

CASES = [("castell", 4, ()), ("castell", 2, ("short-season",)), ("calico", 2, ())]


def timed(play, seconds: float) -> float:
    """Steps per second of `play(seed) -> steps`, over whole games, for about `seconds`."""
    steps = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += play(seed)
        seed += 1
    return steps / (time.perf_counter() - start)


def engine_loop(spec):
    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        game = spec.new_game(seed)
        steps = 0
        while not game.is_over():
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])
            steps += 1
        return steps

    return play


def pettingzoo_loop(rules, players, variants):
    from castell_dsl.rl import env

    aec = env(rules, players, variants)

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        aec.reset(seed=seed)
        steps = 0
        for _agent in aec.agent_iter():
            obs, _r, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        return steps

    return play


def openspiel_loop(rules, players, variants):
    import pyspiel

    import castell_dsl.rl.openspiel  # noqa: F401

    extra = f",variants={'+'.join(variants)}" if variants else ""
    game = pyspiel.load_game(f"castell_dsl(rules={rules},players={players}{extra})")

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.observation_tensor(state.current_player())
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        return steps

    return play


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    from castell_dsl.rl import game_spec

    rows = []
    for rules, players, variants in CASES:
        spec = game_spec(rules, players, variants)
        engine = timed(engine_loop(spec), args.seconds)
        pz = timed(pettingzoo_loop(rules, players, variants), args.seconds)
        osp = timed(openspiel_loop(rules, players, variants), args.seconds)
        name = f"{rules} {players}p" + (f" +{'+'.join(variants)}" if variants else "")
        rows.append({"game": name, "engine": engine, "pettingzoo": pz, "openspiel": osp})
    print(f"{'game':28} {'engine steps/s':>15} {'PettingZoo':>18} {'OpenSpiel':>18}")
    for row in rows:
        e = row["engine"]
        print(
            f"{row['game']:28} {e:15,.0f} {row['pettingzoo']:10,.0f} ({row['pettingzoo'] / e:.2f}x)"
            f" {row['openspiel']:10,.0f} ({row['openspiel'] / e:.2f}x)"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return rows


if __name__ == "__main__":
    main()
