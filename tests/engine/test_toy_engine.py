"""The generic engine on a toy mechanics defined here, with no plugin installed.

The toy is a bag game: counters with values are drawn from a bag into a hand and banked; a
bank worth at least `bonus_at` grants a free draw. Its rule file (written to a temporary
folder) uses every flow feature the engine knows: `start` steps and turns, `round` steps with
`when` conditions, turn kinds with limits, required actions, `after` prerequisites for an
ordinary and for an ending action, a granted action, chance, and `scoring` with categories and
tie-breaks. The rule file is compiled with `castell_dsl.language` directly and run with
`castell_dsl.engine.game.Game`, so what these tests prove is the engine's own behaviour, not
that of a game plugin.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from castell_dsl.contract import (
    Action,
    ActionError,
    ActionSyntaxError,
    Field,
    GameContext,
    GameLogic,
    Integer,
    Kind,
    ListOf,
    Mechanics,
    Record,
    Rejection,
    Rng,
    RuleSet,
    Struct,
)
from castell_dsl.engine.game import Game
from castell_dsl.language.compiler import compile_rules
from castell_dsl.language.diagnostics import Diagnostics
from castell_dsl.language.loader import Loader, RulePath

# ---- the toy mechanics -------------------------------------------------------------------------


class ToyLogic(GameLogic):
    """Counters in a bag (a list of values), each player's hand and bank (`state["g"]`)."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        bag = rules.one("bag")
        self.counters = list(bag.counters)
        self.bonus_at = bag.bonus_at
        self.refill = bag.refill
        self.steps = {"fill": self.fill, "refill": self.refill_bag}

    def initial_state(self, game: GameContext) -> dict[str, Any]:
        n = game.players
        return {"bag": [], "hands": [[] for _ in range(n)], "banks": [0] * n, "free": [0] * n}

    def fill(self, game: GameContext) -> None:
        game.state["g"]["bag"] = list(self.counters)

    def refill_bag(self, game: GameContext) -> None:
        game.state["g"]["bag"] += [1] * self.refill
        game.emit({"type": "refilled", "round": game.round})

    def _available(self, game: GameContext, player: int, kind: str) -> bool:
        g = game.state["g"]
        return bool(g["bag"]) if kind == "draw" else bool(g["hands"][player])

    def options(self, game: GameContext, player: int, kind: str, spec: Record) -> list[Action]:
        return [Action(kind, (), kind)] if self._available(game, player, kind) else []

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        if self._available(game, player, action.kind):
            return None
        if action.kind == "draw":
            return Rejection("empty-bag", "the bag is empty")
        return Rejection("empty-hand", "you hold no counters")

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        g = game.state["g"]
        if action.kind == "draw":
            value = g["bag"].pop(game.rng.below(len(g["bag"])))
            g["hands"][player].append(value)
            if game.granted:
                g["free"][player] += 1
            if game.observed:
                game.emit({"type": "drew", "player": player, "value": value})
            return None
        worth = sum(g["hands"][player])
        g["banks"][player] += worth
        g["hands"][player] = []
        return "draw" if worth >= self.bonus_at and g["bag"] else None

    def parse(self, kind: str, text: str) -> Action:
        if text.strip():
            raise ActionSyntaxError(f"'{kind}' takes nothing after it")
        return Action(kind, (), kind)

    def facts(self, game: GameContext, player: int) -> dict[str, Any]:
        g = game.state["g"]
        return {"banked": g["banks"][player], "held": sum(g["hands"][player]),
                "free_draws": g["free"][player]}  # fmt: skip


@dataclass
class ToyMechanics(Mechanics):
    """`game { mechanics toy }`: one kind (`bag`), three facts, two steps, three actions."""

    name: str = "toy"
    description: str = "a bag of counters, drawn and banked"
    kinds: Any = field(
        default_factory=lambda: {
            "bag": Kind(
                "bag",
                Struct(
                    "bag",
                    {
                        "counters": Field(ListOf(Integer(1, 9), min_len=1)),
                        "bonus_at": Field(Integer(min=1)),
                        "refill": Field(Integer(min=0)),
                    },
                ),
                "bag",
                required=True,
            )
        }
    )
    facts: Any = field(
        default_factory=lambda: {"banked": "int", "held": "int", "free_draws": "int"}
    )
    steps: tuple[str, ...] = ("fill", "refill")
    actions: Any = field(default_factory=lambda: {"draw": {}, "bank": {}, "end": {}})

    def build(self, rules: RuleSet) -> GameLogic:
        return ToyLogic(rules)


TOY = ToyMechanics()

RULES = """\
game toy {
  title "Toy bag"
  players 1..4
  rounds 4
  mechanics toy
  first_player random
}

bag { counters [1, 1, 2, 2, 3, 3, 4, 5, 6, 7]  bonus_at 6  refill 2 }

start {
  step fill
  turns opening
}

round {
  step refill when round in [2, 4]
  turns main
  turns last when round == rounds
}

turn opening {
  action draw { limit 1  required true }
}

turn main {
  action draw { limit 2  required true }
  action bank { limit 1  after [draw] }
  action end  { ends_turn true  after [draw] }
}

turn last {
  action draw { limit 1 }
  action bank { required true  after [draw] }
  action end  { ends_turn true }
}

scoring {
  category banked = banked
  category free = free_draws * 2
  tiebreak = free_draws
  tiebreak = 0 - held
}
"""


def compile_toy(folder: Path, text: str = RULES) -> RuleSet:
    """Compile a toy rule file the way `runtime.loading.load_report` does, but with the toy's
    own mechanics lookup instead of the plugins'."""
    path = folder / "toy.castell"
    path.write_text(text)
    diags = Diagnostics()
    defs = Loader(RulePath([folder]), diags).load(path)
    rules = compile_rules(defs, diags, {"toy": TOY}.get, ["toy"])
    assert rules is not None and not diags.has_errors, [str(d) for d in diags.sorted()]
    return rules


@pytest.fixture(scope="module")
def rules(tmp_path_factory) -> RuleSet:
    return compile_toy(tmp_path_factory.mktemp("toy"))


@pytest.fixture(scope="module")
def logic(rules) -> ToyLogic:
    return TOY.build(rules)


def new_game(rules: RuleSet, logic: GameLogic, players: int = 2, seed: int = 1, **kw) -> Game:
    return Game(rules, logic, players, seed, **kw)


def play_random(game: Game, seed: int, stop: int | None = None) -> Game:
    """Play uniformly random legal actions (seeded) until the game ends, or `stop` actions."""
    chooser = Rng({"rng": seed})
    while not game.is_over() and (stop is None or len(game.log) < stop):
        actions = game.legal_actions()
        game.apply(actions[chooser.below(len(actions))])
    return game


def to_main_turn(rules: RuleSet, logic: GameLogic, seed: int = 1) -> Game:
    """A game at the start of the first `main` turn, with a known bag and empty hands."""
    game = new_game(rules, logic, seed=seed)
    assert game.state["turn"]["name"] == "opening"
    while game.state["turn"]["name"] == "opening":
        game.apply("draw")
    assert game.state["turn"]["name"] == "main" and game.round == 1
    g = game.state["g"]
    g["hands"] = [[], []]
    g["bag"] = [3, 3, 3, 3, 3]
    game.invalidate()
    return game


def codes(game: Game, *texts: str) -> list[str | None]:
    out = []
    for text in texts:
        rejection = game.explain(text)
        out.append(None if rejection is None else rejection.code)
    return out


def kinds(game: Game) -> list[str]:
    return [a.text for a in game.legal_actions()]


# ---- limits, required actions, prerequisites ---------------------------------------------------


def test_a_per_turn_limit_refuses_the_action_once_used_up(rules, logic):
    """`limit 2`: a third draw in one turn is `limit-reached`, and it is no longer listed."""
    game = to_main_turn(rules, logic)
    game.apply("draw")
    game.apply("draw")
    assert codes(game, "draw") == ["limit-reached"]
    assert "draw" not in kinds(game)
    with pytest.raises(ActionError) as raised:
        game.apply("draw")
    assert raised.value.code == "limit-reached"


def test_a_turn_without_an_ending_action_ends_when_nothing_is_left(rules, logic):
    """`turn opening` has one required draw and no `end`: each player's turn ends by itself,
    then the round's flow runs (round 1, `main`)."""
    game = new_game(rules, logic, players=3, seed=4)
    starts = []
    for _ in range(3):
        assert game.state["turn"]["name"] == "opening" and game.legal_actions()[0].text == "draw"
        starts.append(game.current_player)
        game.apply("draw")
    assert sorted(starts) == [0, 1, 2]
    assert game.state["turn"]["name"] == "main" and game.round == 1
    assert [len(h) for h in game.state["g"]["hands"]] == [1, 1, 1]


def test_the_ending_action_waits_for_a_required_action_that_has_options(rules, logic):
    """`turn last`: bank is required (after draw). Once a draw has made banking possible, `end`
    is refused (`required-action`) and not listed; after banking it is both."""
    game = to_main_turn(rules, logic)
    while game.state["turn"]["name"] != "last":
        game.apply(game.legal_actions()[0])
    game.state["g"]["bag"] = [2, 2]
    game.state["g"]["hands"][game.current_player] = []
    game.invalidate()
    assert codes(game, "end", "bank") == [None, "too-early"]
    game.apply("draw")
    assert codes(game, "end") == ["required-action"]
    assert kinds(game) == ["bank"]
    game.apply("bank")
    assert codes(game, "end") == [None] and kinds(game) == ["end"]


def test_after_refuses_an_ordinary_and_an_ending_action_too_early(rules, logic):
    """`bank` and `end` both come `after [draw]`: before a draw they are `too-early` (even
    though the player holds counters, so bank's own check would pass) and are not listed."""
    game = to_main_turn(rules, logic)
    game.state["g"]["hands"][game.current_player] = [4]
    game.invalidate()
    assert codes(game, "bank", "end", "draw") == ["too-early", "too-early", None]
    assert kinds(game) == ["draw"]
    game.apply("draw")
    assert codes(game, "bank", "end") == [None, None]
    assert kinds(game) == ["draw", "bank", "end"]


def test_ends_turn_and_actions_this_turn(rules, logic):
    """`ends_turn` is true only for the turn's ending action; `actions_this_turn` counts the
    actions taken, and starts again at 0 for the next player."""
    game = to_main_turn(rules, logic)
    end, draw = game.parse("end"), game.parse("draw")
    assert game.ends_turn(end) and not game.ends_turn(draw)
    assert game.actions_this_turn == 0
    game.apply(draw)
    game.apply("bank")
    assert game.actions_this_turn == 2
    player = game.current_player
    game.apply(end)
    assert game.current_player != player and game.actions_this_turn == 0


# ---- grants -------------------------------------------------------------------------------------


def test_a_granted_action_comes_first_and_does_not_use_the_limit(rules, logic):
    """Banking 6 or more grants a free draw: until it is taken every other action is
    `granted-action-pending` and only the draw is listed; taking it leaves draw's count (and
    `actions_this_turn`) as it was, so the turn's own draws are still available."""
    game = to_main_turn(rules, logic)
    player = game.current_player
    game.apply("draw")
    game.apply("draw")  # two 3s
    game.apply("bank")  # worth 6: a free draw
    assert game.view()["pending_grant"] == "draw"
    assert codes(game, "end", "bank") == ["granted-action-pending"] * 2
    assert kinds(game) == ["draw"]
    game.apply("draw")
    assert game.state["turn"]["used"] == {"draw": 2, "bank": 1}
    assert game.actions_this_turn == 3
    assert game.state["g"]["free"][player] == 1
    assert codes(game, "draw", "bank") == ["limit-reached", "limit-reached"]
    assert kinds(game) == ["end"]


def test_a_grant_on_the_first_draw_leaves_the_second_one(rules, logic):
    """A free draw taken after one ordinary draw: the turn may still draw once more, because
    the free one was not counted against `limit 2`."""
    game = to_main_turn(rules, logic)
    game.state["g"]["bag"] = [6]
    game.invalidate()
    game.apply("draw")
    game.state["g"]["bag"] = [1, 1, 1]
    game.invalidate()
    game.apply("bank")  # worth 6: a free draw
    game.apply("draw")
    assert game.state["turn"]["used"] == {"draw": 1, "bank": 1}
    assert kinds(game) == ["draw", "end"]


# ---- listing and checking agree ---------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_listing_and_checking_agree_on_every_position(rules, logic, players):
    """On every position of 40 seeded random games: every listed action is accepted by
    `explain`, every action text `explain` accepts is listed (the toy's options are complete,
    so the two must be the same set), and a game in progress always has a legal action (it
    can never get stuck waiting for a move nobody may make)."""
    for seed in range(40):
        game = new_game(rules, logic, players=players, seed=seed, record_events=False)
        chooser = Rng({"rng": seed})
        while not game.is_over():
            listed = kinds(game)
            assert listed, f"seed {seed}: stuck at {game.state}"
            for text in ("draw", "bank", "end"):
                rejection = game.explain(text)
                assert (rejection is None) == (text in listed), (seed, text, rejection, listed)
            game.apply(game.legal_actions()[chooser.below(len(listed))])
        assert game.legal_actions() == [] and codes(game, "draw") == ["game-over"]


# ---- sampling with candidates -------------------------------------------------------------------


class PaddedToy(ToyLogic):
    """The toy with candidates (`count_candidates`/`candidate`): each kind's one option sits
    between two candidates that are not actions, as a search-confirmed option would. A kind
    that must be taken is to be counted exactly, so asking one of its candidates fails."""

    def count_options(self, game: GameContext, player: int, kind: str, spec: Record) -> int:
        return len(self.options(game, player, kind, spec))

    def count_candidates(self, game: GameContext, player: int, kind: str, spec: Record) -> int:
        return 3

    def candidate(
        self, game: GameContext, player: int, kind: str, spec: Record, index: int
    ) -> Action | None:
        assert not (spec.required and not game.state["turn"]["used"].get(kind)), (
            "a required kind not taken yet is counted exactly"
        )
        options = self.options(game, player, kind, spec)
        return options[0] if index == 1 and options else None


class Script:
    """A stand-in generator answering chosen indices in turn (recording each bound); asked
    for one more, it raises `LookupError`."""

    def __init__(self, *indices: int) -> None:
        self.indices = list(indices)
        self.bounds: list[int] = []

    def below(self, n: int) -> int:
        self.bounds.append(n)
        if not self.indices:
            raise LookupError("drew again")
        return self.indices.pop(0)


def test_sampling_with_candidates_is_uniform_over_the_legal_actions(rules):
    """Rejection sampling over candidates is uniform over the legal actions exactly when the
    candidates that are actions are the listing, each once: checked index by index on every
    position of seeded games, required kinds (counted exactly) included. A real generator's
    draw is always legal."""
    logic = PaddedToy(rules)
    for seed in range(20):
        game = new_game(rules, logic, players=2, seed=seed, record_events=False)
        chooser = Rng({"rng": seed})
        while not game.is_over():
            legal = game.clone().legal_actions()
            probe = Script(0)
            with contextlib.suppress(LookupError):
                game.clone().sample_legal(probe)  # type: ignore[arg-type]
            found = []
            for index in range(probe.bounds[0]):
                # LookupError: that candidate is not an action, and the sampler drew again.
                with contextlib.suppress(LookupError):
                    found.append(game.clone().sample_legal(Script(index)))  # type: ignore[arg-type]
            assert found == legal
            drawn = game.sample_legal(chooser)
            assert drawn in legal
            game.apply(drawn)


def test_a_candidate_that_is_no_action_is_drawn_again(rules):
    """The draw lands on an empty candidate, then on an action: two draws, the action."""
    game = to_main_turn(rules, PaddedToy(rules))
    game.apply("draw")  # now draw (limit 2), bank and end are open; nothing is required
    script = Script(0, 4)  # draw's empty candidate 0, then bank's action (candidate 1 of 3..5)
    assert game.sample_legal(script).text == "bank"  # type: ignore[arg-type]
    assert script.bounds == [3 + 3 + 1, 3 + 3 + 1], "draw, bank and end: 3 + 3 + 1"


def test_when_no_candidate_is_an_action_the_draw_ends(rules):
    """A logic whose candidates are all empty (it breaks its contract) cannot loop forever:
    once every candidate is known empty the sampler raises `ValueError`."""

    class Empty(PaddedToy):
        def candidate(self, game, player, kind, spec, index):  # type: ignore[no-untyped-def]
            return None

    game = to_main_turn(rules, Empty(rules))
    with pytest.raises(ValueError, match="no candidate is an action"):
        game._draw(Rng({"rng": 5}), 0, [("bank", game.plan.by_kind["main"]["bank"].spec, 3,
                                         False)], [])  # fmt: skip


# ---- chance -------------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_game_and_another_seed_another(rules, logic):
    """Chance comes only from the seeded generator in the state: the same seed and the same
    choices give the same log and state; another game seed changes the draws."""
    one = play_random(new_game(rules, logic, players=3, seed=11), seed=5)
    two = play_random(new_game(rules, logic, players=3, seed=11), seed=5)
    assert one.log == two.log and one.state_hash() == two.state_hash()
    draws = [
        [e["value"] for e in play_random(new_game(rules, logic, seed=s), 5).events or []
         if e["type"] == "drew"]
        for s in range(6)
    ]  # fmt: skip
    assert len({tuple(d) for d in draws}) > 1


def test_reseed_changes_later_draws_only(rules, logic):
    """`reseed` keeps everything that happened and changes only what chance does next."""
    game = play_random(new_game(rules, logic, seed=3), seed=1, stop=4)
    game.state["g"]["bag"] = list(range(1, 10)) * 3
    game.invalidate()
    before = game.clone()
    other = game.clone()
    other.reseed(99)
    assert other.log == before.log
    assert {k: v for k, v in other.state.items() if k != "rng"} == {
        k: v for k, v in before.state.items() if k != "rng"
    }

    def next_draws(g: Game) -> list[int]:
        return [g.rng.below(1000) for _ in range(5)]

    same = game.clone()
    assert next_draws(same) == next_draws(before.clone())
    assert next_draws(other) != next_draws(before)


# ---- flow: rounds and conditions ----------------------------------------------------------------


def test_round_steps_and_turns_follow_their_when_conditions(rules, logic):
    """`step refill when round in [2, 4]` runs in rounds 2 and 4 only; `turns last when round
    == rounds` gives every player a `last` turn in the final round only, after `main`."""
    seen: list[tuple[int, str]] = []

    def observer(game: Game, event: dict) -> None:
        if event["type"] == "turn":
            seen.append((event["round"], game.state["turn"]["name"]))

    game = play_random(new_game(rules, logic, players=2, seed=8, observers=[observer]), 2)
    events = game.events or []
    assert [e["round"] for e in events if e["type"] == "refilled"] == [2, 4]
    assert [e["round"] for e in events if e["type"] == "round"] == [1, 2, 3, 4]
    assert seen[:2] == [(0, "opening"), (0, "opening")]
    assert [name for r, name in seen if r == 4] == ["main", "main", "last", "last"]
    assert all(name == "main" for r, name in seen if r in (1, 2, 3))
    assert game.result()["rounds"] == 4


def test_the_player_count_must_be_the_games(rules, logic):
    """`players 1..4`: a five-player game is refused when it is created."""
    with pytest.raises(ValueError, match="1 to 4 players"):
        new_game(rules, logic, players=5)


# ---- scoring ------------------------------------------------------------------------------------


def finished(rules: RuleSet, logic: GameLogic, banks: list[int], free: list[int],
             held: list[list[int]]) -> Game:  # fmt: skip
    """A finished game whose facts are set by hand, to score known positions."""
    game = play_random(new_game(rules, logic, players=len(banks), seed=2), seed=2)
    g = game.state["g"]
    g["banks"], g["free"], g["hands"] = banks, free, held
    game.invalidate()
    return game


def test_scoring_adds_the_categories(rules, logic):
    """Each category is evaluated over the player's facts; the total is their sum."""
    game = finished(rules, logic, [10, 7], [0, 2], [[], []])
    result = game.result()
    assert result["players"][0]["categories"] == {"banked": 10, "free": 0}
    assert result["players"][1]["categories"] == {"banked": 7, "free": 4}
    assert [p["total"] for p in result["players"]] == [10, 11]
    assert result["winners"] == [1] and result["over"]
    assert game.score_of(0) == 10


def test_tie_breaks_decide_in_order_and_a_full_tie_shares_the_win(rules, logic):
    """Equal totals: the first tie-break (free draws) decides; equal again, the second (fewer
    counters held); equal on everything, the win is shared."""
    first = finished(rules, logic, [8, 10, 4], [1, 0, 3], [[], [], []]).result()
    assert [p["total"] for p in first["players"]] == [10, 10, 10]
    assert first["winners"] == [2]
    second = finished(rules, logic, [8, 8], [1, 1], [[3], [1]]).result()
    assert second["winners"] == [1]
    shared = finished(rules, logic, [8, 8, 2], [1, 1, 0], [[2], [1, 1], []]).result()
    assert shared["winners"] == [0, 1]


# ---- replay, clone, events ----------------------------------------------------------------------


def test_replaying_the_log_reproduces_the_state(rules, logic):
    """A game is its seed plus its action log: applying the log's texts to a new game with the
    same seed reaches the same state hash and the same result, at the end and midway."""
    for seed in range(5):
        game = play_random(new_game(rules, logic, players=3, seed=seed), seed=seed + 100)
        replay = new_game(rules, logic, players=3, seed=seed)
        for i, text in enumerate(game.log):
            replay.apply(text)
            if i == len(game.log) // 2:
                half = play_random(new_game(rules, logic, 3, seed), seed + 100, stop=i + 1)
                assert half.state_hash() == replay.state_hash()
        assert replay.state_hash() == game.state_hash()
        assert replay.result() == game.result()


def test_a_clone_is_independent(rules, logic):
    """Playing on a clone (as search bots do) leaves the original untouched, and the clone
    records no events and tells no observers."""
    told: list[dict] = []
    game = play_random(
        new_game(rules, logic, seed=6, observers=[lambda g, e: told.append(e)]), 1, stop=5
    )
    state, log, events, heard = game.state_hash(), list(game.log), len(game.events or []), len(told)
    copy = game.clone()
    assert copy.state_hash() == state and copy.log == log
    play_random(copy, seed=3)
    assert copy.is_over() and not game.is_over()
    assert game.state_hash() == state and game.log == log
    assert len(game.events or []) == events and len(told) == heard
    assert copy.events is None and copy.observers == []
    assert game.clone(keep_log=False).log == []


def test_events_reach_observers_in_order(rules, logic):
    """Observers hear exactly the recorded events: the engine's start, round, turn, action and
    end, and the mechanics' own (drew, refilled), the end carrying the result."""
    told: list[dict] = []
    game = play_random(
        new_game(rules, logic, seed=9, observers=[lambda g, e: told.append(e)]), seed=4
    )
    assert told == game.events
    types = [e["type"] for e in told]
    assert types[0] == "start" and types[-1] == "end"
    assert {"round", "turn", "action", "drew", "refilled"} <= set(types)
    assert types.count("action") == len(game.log)
    assert told[-1]["result"] == game.result()
    assert told[0]["first_player"] == game.state["first_player"]


def test_unreadable_and_unknown_actions_are_explained(rules, logic):
    """Text the engine cannot read is refused with a code, never an exception from `explain`."""
    game = to_main_turn(rules, logic)
    assert codes(game, "", "jump", "draw 3", "end now") == [
        "empty", "unknown-action", "bad-syntax", "bad-syntax"
    ]  # fmt: skip
