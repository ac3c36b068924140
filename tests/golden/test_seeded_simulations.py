"""Golden: seeded bot games of every bundled game and variant reach exactly the same end states.

This is the proof that a refactoring changed no behaviour: random-bot games of each game and of
each bundled variant (plus a few greedy ones, which exercise the heuristics and the one-ply
look-ahead) are played from fixed seeds, and each game's row — its seed, winners, total scores,
number of actions, and a digest of its final state and full result — is compared with the
recorded one. A failure names the first game that diverged, with both rows. Regenerate only for a
deliberate change of behaviour, in a commit of its own that says why:
`CASTELL_UPDATE_GOLDEN=1 pytest tests/golden/test_seeded_simulations.py`.

Rules covered: all of them indirectly (C-1 … C-10 and K-1 … K-9 through complete games), and
every bundled variant's rules (short-season, generous-prizes, no-regions C-6.4; Calico's
beginner, family K-8.1, low-luck K-8.2, solo K-8.3 and scenarios K-8.4).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from castell_dsl import load_rules
from castell_dsl.runtime.simulation import play_game

GOLDEN = Path(__file__).with_name("simulations.json")

#: name -> (rules, variants, players, bot, games)
BATCHES: dict[str, tuple[str, tuple[str, ...], int, str, int]] = {
    "castell-4p-random": ("castell", (), 4, "random", 200),
    "castell-2p-greedy": ("castell", (), 2, "greedy", 10),
    "calico-4p-random": ("calico", (), 4, "random", 200),
    "calico-1p-greedy": ("calico", (), 1, "greedy", 10),
    # Every bundled variant: random games, and greedy ones where festivals and prizes matter.
    "castell+short-season-4p-random": ("castell", ("short-season",), 4, "random", 20),
    "castell+short-season-3p-greedy": ("castell", ("short-season",), 3, "greedy", 4),
    "castell+generous-prizes-4p-random": ("castell", ("generous-prizes",), 4, "random", 20),
    "castell+generous-prizes-3p-greedy": ("castell", ("generous-prizes",), 3, "greedy", 4),
    "castell+no-regions-4p-random": ("castell", ("no-regions",), 4, "random", 20),
    "castell+no-regions-3p-greedy": ("castell", ("no-regions",), 3, "greedy", 4),
    "calico+beginner-3p-random": ("calico", ("beginner",), 3, "random", 20),
    "calico+family-3p-random": ("calico", ("family",), 3, "random", 20),
    "calico+low-luck-2p-random": ("calico", ("low-luck",), 2, "random", 20),
    "calico+solo-1p-random": ("calico", ("solo",), 1, "random", 20),
    **{
        f"calico+solo+scenario-{n}-1p-random": ("calico", ("solo", f"scenario-{n}"), 1, "random", 5)
        for n in range(1, 11)
    },
}


def game_row(seed: int, game) -> str:
    """One game as a readable row: seed, winners, totals, actions, digest of the rest."""
    result = game.result()
    totals = " ".join(str(p["total"]) for p in result["players"])
    winners = ",".join(str(w) for w in result["winners"])
    rest = f"{game.state_hash()} {json.dumps(result, sort_keys=True)}"
    digest = hashlib.sha256(rest.encode()).hexdigest()[:12]
    return f"seed {seed}: winners {winners} | totals {totals} | actions {len(game.log)} | {digest}"


def play_batch(name: str) -> list[str]:
    rules_name, variants, players, bot, games = BATCHES[name]
    rules = load_rules(rules_name, variants)
    bots = [bot] * players
    return [game_row(seed, play_game(rules, players, seed, bots)) for seed in range(games)]


def first_difference(got: list[str], recorded: list[str]) -> str | None:
    """Where two batches first differ, in words (None if they are the same)."""
    for mine, theirs in zip(got, recorded, strict=False):
        if mine != theirs:
            return f"first diverging game:\n  recorded {theirs}\n  now      {mine}"
    if len(got) != len(recorded):
        return f"{len(recorded)} games recorded, {len(got)} played"
    return None


@pytest.mark.parametrize("name", sorted(BATCHES))
def test_seeded_games_end_exactly_as_recorded(name):
    got = play_batch(name)
    if os.environ.get("CASTELL_UPDATE_GOLDEN"):
        recorded = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
        recorded[name] = got
        GOLDEN.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    recorded = json.loads(GOLDEN.read_text())
    assert name in recorded, f"no recorded games for {name}: regenerate (see the docstring)"
    difference = first_difference(got, recorded[name])
    assert difference is None, f"{name}: {difference}"


def test_the_golden_file_records_exactly_these_batches():
    assert sorted(json.loads(GOLDEN.read_text())) == sorted(BATCHES)


def test_a_divergence_is_named_by_its_first_game():
    recorded = ["seed 0: a", "seed 1: b", "seed 2: c"]
    assert first_difference(recorded, recorded) is None
    message = first_difference(["seed 0: a", "seed 1: x", "seed 2: y"], recorded)
    assert message is not None and "seed 1: b" in message and "seed 1: x" in message
    assert "2 played" in (first_difference(recorded[:2], recorded) or "")
