"""`mcts:time=T` thinks for T seconds: iterations are unbounded unless also given.

The exact spread (0.4 to 0.7 s per decision for `time=0.5`) is measured by
`benchmarks/mcts_time.py`; this test keeps only bounds that a busy machine cannot break: never
less than the time asked, many more iterations than the 60 of the default, and a count given
as well still wins when it comes first.
"""

from __future__ import annotations

import time

from castell_dsl import load_rules, make_bot, new_game

RULES = load_rules("castell")


def _position():
    game = new_game(RULES, players=2, seed=5, record_events=False)
    game.apply(game.legal_actions()[0])  # a pawn placed: many actions to weigh
    return game


def test_time_alone_searches_for_that_long_with_no_iteration_cap():
    game = _position()
    bot = make_bot("mcts:time=0.3", RULES, game.current_player, game.seed)
    started = time.perf_counter()
    bot.choose(game)
    elapsed = time.perf_counter() - started
    assert elapsed >= 0.3
    assert bot.last_iterations > 60  # not stopped by the default count


def test_iterations_and_time_stop_at_whichever_comes_first():
    game = _position()
    bot = make_bot("mcts:iterations=5,time=30", RULES, game.current_player, game.seed)
    bot.choose(game)
    assert bot.last_iterations == 5


def test_neither_means_sixty_iterations_and_a_deterministic_choice():
    game = _position()
    first = make_bot("mcts", RULES, game.current_player, game.seed)
    again = make_bot("mcts", RULES, game.current_player, game.seed)
    assert first.choose(game) == again.choose(game)
    assert first.last_iterations == 60


def test_iterations_given_must_be_at_least_one():
    """`iterations=0` is not a way to say "unbounded": a spec outside the range is refused."""
    import pytest

    from castell_dsl.runtime.bots import BotSpecError

    with pytest.raises(BotSpecError, match="from 1 to 20000"):
        make_bot("mcts:iterations=0", RULES, 0, 0)
