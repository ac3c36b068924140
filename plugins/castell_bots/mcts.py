"""The MCTS bot: Monte Carlo tree search over the engine's own `clone` and `apply`.

Each iteration copies the game and **determinises** chance by reseeding the copy's generator
from the bot's own (the bag's future draws are unknown to a player, so every iteration samples
them anew). It walks down the tree by UCT, expands the node it reaches — every action there is
tried once on a copy and its position evaluated with the mechanics' `heuristic` — and backs the
values up. A player's value for a position is the logistic of their heuristic lead over the
best opponent, in [0, 1]. Within the bot's own turn the search is a planner (a node is worth
its best continuation); once the turn passes, `rollout` random actions may be played before
evaluating. After the search, the action with the best backed-up value among those visited
most is played. A node reached by a line that drew no chance keeps its position (the same in
every iteration, the generator aside), so later iterations copy it rather than replay the line.

Settings (`mcts:iterations=200`, `mcts:time=0.5`): `iterations` per move; `time` seconds per
move — with `time` alone the search runs for that long, however many iterations fit; with both,
whichever comes first; with neither, 60 iterations. `c` is the exploration constant, `rollout`
the random actions after the turn ends, `scale` the lead (in points) that counts as a near-sure
win. With `time` unset the bot is deterministic for a given seed.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable
from operator import attrgetter

from castell_dsl.contract import Action, PlayableGame, decision_rng
from castell_dsl.contract.rng import _GAMMA, _MASK


class Node:
    __slots__ = (
        "action",
        "children",
        "evaluations",
        "expanded",
        "fixed",
        "position",
        "terminal",
        "value",
        "visits",
    )

    def __init__(self, action: Action | None) -> None:
        self.action = action  # the move into this node: None only at the root
        self.children: list[Node] = []
        self.expanded = False
        self.terminal = False
        self.visits = 0
        self.value = 0.0  # best continuation (own turn) or mean evaluation (turn over)
        self.evaluations = 0
        #: A maker of copies of this node's position, kept when the line from the root drew
        #: no chance: the position is then the same in every iteration but for the generator
        #: (reseeded), so an iteration copies it instead of replaying the line.
        self.position: Callable[[], PlayableGame] | None = None
        #: A terminal node whose evaluation is the same every time: its line drew no chance
        #: and no rollout follows, so a visit need not play it again.
        self.fixed = False


#: Iterations per move when neither `iterations` nor `time` is given.
DEFAULT_ITERATIONS = 60
#: The UCT tie-break adds `draw * 1e-9` with draw < 1000: less than this, so a child whose
#: score without it is this much below the best cannot be chosen (`_select`).
TIE_BREAK_SPAN = 1e-6


class MCTSBot:
    name = "mcts"

    def __init__(
        self,
        seed: int,
        iterations: int = 0,
        time: float = 0.0,
        c: float = 0.3,
        rollout: int = 0,
        scale: float = 4.0,
    ) -> None:
        self.seed = seed
        self.time = float(time)
        #: None: no count limit (a `time` alone bounds the search); 0 means "not given".
        self.iterations: int | None = (
            int(iterations) if iterations > 0 else (None if self.time > 0 else DEFAULT_ITERATIONS)
        )
        #: Iterations the last decision ran, and its root's children's (visits, value)
        #: (for benchmarks and tests).
        self.last_iterations = 0
        self.last_children: list[tuple[int, float]] = []
        self.c = float(c)
        self.rollout = max(0, int(rollout))
        self.scale = float(scale)

    # ---- search -------------------------------------------------------------------------------
    def choose(self, game: PlayableGame) -> Action:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        me = game.current_player
        if me is None:
            raise ValueError("no player is to move: the game is over or between turns")
        self._rng = decision_rng(self.seed, game)
        # The search makes and drops many small objects and no reference cycles (a node
        # holds its children, a game its state): reference counting frees them all, so the
        # cyclic collector's passes during a decision are pure cost (about a tenth of the
        # time). It is paused for the decision and resumed as it was.
        collecting = gc.isenabled()
        gc.disable()
        try:
            root = Node(None)
            self._expand(root, game, me)
            deadline = time.perf_counter() + self.time if self.time > 0 else None
            done = 0
            while self.iterations is None or done < self.iterations:
                if deadline is not None and time.perf_counter() > deadline:
                    break
                self._iterate(game, root, me)
                done += 1
        finally:
            if collecting:
                gc.enable()
        self.last_iterations = done
        self.last_children = [(child.visits, child.value) for child in root.children]
        best = max(root.children, key=lambda n: (n.value, n.visits)).action
        assert best is not None  # a child of the root
        return best

    def _iterate(self, game: PlayableGame, root: Node, me: int) -> None:
        seed = self._rng.below(1 << 62)  # determinise chance
        path = [root]
        node = root
        # Walk down by UCT. While the nodes' positions are kept (`Node.position`), nothing is
        # played: the first node without one is reached by copying its parent's position and
        # taking its action, which was listed there, so it is legal. Below, the line is
        # replayed and checked, since this sample of chance may have made it impossible.
        sim: PlayableGame | None = None
        while node.children:
            parent = node
            node = self._select(parent)
            action = node.action
            assert action is not None  # a child, never the root
            if node.fixed:
                path.append(node)
                break
            if sim is None:
                if node.position is not None:
                    path.append(node)
                    continue
                assert parent.position is not None  # the root's, or a kept one's
                sim = parent.position()
                sim.reseed(seed)
            elif not _legal(sim, action):
                return  # this sample of chance made the line impossible; try another
            sim.apply(action)
            path.append(node)
            if not node.expanded:
                break
        if node.fixed:
            node.evaluations += 1  # the same value again: the mean stays
        else:
            if sim is None:  # the walk ended on a kept position
                assert node.position is not None
                sim = node.position()
                sim.reseed(seed)
            if node.terminal or not node.expanded:
                if sim.is_over() or sim.current_player != me:
                    node.terminal = True
                    node.expanded = True
                    self._evaluate_into(node, sim, me)
                else:
                    self._expand(node, sim, me, consume=True, seed=seed)
        for visited in reversed(path):
            visited.visits += 1
            if visited.children:
                visited.value = max(map(_VALUE, visited.children))

    def _expand(
        self,
        node: Node,
        sim: PlayableGame,
        me: int,
        consume: bool = False,
        seed: int | None = None,
    ) -> None:
        """Try every action here once; a child's first value is its position's evaluation.

        With `consume` the caller is done with `sim` (an iteration's own copy), so the last
        action is tried on it rather than on one more copy. The position is kept for later
        iterations when it was reached without chance since `reseed(seed)` (`seed` None:
        the search's root, the game itself)."""
        node.expanded = True
        actions = sim.legal_actions()
        last = len(actions) - 1
        keep = seed is None or not sim.drew_since_reseed(seed)
        copy = sim.copier() if last > 0 or not consume or keep else None
        if keep:
            node.position = copy
        children = node.children
        evaluate = self._evaluate_into
        value = self._value
        for i, action in enumerate(actions):
            child = Node(action)
            trial = sim if copy is None or (consume and i == last) else copy()
            trial.apply(action)
            if trial.is_over() or trial.current_player != me:
                child.terminal = child.expanded = True
                child.fixed = (
                    seed is not None and not self.rollout and not trial.drew_since_reseed(seed)
                )
                evaluate(child, trial, me)
            else:
                # `_evaluate_into` of a node not yet evaluated, without a rollout.
                child.value = value(trial, me)
                child.evaluations = 1
            children.append(child)
        if children:
            node.value = max(map(_VALUE, children))

    def _evaluate_into(self, node: Node, sim: PlayableGame, me: int) -> None:
        if node.terminal and self.rollout:
            sim = sim.clone(keep_log=False)
            for _ in range(self.rollout):
                if sim.is_over():
                    break
                legal = sim.legal_actions()
                sim.apply(legal[self._rng.below(len(legal))])
        value = self._value(sim, me)
        node.evaluations += 1
        node.value += (value - node.value) / node.evaluations

    def _select(self, parent: Node) -> Node:
        """The child with the best UCT score, ties broken by a seeded draw per child
        (`self._rng.below(1000) * 1e-9`, one draw for each child in order).

        The draws are SplitMix64 steps, the same as `Rng.below`'s: the generator moves on by
        one step per child, which is one addition, and a child's draw is worked out only when
        its score without it is within `TIE_BREAK_SPAN` of the best (no other can win): the
        same choice and the same generator state as drawing for every child."""
        children = parent.children
        c = self.c
        sqrt = math.sqrt
        log_n = math.log(parent.visits + 1)
        scores = [child.value + c * sqrt(log_n / (child.visits + 1)) for child in children]
        floor = max(scores) - TIE_BREAK_SPAN
        store = self._rng.store
        key = self._rng.key
        start = store[key]
        gamma, mask = _GAMMA, _MASK
        best = children[0]
        best_score = -math.inf
        for i, base in enumerate(scores):
            if base < floor:
                continue
            state = (start + (i + 1) * gamma) & mask
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            draw = ((z ^ (z >> 31)) * 1000) >> 64
            score = base + draw * 1e-9
            if score > best_score:
                best, best_score = children[i], score
        store[key] = (start + len(children) * gamma) & mask
        return best

    def _value(self, sim: PlayableGame, me: int) -> float:
        values = sim.logic.heuristics(sim)
        others = values[:me] + values[me + 1 :]
        lead = (values[me] - (max(others) if others else 0.0)) / self.scale
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, lead))))


_VALUE = attrgetter("value")


def _legal(sim: PlayableGame, action: Action) -> bool:
    """Whether a line's next action is still legal in this sample of chance. Asked of the
    engine's check alone (`explain`), which accepts every listed action and more, so nothing
    is listed on the way down the tree; the game then applies it without checking again."""
    return sim.explain(action) is None
