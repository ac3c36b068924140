"""MCTS's UCT choice works out the seeded tie-break only for children that can win.

`MCTSBot._select` adds to each child's score a draw of the decision's generator
(`below(1000) * 1e-9`, one draw per child in order). It now computes a draw only for the
children whose score without it is within `TIE_BREAK_SPAN` of the best, and moves the generator
on by one step per child in one addition. The oracle is the loop it replaced, drawing for every
child: the same child and the same generator state afterwards, on values with many exact ties
(the case the draws decide) and on spread ones.
"""

from __future__ import annotations

import math

from castell_bots.mcts import MCTSBot, Node
from hypothesis import given
from hypothesis import strategies as st

from castell_dsl.contract import Rng


def drawing_every_child(bot: MCTSBot, parent: Node) -> Node:
    """The previous `_select`: a `below(1000)` draw for every child."""
    log_n = math.log(parent.visits + 1)
    best, best_score = parent.children[0], -math.inf
    for child in parent.children:
        draw = bot._rng.below(1000)
        score = child.value + bot.c * math.sqrt(log_n / (child.visits + 1)) + draw * 1e-9
        if score > best_score:
            best, best_score = child, score
    return best


values = st.one_of(
    st.sampled_from([0.0, 0.25, 0.5, 0.5 + 1e-7, 0.5 + 2e-6, 1.0]),
    st.floats(min_value=0.0, max_value=1.0),
)
children = st.lists(st.tuples(values, st.integers(0, 50)), min_size=1, max_size=30)


@given(children, st.integers(0, 500), st.integers(0, 2**40), st.sampled_from([0.0, 0.3, 1.4]))
def test_select_matches_drawing_for_every_child(
    kids: list[tuple[float, int]], visits: int, seed: int, c: float
) -> None:
    parent = Node(None)
    parent.visits = visits
    for value, child_visits in kids:
        child = Node(None)
        child.value, child.visits = value, child_visits
        parent.children.append(child)
    new, old = MCTSBot(1, iterations=1, c=c), MCTSBot(1, iterations=1, c=c)
    new._rng, old._rng = Rng({"rng": seed}), Rng({"rng": seed})
    for _ in range(3):  # successive choices share the generator
        assert new._select(parent) is drawing_every_child(old, parent)
        assert new._rng.store == old._rng.store


def test_a_draw_outweighs_a_lead_smaller_than_its_span() -> None:
    """Two children 1e-7 apart, the same visits: in some seeds the draw picks the lower one,
    and the fast choice must too (a span too small would always pick the higher)."""
    parent = Node(None)
    parent.visits = 10
    for value in (0.5, 0.5 + 1e-7, 0.2):
        child = Node(None)
        child.value, child.visits = value, 3
        parent.children.append(child)
    lower_won = 0
    for seed in range(50):
        new, old = MCTSBot(1, iterations=1), MCTSBot(1, iterations=1)
        new._rng, old._rng = Rng({"rng": seed}), Rng({"rng": seed})
        chosen = new._select(parent)
        assert chosen is drawing_every_child(old, parent)
        lower_won += chosen is parent.children[0]
    assert 0 < lower_won < 50
