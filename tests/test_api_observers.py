"""`new_game(..., observers=[...])`: observers hear every event in order, and cannot change
the game (a read-only game, their own copy of each event, their exceptions isolated)."""

from __future__ import annotations

import typing
import warnings

import pytest

from castell_dsl import make_bot, new_game
from castell_dsl.api.observers import (
    CORE_EVENTS,
    ActionEvent,
    EndEvent,
    ObservedGame,
    ObserverWarning,
    RoundEvent,
    StartEvent,
    TurnEvent,
)


def play_out(game, bot: str = "random") -> None:
    bots = [make_bot(bot, game.rules, seat, game.seed) for seat in range(game.players)]
    while not game.is_over():
        game.apply(bots[game.current_player].choose(game))


@pytest.mark.parametrize(("rules", "players"), [("castell", 2), ("calico", 2)])
def test_an_observer_hears_every_event_in_the_order_the_game_records_them(rules, players):
    """C-1.2/K-1.1: rounds in order, each turn's actions after the turn began, then the end."""
    heard: list[dict] = []
    seen_log: list[tuple[str, ...]] = []

    def observer(game, event):
        heard.append(dict(event))
        seen_log.append(game.log)

    game = new_game(rules, players, seed=8, observers=[observer])
    play_out(game)
    assert heard == game.events  # the same events, in the same order
    types = [event["type"] for event in heard]
    assert types[0] == "start" and types[-1] == "end" and types.count("end") == 1
    assert set(CORE_EVENTS) <= set(types)
    rounds = [event["round"] for event in heard if event["type"] == "round"]
    assert rounds == list(range(1, game.rounds + 1))
    actions = [event["action"] for event in heard if event["type"] == "action"]
    assert actions == game.log
    # an `action` event comes once the action is in the log; the turn it belongs to began
    # before it, by the same player
    current_turn = None
    for event, log in zip(heard, seen_log, strict=True):
        if event["type"] == "turn":
            current_turn = event["player"]
        if event["type"] == "action":
            assert log[-1] == event["action"]
            assert event["player"] == current_turn
    assert heard[-1]["result"] == game.result()
    # every core event has exactly the keys its documented TypedDict says
    shapes = {
        "start": StartEvent, "round": RoundEvent, "turn": TurnEvent,
        "action": ActionEvent, "end": EndEvent,
    }  # fmt: skip
    for event in heard:
        if event["type"] in shapes:
            assert set(event) == set(typing.get_type_hints(shapes[event["type"]])), event


def test_observers_cannot_change_the_game():
    """Whatever an observer does to what it is handed, the game is the game played alone."""

    def vandal(game, event):
        event["type"] = "forged"  # its own copy
        if "result" in event:
            event["result"]["winners"] = [99]
        game.view()["table"].clear()  # a copy
        game.result()["players"].clear()  # a copy
        assert not hasattr(game, "apply") and not hasattr(game, "state")
        with pytest.raises(AttributeError):
            game._game_state = {}  # slots: nothing can be attached either

    plain = new_game("castell", 3, seed=5)
    play_out(plain, "greedy")
    watched = new_game("castell", 3, seed=5, observers=[vandal])
    for text in plain.log:
        watched.apply(text)
    assert watched.state_hash() == plain.state_hash()
    assert watched.events == plain.events
    assert watched.result() == plain.result() and watched.result()["winners"] != [99]


def test_an_observer_that_fails_is_reported_and_the_game_goes_on():
    """An exception half-way through an action must not leave the action half-applied."""
    calls = {"n": 0}

    def clumsy(game, event):
        calls["n"] += 1
        if event["type"] == "action":
            raise RuntimeError("boom")

    heard: list[str] = []
    plain = new_game("calico", 2, seed=1)
    play_out(plain)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        game = new_game(
            "calico", 2, seed=1, observers=[clumsy, lambda g, e: heard.append(e["type"])]
        )
        for text in plain.log:
            game.apply(text)
    assert game.state_hash() == plain.state_hash()
    failures = [w for w in caught if issubclass(w.category, ObserverWarning)]
    assert len(failures) == len(plain.log)
    assert "clumsy" in str(failures[0].message) and "boom" in str(failures[0].message)
    assert heard == [e["type"] for e in plain.events]  # the next observer still hears all


def test_each_observer_gets_its_own_copy_and_the_observed_game_reads_the_real_one():
    first: list[dict] = []
    second: list[dict] = []

    def mutate(game, event):
        assert isinstance(game, ObservedGame)
        event.clear()
        first.append(event)

    def keep(game, event):
        second.append((event["type"], game.round, game.current_player, game.is_over()))

    game = new_game("castell", 2, seed=2, observers=[mutate, keep])
    game.apply(game.legal_actions()[0])
    assert all(e == {} for e in first)
    assert second[0] == ("start", 0, None, False)
    assert second[-1][0] in {"action", "turn", "deal", "refill", "wheel"}


def test_an_observed_game_narrates_events_as_the_front_ends_do():
    told: dict[str, list] = {}
    game = new_game(
        "castell", 2, seed=4, observers=[lambda g, e: told.setdefault(e["type"], g.narrate(e))]
    )
    play_out(game)
    assert told["festival"], "a game's own events are told in words"
    assert told["festival"] == game.logic.narrate(game, next(
        e for e in game.events if e["type"] == "festival"
    ))  # fmt: skip


def test_an_observer_must_be_callable():
    with pytest.raises(TypeError, match="observer"):
        new_game("castell", 2, observers=["print"])  # type: ignore[list-item]
