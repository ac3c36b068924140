"""The greedy bot: one ply, the move that leaves the best-looking position.

For every legal action it plays the action on a clone of the game and evaluates the result
with the mechanics' `heuristic(game, player)` — for Castell: the points scored if the game
ended now, plus simple positional terms (being in this round's festival region with a
qualifying tower, castellers of the numbers upcoming festivals need, skill ranks, team size,
tokens; see `CastellLogic.heuristic`). Ties are broken by the bot's own seeded generator.

Ending the turn is weighed like any action, but it never wins a tie: the bot ends its turn only
when every other action rates lower, or ties without improving on the position as it stands
(a tower rebuilt unchanged), and it never ends a turn as its first action while another action
exists — no skipped turns. It never takes more than `max_actions` actions in one turn (then it
ends the turn if it can), so it cannot wander.
"""

from __future__ import annotations

from castell_dsl.contract import Action, PlayableGame, decision_rng

#: Values closer than this are equal.
EPSILON = 1e-9


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
        enders = [a for a in actions if game.ends_turn(a)]
        others = [a for a in actions if not game.ends_turn(a)]
        best_value, best = self._best(game, others, me)
        if not enders:
            return self._pick(game, best)
        end_value, end_best = self._best(game, enders, me)
        # Ending the turn is the baseline: another action is taken when it rates higher, or
        # as high while improving on the position as it stands, and always as the turn's
        # first action (never a skipped turn).
        if others and (
            game.actions_this_turn == 0
            or best_value > end_value + EPSILON
            or (best_value >= end_value - EPSILON and not self._same_as_now(game, best, me))
        ):
            return self._pick(game, best)
        return self._pick(game, end_best)

    def _best(
        self, game: PlayableGame, actions: list[Action], me: int
    ) -> tuple[float, list[Action]]:
        """The heuristic's best value after one of `actions`, and every action reaching it."""
        best_value = float("-inf")
        best: list[Action] = []
        for action in actions:
            trial = game.clone(keep_log=False)
            trial.apply(action)
            value = trial.logic.heuristic(trial, me)
            if not best or value > best_value + EPSILON:
                best_value, best = value, [action]
            elif abs(value - best_value) <= EPSILON:
                best.append(action)
        return best_value, best

    def _same_as_now(self, game: PlayableGame, actions: list[Action], me: int) -> bool:
        """Whether every one of these equally rated actions leaves the position as good as it
        is now (a tower rebuilt as it stands): taking them would only use up the turn."""
        now = game.logic.heuristic(game, me)
        for action in actions:
            trial = game.clone(keep_log=False)
            trial.apply(action)
            if trial.logic.heuristic(trial, me) > now + EPSILON:
                return False
        return True

    def _pick(self, game: PlayableGame, tied: list[Action]) -> Action:
        return tied[decision_rng(self.seed, game).below(len(tied))]
