"""The generic turn engine: runs any compiled rule set whose mechanics provides a `GameLogic`.

It knows rounds, the steps of `start` and `round` (with their `when` conditions), phases of
player turns with per-turn action limits, required actions, prerequisites and granted actions,
chance (through the seeded generator in the state), end-of-game scoring and tie-breaks, the
action log and the event stream — and nothing about any particular game.

State is plain JSON data. A game is fully described by its rule set hash, its options (players,
seed, variants) and its action log: replaying the log reproduces the state exactly.

A `Game` is handed everything it needs — the rule set, the mechanics' compiled logic, the
observers of its events — and fetches nothing: finding plugins, loading rules and saving games
belong to the runtime layer above (`castell_dsl.runtime`). So the engine runs on any logic,
including a toy one defined in a test.
"""

from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import is_
from typing import Any

from ..contract import (
    Action,
    ActionError,
    ActionSyntaxError,
    GameLogic,
    Observer,
    Rejection,
    Rng,
    seed_state,
)
from ..contract.handlers import counts_options
from ..language.ruleset import Record, RuleSet
from .plan import ActionPlan, Plan, plan_for


def copy_data(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars).

    `marshal` copies such data in C, about 2.5 times faster than a Python walk (and much faster
    than `copy.deepcopy`): it matters, because search bots copy the state thousands of times a
    second. Anything marshal cannot hold falls back to the walk.
    """
    try:
        return marshal.loads(marshal.dumps(value, FLAT))
    except ValueError:
        return _copy_walk(value)


#: The `marshal` format copies use: version 2, the last without back-references. The state is
#: JSON data, where no object appears twice, so they would only cost time (a sixth of a copy).
FLAT = 2


def _copy_walk(value: Any) -> Any:
    if type(value) is list:
        return [_copy_walk(v) if type(v) in (list, dict) else v for v in value]
    if type(value) is dict:
        return {k: _copy_walk(v) if type(v) in (list, dict) else v for k, v in value.items()}
    return value


def _sampling(logic: GameLogic) -> str:
    """How `sample_legal` draws for `logic`: "listing" when it does not count its options;
    "counts" when it counts them and every candidate is an action (a listing made already
    then serves the very same draw); "candidates" when some candidates are not actions.
    A logic counts through its handlers (`ActionHandler.count`, `.candidates`), or by
    overriding `GameLogic.count_options` and `.count_candidates` itself."""
    kind = type(logic)
    if kind.count_options is GameLogic.count_options:
        counts, candidates = counts_options(logic.handlers)
    else:
        counts, candidates = True, kind.count_candidates is not GameLogic.count_candidates
    if not counts:
        return "listing"
    return "candidates" if candidates else "counts"


def _holds_turn(plan: ActionPlan, used: dict[str, int]) -> bool:
    """The required-action rule: an action marked `required` and not taken yet this turn
    holds the turn open while it is open (`Game._open_kinds`) and has an option; so listing,
    sampling and checking an ending action all ask this one question."""
    return plan.required and not used.get(plan.kind)


#: The last seed `_seed_state` was asked about and its state: a search reseeds its copies
#: and asks whether they drew with one seed per iteration, many times over.
_last_seed: tuple[int, int] = (0, seed_state(0))


def _seed_state(seed: int) -> int:
    """`seed_state(seed)`, remembered for the last seed asked."""
    global _last_seed
    last = _last_seed
    if last[0] == seed and type(seed) is int:
        return last[1]
    state = seed_state(seed)
    if type(seed) is int:
        _last_seed = (seed, state)
    return state


def state_hash(state: dict) -> str:
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def player_count_problem(rules: RuleSet, players: int) -> str | None:
    """Why a game of `rules` cannot have `players` players (None: it can): the one check of a
    player count, which every command, the RL environments and the web lobby ask before
    starting (a mechanics may refuse more when the game starts, e.g. a variant's bag)."""
    low, high = rules.game.players
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        shown = (
            f"{low} player"
            if low == high == 1
            else (f"{low} players" if low == high else f"{low} to {high} players")
        )
        return f"{rules.game.title} is for {shown}, not {players}"
    return None


class Game:
    """One game in progress. Create one with `castell_dsl.new_game` (which finds the logic
    through the plugins), or hand it a rule set and a logic directly."""

    def __init__(
        self,
        rules: RuleSet,
        logic: GameLogic,
        players: int,
        seed: int,
        *,
        record_events: bool = True,
        observers: Iterable[Observer] = (),
    ):
        problem = player_count_problem(rules, players)
        if problem is not None:
            raise ValueError(problem)
        state: dict[str, Any] = {
            "players": players,
            "rng": seed_state(seed),
            "phase": "start",
            "round": 0,
            "step": 0,
            "turn": None,
            "first_player": 0,
            "g": {},
        }
        self._set_up(rules, logic, plan_for(rules), players, seed, state, log=[],
                     sampling=_sampling(logic), legal=None,
                     events=[] if record_events else None, observers=list(observers))  # fmt: skip
        self.state["g"] = self.logic.initial_state(self)
        if self.plan.first_player == "random":
            self.state["first_player"] = self.rng.below(players)
        self.emit({"type": "start", "players": players, "seed": seed,
                   "first_player": self.state["first_player"]})  # fmt: skip
        self._advance()

    def _set_up(
        self,
        rules: RuleSet,
        logic: GameLogic,
        plan: Plan,
        players: int,
        seed: int,
        state: dict[str, Any],
        *,
        log: list[str],
        sampling: str,
        legal: list[Action] | None,
        events: list[dict] | None = None,
        observers: list[Observer] | None = None,
        borrowed: dict[str, set[int] | None] | None = None,
    ) -> None:
        """Every attribute of a game, in one place: a new game, `clone` and `copier` all set a
        game up here (the copies without `__init__`, which would start the game anew)."""
        self.rules = rules
        self.logic = logic
        self.plan = plan
        self.players = players
        self.seed = seed
        self.log = log
        self.events = events
        self.observers = [] if observers is None else observers
        #: The actions listed in this position, if listed (a copy shares its original's).
        self._legal = legal
        #: An action known legal in this position, as listed ones are: the one `sample_legal`
        #: drew or `explain` just accepted, so that `apply` need not check it again.
        self._known_legal: Action | None = None
        #: How `sample_legal` draws: from the listing, or by counting (`_sampling`).
        self._sampling = sampling
        self._result: dict | None = None
        #: Keys of `state["g"]` whose values this game shares with other copies of a position
        #: and must copy before changing them (`own`; `GameLogic.copy_on_write`), each with
        #: None (the whole value is shared) or the indices of the items copied already (the
        #: value's list is this game's, its other items are shared).
        self._borrowed = borrowed
        self.state = state
        self.rng = Rng(state)

    def own(self, key: str, index: int | None = None) -> Any:
        """`state["g"][key]`, or its item `index`, this game's own to change in place
        (`GameContext.own`). A copy made by `copier` shares the logic's `copy_on_write`
        values with the other copies of its position until it first takes one here: the
        whole value is then copied, or for an item the value's list alone (its other items
        stay shared) and that item."""
        g = self.state["g"]
        borrowed = self._borrowed
        if not borrowed or key not in borrowed:
            return g[key] if index is None else g[key][index]
        rows = borrowed[key]  # None: the whole value is shared; else the items copied
        if index is None:
            del borrowed[key]
            value = g[key] = copy_data(g[key])
            return value
        if rows is None:
            rows = borrowed[key] = set()
            g[key] = g[key][:]
        value = g[key]
        if index in rows:
            return value[index]
        rows.add(index)
        item = value[index] = copy_data(value[index])
        return item

    # ---- observing ----------------------------------------------------------------------------
    @property
    def observed(self) -> bool:
        """True when someone listens to events (mechanics skip building them otherwise)."""
        return self.events is not None or bool(self.observers)

    def emit(self, event: dict[str, Any]) -> None:
        if self.events is not None:
            self.events.append(event)
        for observer in self.observers:
            observer(self, event)

    # ---- reading ------------------------------------------------------------------------------
    @property
    def granted(self) -> bool:
        """True while the action at hand was granted by an earlier one (`GameContext`): while
        a grant is pending, the engine lists, checks and applies only the granted kind, and
        the grant is taken off the turn once its action is applied. Read from the turn, so
        it is never a flag to set and reset around the logic's calls."""
        turn = self.state["turn"]
        return turn is not None and bool(turn["grants"])

    @property
    def round(self) -> int:
        return self.state["round"]

    @property
    def rounds(self) -> int:
        """How many rounds the game has (the rule set's `game { rounds N }`)."""
        return self.plan.rounds

    @property
    def current_player(self) -> int | None:
        turn = self.state["turn"]
        return None if turn is None else turn["order"][turn["pos"]]

    @property
    def variants(self) -> tuple[str, ...]:
        return self.rules.variants

    def is_over(self) -> bool:
        return self.state["phase"] == "over"

    def view(self, memo: dict[Any, Any] | None = None) -> dict[str, Any]:
        """Everything a player at the table can see (names, not indices), for front-ends.

        The engine's part (round, whose turn, what this turn used) is at the top level; the
        mechanics' part (the board, the players' pieces) is under "table". With `memo` (a
        dict the caller keeps for this game), the table is `GameLogic.tracked_view`'s: the
        same data, sharing unchanged parts with the previous call (read it, never change it).
        """
        turn = self.state["turn"]
        return {
            "round": self.state["round"],
            "rounds": self.plan.rounds,
            "players": self.players,
            "current_player": self.current_player,
            "turn_actions_used": dict(turn["used"]) if turn else {},
            "pending_grant": turn["grants"][0] if turn and turn["grants"] else None,
            "over": self.is_over(),
            "table": self.logic.view(self) if memo is None else self.logic.tracked_view(self, memo),
        }

    def invalidate(self) -> None:
        """Forget cached legal actions after editing `state` by hand (tests, tools)."""
        self._legal = None
        self._known_legal = None
        self._result = None

    # ---- actions ------------------------------------------------------------------------------
    def _turn_plan(self) -> tuple[ActionPlan, ...]:
        return self.plan.turns[self.state["turn"]["name"]]

    def parse(self, text: str) -> Action:
        """Read an action from its text form (`move Girona`); raise `ActionError` if unreadable.

        The one place a game's parse errors become `ActionError`, the one exception callers
        catch: the game's `ActionSyntaxError` as it is written, a `ValueError` from its
        notation helpers with the kind in front."""
        words = text.strip().split(None, 1)
        if not words:
            raise ActionError(Rejection("empty", "type an action, e.g. `end`"), text)
        kind = words[0].lower()
        rest = words[1] if len(words) > 1 else ""
        known = {a.kind: a for plans in self.plan.turns.values() for a in plans}
        plan = known.get(kind)
        if plan is None:
            names = ", ".join(sorted(known))
            raise ActionError(
                Rejection("unknown-action", f"there is no action '{kind}'; actions: {names}"), text
            )
        if plan.ender is not None:  # an ending action (`end`)
            if rest:
                raise ActionError(Rejection("bad-syntax", f"'{kind}' takes nothing after it"), text)
            return plan.ender
        try:
            return self.logic.parse(kind, rest)
        except ActionSyntaxError as exc:
            raise ActionError(Rejection("bad-syntax", str(exc)), text) from None
        except ValueError as exc:  # a notation helper's complaint (`ActionHandler.parse`)
            raise ActionError(Rejection("bad-syntax", f"{kind}: {exc}"), text) from None

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take now (a finite, useful list)."""
        if self._legal is not None:
            return self._legal
        if self.state["phase"] == "over" or self.state["turn"] is None:
            self._legal = []
            return self._legal
        turn = self.state["turn"]
        player: int = turn["order"][turn["pos"]]  # `current_player`, known to be a player here
        used = turn["used"]
        actions: list[Action] = []
        if turn["grants"]:
            kind = turn["grants"][0]
            plan = self.plan.by_kind[turn["name"]][kind]
            actions = self.logic.options(self, player, kind, plan.spec)
            self._legal = actions
            return actions
        blocked = False
        options_of = self.logic.options
        open_plans, enders = self._open_kinds(used)
        for plan in open_plans:
            options = options_of(self, player, plan.kind, plan.spec)
            if options and _holds_turn(plan, used):
                blocked = True
            actions += options
        if not blocked:
            actions += enders
        self._legal = actions
        return actions

    def _open_kinds(self, used: dict[str, int]) -> tuple[list[ActionPlan], list[Action]]:
        """The turn's action kinds the player may still take (limit not reached, `after`
        met) and its open ending actions: one reading of the turn block, for listing and
        sampling alike, so the two can never disagree about what is open."""
        open_plans: list[ActionPlan] = []
        enders: list[Action] = []
        for plan in self._turn_plan():
            if plan.limit is not None and used.get(plan.kind, 0) >= plan.limit:
                continue
            if plan.after and not all(used.get(a) for a in plan.after):
                continue
            if plan.ender is not None:  # an ending action (`end`)
                enders.append(plan.ender)
            else:
                open_plans.append(plan)
        return open_plans, enders

    def sample_legal(self, rng: Rng) -> Action:
        """A uniform draw from `rng` among `legal_actions()`, building only the action drawn.

        When the logic counts its options (`GameLogic.count_options`), nothing is listed: each
        action kind open now says how many candidates it has (`count_candidates`), one draw
        picks a candidate, and one that is not an action now is drawn again until one is —
        rejection sampling, so every legal action is exactly equally likely while only the
        candidates drawn cost a confirmation (a tower search). When every candidate is an
        action (the default) that is one draw, and the action `legal[rng.below(len(legal))]`
        would pick. A kind that must be taken before the turn may end (`required`) is counted
        exactly, since whether it has an action decides whether ending is open. A random
        playout lists ten or more actions for each one it takes, so this is most of its cost.
        A logic that does not count is drawn from its listing, and so is one whose candidates
        are all actions when the listing is made already (the same draw). Raises `ValueError`
        when no action is legal, as `Rng.below(0)` does for the empty listing.
        """
        sampling = self._sampling
        if sampling == "listing" or (sampling == "counts" and self._legal is not None):
            legal = self.legal_actions()
            return legal[rng.below(len(legal))]
        state = self.state
        turn = state["turn"]
        if state["phase"] == "over" or turn is None:
            raise ValueError("no action is legal: the game is over or between turns")
        player: int = turn["order"][turn["pos"]]
        logic = self.logic
        if turn["grants"]:
            kind = turn["grants"][0]
            spec = self.plan.by_kind[turn["name"]][kind].spec
            n = logic.count_candidates(self, player, kind, spec)
            action = self._draw(rng, player, [(kind, spec, n, False)], [])
            self._known_legal = action
            return action
        used = turn["used"]
        kinds: list[tuple[str, Record, int, bool]] = []
        blocked = False
        count, exact_count = logic.count_candidates, logic.count_options
        open_plans, enders = self._open_kinds(used)
        for plan in open_plans:
            exact = _holds_turn(plan, used)
            n = (exact_count if exact else count)(self, player, plan.kind, plan.spec)
            if n:
                blocked = blocked or exact
                kinds.append((plan.kind, plan.spec, n, exact))
        action = self._draw(rng, player, kinds, [] if blocked else enders)
        self._known_legal = action
        return action

    def _draw(
        self,
        rng: Rng,
        player: int,
        kinds: list[tuple[str, Record, int, bool]],
        enders: list[Action],
    ) -> Action:
        """`sample_legal`'s draw: a uniform candidate among `kinds` — (kind, spec, how many,
        whether counted exactly) — and `enders`, drawn again while it is not an action. A
        candidate found empty is remembered, so the loop ends (`ValueError`) once every
        candidate is known empty; each draw is otherwise independent and uniform."""
        logic = self.logic
        total = sum(k[2] for k in kinds) + len(enders)
        empty: set[int] = set()
        while True:
            index = drawn = rng.below(total)
            if drawn in empty:
                continue
            action: Action | None = None
            for kind, spec, n, exact in kinds:
                if index < n:
                    pick = logic.nth_option if exact else logic.candidate
                    action = pick(self, player, kind, spec, index)
                    break
                index -= n
            else:
                action = enders[index]
            if action is not None:
                return action
            empty.add(drawn)
            if len(empty) == total:
                raise ValueError("no action is legal now: no candidate is an action")

    def _coerce(self, action: Action | str) -> Action:
        return self.parse(action) if isinstance(action, str) else action

    def explain(self, action: Action | str) -> Rejection | None:
        """None if `action` is legal now; otherwise why not (a stable code and a sentence)."""
        try:
            action = self._coerce(action)
        except ActionError as exc:
            return exc.rejection
        rejection = self._check(action)
        if rejection is None:
            self._known_legal = action  # a search asks, then applies: check once
        return rejection

    def _check(self, action: Action) -> Rejection | None:
        state = self.state
        if state["phase"] == "over":
            return Rejection("game-over", "the game is over")
        turn = state["turn"]
        if turn is None:
            return Rejection("no-turn", "no player is to act now")
        plans = self._turn_plan()
        plan = self.plan.by_kind[turn["name"]].get(action.kind)
        if plan is None:
            names = ", ".join(a.kind for a in plans)
            return Rejection("unknown-action", f"'{action.kind}' is not an action now ({names})")
        used = turn["used"]
        player: int = turn["order"][turn["pos"]]  # `current_player`, known to be a player here
        if turn["grants"]:
            granted = turn["grants"][0]
            if action.kind != granted:
                return Rejection(
                    "granted-action-pending",
                    f"first take the {granted} action you have just gained",
                )
            return self.logic.check(self, player, action, plan.spec)
        if plan.limit is not None and used.get(plan.kind, 0) >= plan.limit:
            times = "once" if plan.limit == 1 else f"{plan.limit} times"
            return Rejection("limit-reached", f"you may {plan.kind} only {times} per turn")
        for before in plan.after:
            if not used.get(before):
                return Rejection("too-early", f"{plan.kind} comes after {before}")
        if plan.ends_turn:
            # As in `legal_actions`: a required action holds the turn open only while it is
            # open now (`_open_kinds`) and has options.
            for other in self._open_kinds(used)[0]:
                if _holds_turn(other, used) and self.logic.options(
                    self, player, other.kind, other.spec
                ):
                    return Rejection("required-action", f"you must {other.kind} first")
            return None
        return self.logic.check(self, player, action, plan.spec)

    def apply(self, action: Action | str) -> Action:
        """Take `action` for the current player. An illegal action raises `ActionError` and
        changes nothing."""
        if isinstance(action, str):
            action = self.parse(action)
        legal = self._legal
        # An action taken from `legal_actions()` or drawn by `sample_legal` is known to be
        # legal: skip the check (by identity first: comparing actions field by field is the
        # slow path).
        if action is not self._known_legal and (
            legal is None or not (any(map(is_, legal, repeat(action))) or action in legal)
        ):
            rejection = self._check(action)
            if rejection is not None:
                raise ActionError(rejection, action.text)
        self._known_legal = None
        turn = self.state["turn"]
        player = turn["order"][turn["pos"]]
        plan = self.plan.by_kind[turn["name"]][action.kind]
        self._legal = None
        self.log.append(action.text)
        if self.events is not None or self.observers:  # `observed`, inlined: a search's path
            self.emit({"type": "action", "player": player, "action": action.text,
                       "round": self.state["round"]})  # fmt: skip
        if plan.ends_turn:
            self._end_turn()
            self._advance()
            return action
        if turn["grants"]:
            # Applied while the grant is still on the turn (`granted` reads it), then taken off.
            grant = self.logic.apply(self, player, action, plan.spec)
            turn["grants"].pop(0)
        else:
            turn["used"][plan.kind] = turn["used"].get(plan.kind, 0) + 1
            grant = self.logic.apply(self, player, action, plan.spec)
        if grant is not None:
            turn["grants"].append(grant)
        if not turn["grants"] and self._turn_exhausted():
            self._end_turn()
        self._advance()
        return action

    def ends_turn(self, action: Action) -> bool:
        """True if `action` is the current turn's ending action (`end`): taking it passes the
        turn on, whatever else the player could still do."""
        turn = self.state["turn"]
        if turn is None:
            return False
        plan = self.plan.by_kind[turn["name"]].get(action.kind)
        return plan is not None and plan.ends_turn

    @property
    def actions_this_turn(self) -> int:
        """How many actions the current player has taken this turn (granted ones excluded)."""
        turn = self.state["turn"]
        return sum(turn["used"].values()) if turn else 0

    def reseed(self, seed: int) -> None:
        """Give chance a new seed from here on (a search bot's determinised copy of a game)."""
        self.state["rng"] = _seed_state(seed)

    def drew_since_reseed(self, seed: int) -> bool:
        """Whether chance was drawn since `reseed(seed)`: if not, the actions taken since then
        led to the same position (the generator aside) under every seed, which a search may
        keep instead of replaying them. (The generator's state moves on with every draw and
        never returns: SplitMix64 steps by an odd constant modulo 2**64.)"""
        return self.state["rng"] != _seed_state(seed)

    def _turn_exhausted(self) -> bool:
        """True when the player can do nothing more: nothing is listed, or (the fast path) an
        ending action may be taken now. An ending action whose `after` is not done yet does
        not hold the turn open, or a turn whose prerequisites became impossible (an empty
        bag) would wait forever for a move nobody may make."""
        turn = self.state["turn"]
        used = turn["used"]
        for plan in self.plan.enders[turn["name"]]:
            if (plan.limit is None or used.get(plan.kind, 0) < plan.limit) and all(
                used.get(a) for a in plan.after
            ):
                return False
        return not self.legal_actions()

    # ---- flow ---------------------------------------------------------------------------------
    def _env(self) -> dict[str, int]:
        return {
            "round": self.state["round"],
            "rounds": self.plan.rounds,
            "players": self.players,
        }

    def _begin_turn(self) -> None:
        turn = self.state["turn"]
        turn["used"] = {}
        turn["grants"] = []
        self._legal = None
        if self.observed:
            self.emit({"type": "turn", "player": self.current_player,
                       "round": self.state["round"]})  # fmt: skip

    def _end_turn(self) -> None:
        turn = self.state["turn"]
        self._legal = None
        turn["pos"] += 1
        if turn["pos"] >= len(turn["order"]):
            self.state["turn"] = None
            self.state["step"] += 1
        else:
            self._begin_turn()
            if self._turn_exhausted():
                self._end_turn()

    def _advance(self) -> None:
        """Run automatic steps until a player must decide, or the game ends."""
        state = self.state
        plan = self.plan
        while state["phase"] != "over" and state["turn"] is None:
            steps = plan.start if state["phase"] == "start" else plan.round
            index = state["step"]
            if index >= len(steps):
                if state["phase"] == "start":
                    state["phase"] = "round"
                    state["round"] = 1
                else:
                    state["round"] += 1
                state["step"] = 0
                if state["round"] > plan.rounds:
                    state["round"] = plan.rounds
                    self._finish()
                    return
                if self.observed:
                    self.emit({"type": "round", "round": state["round"]})
                continue
            step = steps[index]
            if step.when is not None and not step.when(self._env()):
                state["step"] += 1
                continue
            if step.kind == "step":
                self.logic.steps[step.name](self)
                state["step"] += 1
                continue
            first = state["first_player"]
            order = [(first + i) % self.players for i in range(self.players)]
            state["turn"] = {"name": step.name, "order": order, "pos": 0, "used": {},
                             "grants": []}  # fmt: skip
            self._begin_turn()
            if self._turn_exhausted():
                self._end_turn()

    def _finish(self) -> None:
        self.state["phase"] = "over"
        self.state["turn"] = None
        self._legal = []
        if self.observed:
            self.emit({"type": "end", "result": self.result()})

    # ---- scoring ------------------------------------------------------------------------------
    def scores(self) -> list[dict[str, Any]]:
        """Each player's scoring categories and total, by the rule set's `scoring` block."""
        out = []
        for player in range(self.players):
            facts = self.logic.facts(self, player)
            categories = {name: fn(facts) for name, fn in self.plan.categories}
            tiebreaks = [fn(facts) for fn in self.plan.tiebreaks]
            out.append(
                {
                    "seat": player,
                    "total": sum(categories.values()),
                    "categories": categories,
                    "tiebreaks": tiebreaks,
                }
            )
        return out

    def score_of(self, player: int) -> int:
        """One player's total if the game were scored now."""
        facts = self.logic.facts(self, player)
        return sum(fn(facts) for _name, fn in self.plan.categories)

    def result(self) -> dict[str, Any]:
        """Scores and winners (the highest total, then the tie-breaks in order; still tied,
        the win is shared).

        A game in progress names no winners: `over` is false, `winners` is empty, and
        `leaders` says who would win were it scored now.
        """
        if self._result is not None and self.is_over():
            return self._result
        scores = self.scores()
        best = max((s["total"], s["tiebreaks"]) for s in scores)
        ahead = [s["seat"] for s in scores if (s["total"], s["tiebreaks"]) == best]
        over = self.is_over()
        result: dict[str, Any] = {
            "over": over,
            "rounds": self.state["round"],
            "winners": ahead if over else [],
            "players": [
                {"seat": s["seat"], "total": s["total"], "categories": s["categories"]}
                for s in scores
            ],
        }
        if not over:
            result["leaders"] = ahead
        else:
            report = self.logic.report(self)
            if report:
                result["report"] = report
            self._result = result
        return result

    # ---- copying and saving -------------------------------------------------------------------
    def clone(self, *, keep_log: bool = True) -> Game:
        """An independent copy (no events, no observers) for search: copying is cheap."""
        other = Game.__new__(Game)
        # The same position has the same legal actions (chance is drawn in steps, not in
        # listing them), and sharing the list lets the copy apply one of them unchecked.
        other._set_up(self.rules, self.logic, self.plan, self.players, self.seed,
                      copy_data(self.state), log=list(self.log) if keep_log else [],
                      sampling=self._sampling, legal=self._legal)  # fmt: skip
        return other

    def copier(self) -> Callable[[], Game]:
        """A maker of independent copies of this position, each as `clone(keep_log=False)`
        would make it (a search copies one position many times — every child of a node, or
        the root in every iteration). Copies reflect the position as it is now: edit or
        advance this game and the maker still makes the old position.

        What a copy shares instead of copying (the game itself is never written):
        - the parts of the mechanics' state the logic declares unchanging (`GameLogic.
          shared_state`, e.g. Castell's calendar): every copy holds the very same objects;
        - the parts it declares copy-on-write (`GameLogic.copy_on_write`): every copy holds
          the same snapshot of them, taken here (or this game's own shared value, when it
          is a copy that has not changed it), until it changes one through `own`;
        - scalars, which cannot change in place.
        The rest (the engine's turn, the mechanics' other containers) is serialised once,
        here, and read back by each copy. The keys keep their order."""
        state = self.state
        g = state["g"]
        logic = self.logic
        unchanging = logic.shared_state
        cow = logic.copy_on_write
        borrowed = self._borrowed or {}
        template: dict[str, Any] = {}  # every key of `g`, in order, shared values in place
        private: dict[str, Any] = {}  # copied for each copy
        snapshot: dict[str, Any] = {}  # this game's own copy-on-write values, copied once
        lent: list[str] = []  # the copy-on-write keys the copies borrow
        for key, value in g.items():
            if key in unchanging or type(value) not in (list, dict):
                template[key] = value
            elif key in cow:
                lent.append(key)
                if key not in borrowed:  # this game's own: copied into the snapshot below
                    template[key] = None
                    snapshot[key] = value
                    continue
                rows = borrowed[key]
                if rows is None:  # shared already, unchanged
                    template[key] = value
                else:  # its list and these items are this game's own, the rest shared
                    template[key] = [copy_data(v) if i in rows else v for i, v in enumerate(value)]
            else:
                template[key] = None
                private[key] = value
        try:
            blob = marshal.dumps({**state, "g": private}, FLAT)
            if snapshot:
                template.update(marshal.loads(marshal.dumps(snapshot, FLAT)))
        except ValueError:
            return lambda: self.clone(keep_log=False)
        loads = marshal.loads
        rules, logic, plan = self.rules, self.logic, self.plan
        players, seed = self.players, self.seed
        legal, sampling = self._legal, self._sampling
        new = Game.__new__
        set_up = Game._set_up
        fromkeys = dict.fromkeys
        top = loads(blob)
        turn = top["turn"]
        if private or any(
            type(value) in (list, dict) for key, value in top.items() if key not in ("g", "turn")
        ):

            def make() -> Game:  # the general case: the serialised part read back
                other = new(Game)
                state = loads(blob)
                state["g"] = {**template, **state["g"]}
                set_up(other, rules, logic, plan, players, seed, state, log=[],
                       sampling=sampling, legal=legal, borrowed=fromkeys(lent))  # fmt: skip
                return other

            return make

        # The engine's own keys are scalars but the turn, whose lists the engine never
        # changes in place but `used` and `grants` (`order` is made anew with each turn).
        if turn is not None:
            used, grants = turn["used"], turn["grants"]

        def make_flat() -> Game:  # the usual case: nothing serialised to read back
            other = new(Game)
            state = {**top, "g": {**template}}
            if turn is not None:
                state["turn"] = {**turn, "used": {**used}, "grants": grants[:]}
            set_up(other, rules, logic, plan, players, seed, state, log=[],
                   sampling=sampling, legal=legal, borrowed=fromkeys(lent))  # fmt: skip
            return other

        return make_flat

    def state_hash(self) -> str:
        return state_hash(self.state)
