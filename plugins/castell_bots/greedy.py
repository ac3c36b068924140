"""The greedy bot: one ply, the move that leaves the best-looking position.

For every legal action it plays the action on a clone of the game and evaluates the result
with the mechanics' `heuristic(game, player)` — for Castell: the points scored if the game
ended now, plus simple positional terms (being in this round's festival region with a
qualifying tower, castellers of the numbers upcoming festivals need, skill ranks, team size,
tokens; see `CastellLogic.heuristic`). Ties are broken by the bot's own seeded generator. It
never takes more than `max_actions` actions in one turn (then it ends the turn if it can), so
it cannot wander.
"""

from __future__ import annotations

from castell_dsl.contract import Action, PlayableGame, decision_rng


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int, max_actions: int = 12) -> None:
        self.seed = seed
        self.max_actions = max_actions

    def choose(self, game: PlayableGame) -> Action:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if game.actions_this_turn >= self.max_actions:
            enders = [a for a in actions if game.ends_turn(a)]
            if enders:
                return enders[0]
        me = game.current_player
        if me is None:
            raise ValueError("no player is to move: the game is over or between turns")
        best_value = None
        best: list[Action] = []
        for action in actions:
            trial = game.clone(keep_log=False)
            trial.apply(action)
            value = trial.logic.heuristic(trial, me)
            if best_value is None or value > best_value + 1e-9:
                best_value, best = value, [action]
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return best[decision_rng(self.seed, game).below(len(best))]
