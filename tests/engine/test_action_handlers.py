"""Every game declares one handler per action kind and writes no dispatch of its own.

The contract's `ActionHandler` answers the engine's five questions about one kind (parse,
options, count, check, apply) and `GameLogic` routes each question to the handler of its kind
(`castell_dsl/contract/handlers.py`). So: each action kind a game's mechanics declares has
exactly one handler, no game's logic overrides the routing, and no game module compares an
action's kind against a list of kinds (a parallel dispatch chain, the thing handlers replace).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import castell_game
import pytest

from castell_dsl.contract import (
    Action,
    ActionHandler,
    GameContext,
    GameLogic,
    Record,
    Rejection,
    handler_table,
)
from castell_dsl.engine.plan import plan_for
from castell_dsl.runtime.games import logic_for
from castell_dsl.runtime.loading import find_mechanics, load_rules

PLUGINS = Path(castell_game.__file__).resolve().parent.parent
#: Each game package and the rule set its tests load.
GAMES = {"castell_game": "castell", "calico_game": "calico"}
#: The questions `GameLogic` routes to handlers: a game that overrides one writes a dispatch.
ROUTED = (
    "parse",
    "options",
    "count_options",
    "nth_option",
    "count_candidates",
    "candidate",
    "check",
    "apply",
)


@pytest.mark.parametrize("rules_name", sorted(GAMES.values()))
def test_every_action_kind_has_exactly_one_handler(rules_name: str) -> None:
    """C-4, K-3: each kind the mechanics declares (the turn-ending `end` aside: the engine
    takes it itself) has one handler, made for that kind, answering all five questions."""
    rules = load_rules(rules_name)
    mechanics = find_mechanics(rules.mechanics)
    assert mechanics is not None
    enders = {a.kind for plans in plan_for(rules).turns.values() for a in plans if a.ender}
    logic = logic_for(rules)
    assert set(logic.handlers) == set(mechanics.actions) - enders
    for kind, handler in logic.handlers.items():
        assert isinstance(handler, ActionHandler) and handler.kind == kind
        assert not getattr(handler, "__abstractmethods__", None)
    assert [
        name for name in ROUTED if getattr(type(logic), name) is not getattr(GameLogic, name)
    ] == []


def _kind_tests(function: ast.AST, kinds: set[str]) -> set[str]:
    """The action kinds (of `kinds`) a function compares an action's kind, or its special
    option, with."""
    found: set[str] = set()
    for node in ast.walk(function):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        names = {n.id if isinstance(n, ast.Name) else n.attr for n in sides
                 if isinstance(n, ast.Name | ast.Attribute)}  # fmt: skip
        if names & {"kind", "option", "kinds"}:
            found.update(
                side.value
                for side in sides
                if isinstance(side, ast.Constant) and side.value in kinds
            )
    return found


def _chains(source: str, kinds: set[str]) -> set[str]:
    """The functions that tell two or more action kinds apart."""
    return {
        node.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and len(_kind_tests(node, kinds)) > 1
    }


def test_the_chain_finder_finds_a_dispatch_chain() -> None:
    kinds = {"place", "take"}
    chain = (
        "def apply(self, action):\n"
        "    if action.kind == 'place':\n        return 1\n"
        "    elif action.kind == 'take':\n        return 2\n"
    )
    assert _chains(chain, kinds) == {"apply"}
    one = "def hints(legal):\n    return [a for a in legal if a.kind == 'place']\n"
    assert _chains(one, kinds) == set()
    other = "def narrate(kind):\n    return kind == 'festival' or kind == 'shape'\n"
    assert _chains(other, kinds) == set()  # not action kinds


#: Functions that tell action kinds apart for something other than the engine's questions,
#: and why each is not a dispatch the handlers should own.
NOT_DISPATCH = {
    # A hint's explanation in words, per kind of the move proposed: presentation, one chain.
    ("castell_game", "render.py", "_reason"),
    # Rule coverage (`GameLogic.action_items`): which wheel tile or special option an
    # action takes; the other kinds take no item.
    ("castell_game", "items.py", "taken_by"),
    # Splits the legal actions into placements and takes, to rank each list for the hints.
    ("calico_game", "hints.py", "suggestions"),
}


@pytest.mark.parametrize("package", sorted(GAMES))
def test_no_game_module_dispatches_on_the_kind(package: str) -> None:
    """No function of a game package tells action kinds apart to answer the engine's
    questions: that is the handlers' table. The few that tell them apart for words or
    coverage are listed (`NOT_DISPATCH`), so a new chain cannot come in unseen."""
    mechanics = find_mechanics(load_rules(GAMES[package]).mechanics)
    assert mechanics is not None
    kinds = set(mechanics.actions) | {"recruit", "move", "perform"}  # the special's options
    found = {
        (package, path.name, name)
        for path in sorted((PLUGINS / package).glob("*.py"))
        for name in _chains(path.read_text(encoding="utf-8"), kinds)
    }
    assert found == {entry for entry in NOT_DISPATCH if entry[0] == package}


class _Counted(ActionHandler):
    kind = "x"

    def parse(self, text: str) -> Action:
        return Action("x", (), "x")

    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        return []

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        return None

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> Any:
        return None


def test_two_handlers_for_one_kind_are_refused() -> None:
    with pytest.raises(ValueError, match="two handlers for the action kind 'x'"):
        handler_table(_Counted(), _Counted())
    assert list(handler_table(_Counted())) == ["x"]


@pytest.mark.parametrize(
    ("rules_name", "text", "message"),
    [
        # C-4.4: Castell's notation helper raises a ValueError (NotationError): the kind leads.
        ("castell", "recruit three", "recruit: expected"),
        # C-5: likewise for a tower's levels.
        ("castell", "tower 5,5/", "tower: "),
        # C-4.3: a handler's own ActionSyntaxError reads as it is written.
        ("castell", "move Atlantis", "'Atlantis' is not a region"),
        # K-3.2: Calico's handlers raise ActionSyntaxError.
        ("calico", "place pink 2,2", "'pink' is not a patch"),
    ],
)
def test_a_games_parse_errors_reach_callers_as_one_exception(
    rules_name: str, text: str, message: str
) -> None:
    """`Game.parse` is the one place a game's parse errors become `ActionError` (code
    `bad-syntax`), whichever of the two ways the game's handler complained."""
    from castell_dsl.contract import ActionError
    from castell_dsl.runtime.games import start_game

    game = start_game(load_rules(rules_name), 2, 1, record_events=False)
    with pytest.raises(ActionError) as caught:
        game.parse(text)
    assert caught.value.code == "bad-syntax"
    assert caught.value.rejection.message.startswith(message), caught.value.rejection.message
