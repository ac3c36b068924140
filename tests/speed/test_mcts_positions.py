"""MCTS keeps the positions of lines that drew no chance instead of replaying them.

A node's position is kept (`Node.position`) when the line from the root to it drew no chance
(`Game.drew_since_reseed`): it is then the same in every iteration but for the generator, so
an iteration copies it and reseeds instead of replaying the line. That must change nothing
but speed. The oracle is `Replaying`, the search as it was before: every iteration copies
the root, reseeds it and replays the line, checking each action. Both make the same choices
with the same visits and values, on positions of seeded 4-player Castell games (C-4: every
action of a turn) and of the engine's toy game, whose turns draw chance.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from castell_bots.mcts import MCTSBot

from castell_dsl.engine.game import Game
from castell_dsl.runtime.bots import make_bot
from castell_dsl.runtime.games import start_game
from castell_dsl.runtime.loading import load_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

import test_toy_engine as toy  # the engine's toy game, importable through the line above


class ScoredToy(toy.ToyLogic):
    """The toy bag game with an evaluation, so MCTS can play it: its `draw` action draws
    chance in the middle of a turn, so lines through it are replayed, not kept; and here the
    bag's refill between rounds draws too, and the evaluation reads the bag, so a line that
    ends a round is worth something else in every sample of chance."""

    def __init__(self, rules):  # type: ignore[no-untyped-def]
        super().__init__(rules)
        self.steps = {**self.steps, "refill": self.random_refill}

    def random_refill(self, game) -> None:  # type: ignore[no-untyped-def]
        game.state["g"]["bag"] += [1 + game.rng.below(6) for _ in range(self.refill)]

    def heuristics(self, game) -> list[float]:  # type: ignore[no-untyped-def]
        g = game.state["g"]
        bag = 0.1 * sum(g["bag"])
        return [g["banks"][p] + 0.5 * sum(g["hands"][p]) - bag for p in range(game.players)]


def positions(seed: int, count: int) -> list[Game]:
    """Seat 0's positions with a choice, in a 4-player game played by greedy bots."""
    rules = load_rules("castell")
    game = start_game(rules, 4, seed, record_events=False)
    bots = [make_bot("greedy", rules, s, seed) for s in range(4)]
    out = []
    while not game.is_over() and len(out) < count:
        if game.current_player == 0 and len(game.legal_actions()) > 1:
            out.append(game.clone())
        game.apply(bots[game.current_player].choose(game))
    return out


class Replaying(MCTSBot):
    """The search before positions were kept: each iteration replays its line from a copy
    of the root, reseeded, checking every action on the way down."""

    def _iterate(self, game, root, me):  # type: ignore[no-untyped-def]
        seed = self._rng.below(1 << 62)
        sim = game.clone(keep_log=False)
        sim.reseed(seed)
        path = [root]
        node = root
        while node.children:
            node = self._select(node)
            if sim.explain(node.action) is not None:
                return
            sim.apply(node.action)
            path.append(node)
            if not node.expanded:
                break
        if node.terminal or not node.expanded:
            if sim.is_over() or sim.current_player != me:
                node.terminal = node.expanded = True
                self._evaluate_into(node, sim, me)
            else:
                self._expand(node, sim, me, consume=True, seed=None)
                node.position = None  # nothing kept: the next iteration replays again
        for visited in reversed(path):
            visited.visits += 1
            if visited.children:
                visited.value = max(child.value for child in visited.children)


def search(position: Game, bot_class: type[MCTSBot] = MCTSBot) -> tuple[str, list]:
    bot = bot_class(11, iterations=80)
    choice = bot.choose(position)
    return choice.text, bot.last_children


@pytest.mark.parametrize("seed", [3, 8])
def test_keeping_positions_changes_no_choice(seed: int) -> None:
    games = positions(seed, 12)
    kept = [search(p.clone()) for p in games]
    replayed = [search(p.clone(), Replaying) for p in games]
    assert kept == replayed
    assert len({text for text, _ in kept}) > 1, "the positions ask for different choices"


def test_lines_that_draw_chance_are_replayed_as_before(tmp_path) -> None:
    """In the toy a turn draws counters: the search keeps only the root's position, and its
    choices and values are those of replaying every line (each iteration's own chance)."""
    rules = toy.compile_toy(tmp_path)
    logic = ScoredToy(rules)
    games = []
    for seed in range(6):
        game = Game(rules, logic, 2, seed, record_events=False)
        while not game.is_over() and len(games) < 6 * (seed + 1):
            if len(game.legal_actions()) > 1:
                games.append(game.clone())
            game.apply(game.legal_actions()[len(game.log) % len(game.legal_actions())])
    kept = [search(p.clone()) for p in games]
    replayed = [search(p.clone(), Replaying) for p in games]
    assert kept == replayed
