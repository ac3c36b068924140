"""Train and evaluate a masked linear softmax policy with REINFORCE, in numpy only.

    python examples/rl/masked_linear_policy.py --episodes 200 --eval 50

Seat 0 learns against a uniformly random opponent in two-player Castell, short-season variant,
through the PettingZoo environment (`castell_dsl.rl.env`); then the learnt policy and a random
policy each play `--eval` games as seat 0 and their win shares are printed. A linear policy is
the smallest thing that uses both halves of an observation dict: logits are `W @ observation`,
and the action mask sets illegal logits to -inf before the softmax, so the policy only ever
samples what the engine allows. The reward is the environment's default `win` return (the
winners share 1), given at the end of the game.
"""

from __future__ import annotations

import argparse

import numpy as np

from castell_dsl.rl import env


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask.astype(bool), logits, -np.inf)
    z = z - z.max()
    p = np.exp(z)
    return p / p.sum()


def episode(aec, weights, rng, seed: int, learn: bool) -> tuple[float, list]:
    """One game; seat 0 follows the linear policy (greedy when not learning), seat 1 random.
    Returns seat 0's reward and its (observation, mask, action) steps."""
    aec.reset(seed=seed)
    steps = []
    reward = 0.0
    for agent in aec.agent_iter():
        obs, rew, terminated, truncated, _ = aec.last()
        if agent == "player_0":
            reward += rew
        if terminated or truncated:
            aec.step(None)
            continue
        mask = obs["action_mask"]
        if agent == "player_0" and weights is not None:
            x = obs["observation"] / scale(aec)
            probs = masked_softmax(weights @ x, mask)
            action = int(rng.choice(len(probs), p=probs)) if learn else int(np.argmax(probs))
            steps.append((x, mask, action))
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        aec.step(action)
    return reward, steps


def scale(aec) -> np.ndarray:
    """Each feature divided by its explored range, so the step size suits every feature."""
    schema = aec.spec.observation
    return np.maximum(np.abs(schema.high), np.maximum(np.abs(schema.low), 1.0))


def train(episodes: int, rate: float, seed: int):
    aec = env("castell", 2, ("short-season",), seed=seed)
    rng = np.random.default_rng(seed)
    size = aec.spec.codec.size
    weights = np.zeros((size, aec.spec.observation.size), np.float64)
    baseline = 0.5
    for i in range(episodes):
        reward, steps = episode(aec, weights, rng, seed + i, learn=True)
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for x, mask, action in steps:  # REINFORCE: grad log pi(a|x) = (onehot(a) - pi) x^T
            probs = masked_softmax(weights @ x, mask)
            probs[action] -= 1.0
            weights -= rate * advantage * np.outer(probs, x)
    return aec, weights


def evaluate(aec, weights, games: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    return float(np.mean([episode(aec, weights, rng, seed + i, False)[0] for i in range(games)]))


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--eval", type=int, default=50)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    aec, weights = train(args.episodes, args.rate, args.seed)
    held_out = 1_000_000 + args.seed  # evaluation games the training never played
    out = {
        "learnt": evaluate(aec, weights, args.eval, held_out),
        "random": evaluate(aec, None, args.eval, held_out),
    }
    print(f"win share of seat 0 over {args.eval} games against a random opponent:")
    print(f"  linear policy after {args.episodes} episodes: {out['learnt']:.2f}")
    print(f"  random policy:                             {out['random']:.2f}")
    return out


if __name__ == "__main__":
    main()
