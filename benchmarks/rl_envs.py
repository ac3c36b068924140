"""RL environment steps per second against PettingZoo's own classic games, in one run and in
CPU time (`benchmarks/run.py` section "RL environments"; issue 30, point 1).

Every AEC environment is played by the same loop a new user writes: `last()`, then a uniformly
random legal id from the action mask (`rng.choice(np.flatnonzero(mask))`), `step(id)`; whole
games for at least `seconds` of this process's CPU time. The rows: PettingZoo's `tictactoe_v3`
and `connect_four_v3` (the baseline: needs `pip install "pettingzoo[classic]"`, for pygame),
Castell 2p and 4p and Calico 2p through `castell_dsl.rl.env`, and `castell_dsl.rl.vector_env`
(16 two-player Castell games stepped together, steps counted per game). Target: every Castell
DSL row at least `connect_four_v3`'s steps/s (ratio ≥ 1.0). The explorations the codecs are
built from are done (or read from the cache) before timing starts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

cpu = time.process_time

#: (row name, rules, players) of this project's AEC environments.
OURS = [("Castell 2p", "castell", 2), ("Castell 4p", "castell", 4), ("Calico 2p", "calico", 2)]
VECTOR_GAMES = 16


def aec_steps_per_s(make: Callable[[], Any], seconds: float) -> float:
    """Steps per CPU second of whole random games of the AEC environment `make()` builds."""
    import numpy as np

    aec = make()
    steps = 0
    seed = 0
    start = cpu()
    while True:
        rng = np.random.default_rng(seed)
        aec.reset(seed=seed)
        for _agent in aec.agent_iter():
            observation, _reward, terminated, truncated, _info = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        seed += 1
        if cpu() - start >= seconds:
            return steps / (cpu() - start)


def vector_steps_per_s(n: int, seconds: float) -> float:
    """Game steps per CPU second of `vector_env(n, "castell", 2)` with random legal ids."""
    import numpy as np

    from castell_dsl.rl import vector_env

    venv = vector_env(n, "castell", players=2, seed=0)
    _obs, mask, _player = venv.reset()
    rng = np.random.default_rng(0)
    steps = 0
    start = cpu()
    while cpu() - start < seconds:
        for _ in range(20):
            ids = [int(rng.choice(np.flatnonzero(row))) for row in mask]
            _obs, mask, _player, _rewards, _done = venv.step(ids)
            steps += n
    return steps / (cpu() - start)


def bench_rl_envs(seconds: float) -> dict[str, Any]:
    """The section's figures: steps/s per environment, and each of ours over connect four."""
    out: dict[str, Any] = {"seconds_each": seconds, "steps_per_s": {}}
    try:
        import numpy  # noqa: F401

        from castell_dsl.rl import env, game_spec
    except ImportError as exc:
        return {"error": f"{exc} (pip install 'castell-dsl[rl]')"}
    rates = out["steps_per_s"]
    try:
        import os

        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        from pettingzoo.classic import connect_four_v3, tictactoe_v3

        rates["tictactoe_v3"] = aec_steps_per_s(tictactoe_v3.env, seconds)
        rates["connect_four_v3"] = aec_steps_per_s(connect_four_v3.env, seconds)
    except ImportError as exc:  # pygame, which PettingZoo's classic games import
        out["baseline_error"] = f"{exc} (pip install 'pettingzoo[classic]')"
    for name, rules, players in OURS:
        game_spec(rules, players)  # explored (or read from the cache) before timing
        rates[name] = aec_steps_per_s(lambda r=rules, p=players: env(r, p), seconds)
    rates[f"vector_env({VECTOR_GAMES}) Castell 2p"] = vector_steps_per_s(VECTOR_GAMES, seconds)
    base = rates.get("connect_four_v3")
    if base:
        out["vs_connect_four"] = {
            name: rate / base for name, rate in rates.items() if name not in ("connect_four_v3",)
        }
    return out


def rl_rows(report: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """The section's rows of `benchmarks/run.py`'s table (measure, result, target, ratio)."""
    section = report.get("rl_envs")
    if not section:
        return []
    if "error" in section:
        return [("RL environments", "not measured", "", section["error"])]
    ratios = section.get("vs_connect_four", {})
    rows = []
    for name, rate in section["steps_per_s"].items():
        ours = name not in ("tictactoe_v3", "connect_four_v3")
        target = "≥ 1.0x connect_four_v3" if ours else ("baseline" if "connect" in name else "")
        ratio = f"x{ratios[name]:.2f} connect_four_v3" if name in ratios else ""
        rows.append((f"RL env, random legal steps: {name}", f"{rate:,.0f} steps/s", target, ratio))
    if "baseline_error" in section:
        rows.append(("RL env baseline", "not measured", "", section["baseline_error"]))
    return rows


if __name__ == "__main__":
    import json
    import sys

    result = bench_rl_envs(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
    print(json.dumps(result, indent=1))
    for row in rl_rows({"rl_envs": result}):
        print("  ".join(row))
