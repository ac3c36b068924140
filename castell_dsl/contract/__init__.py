"""The contract: every type a plugin implements or receives, in one place.

A game, a variant, a bot or a front-end is written against this package (and the rules
language's schema vocabulary it re-exports), never against the engine's or the runtime's
internals, so those are free to change. `castell_dsl.hookspecs` imports only from here.

- Actions: `Action`, `Rejection`, `ActionError`, `ActionSyntaxError`; `ActionHandler`, one
  action kind's parse, options, count, check and apply, and `handler_table` (`handlers.py`).
- Chance: `Rng`, `seed_state`.
- Games: `Mechanics` (what a game family gives the compiler and the engine), `GameLogic` (what
  its actions mean), `GameContext` (what a logic may read and write of a game), `Step`.
- Rule coverage: `Item` and its marks `OPEN`, `TAKEN`, `COMPLETED`; `ItemTable` and the
  `ItemsFromTable` mixin that answers a logic's coverage methods from one (`items.py`).
- Variants: `Variant`, `RulesEditor`, `VariantConflict`.
- Players: `Bot`, `BotFactory`, `PlayableGame`, `bot_seed`, `decision_rng`.
- Front-ends: `Frontend`, `PlaySession` (and `SessionWrapper`, to change a part of one),
  `ByWidth`, `Observer`, `UndoError`, `SaveFailed`, `SaveOutcome`, `HelpTopics`, `HUMAN`,
  `WebAssets`; the play commands every front-end offers, `COMMANDS` with `dispatch`,
  `Command`, `CommandResult`, `CommandError` (`commands.py`); the protocol's messages
  (`protocol.py`) and who won and why (`standings.py`).
- The rules language's vocabulary a game's schema and checks use: `Kind`, `Field`, the field
  types, `Record`, `RuleSet`, `Diagnostics`, `Span`, `did_you_mean`.
- `shipped_dir`: where a plugin's data folder (its rule files) is, installed or in a checkout.
- `short_repr`: a bounded, control-character-free repr for values from files or the network,
  for messages.
"""

from __future__ import annotations

from ..language.diagnostics import Diagnostics, RuleError, Span, did_you_mean
from ..language.expressions import ExpressionError
from ..language.ruleset import Record, RuleSet
from ..language.schema import (
    Boolean,
    ByPlayers,
    Field,
    Graph,
    Integer,
    IntRange,
    Kind,
    ListOf,
    MapOf,
    Multiset,
    OneOf,
    Ref,
    Struct,
    Symbol,
    Text,
)
from ..language.text import short_repr
from ..resources import shipped_dir
from .actions import Action, ActionError, ActionSyntaxError, Rejection
from .bots import Bot, BotFactory, PlayableGame, bot_seed, decision_rng
from .commands import (
    COMMANDS,
    Argument,
    Command,
    CommandError,
    CommandResult,
    Request,
    SessionWrapper,
    dispatch,
)
from .frontends import (
    HUMAN,
    ByWidth,
    Frontend,
    HelpTopics,
    Observer,
    PlaySession,
    SaveFailed,
    SaveOutcome,
    UndoError,
    WebAssets,
)
from .handlers import ActionHandler, handler_table
from .items import COMPLETED, OPEN, TAKEN, Item, ItemsFromTable, ItemTable
from .logic import GameContext, GameLogic, Step
from .mechanics import Mechanics
from .rng import Rng, seed_state
from .variants import RulesEditor, Variant, VariantConflict

__all__ = [
    "COMMANDS",
    "COMPLETED",
    "HUMAN",
    "OPEN",
    "TAKEN",
    "Action",
    "ActionError",
    "ActionHandler",
    "ActionSyntaxError",
    "Argument",
    "Boolean",
    "Bot",
    "BotFactory",
    "ByPlayers",
    "ByWidth",
    "Command",
    "CommandError",
    "CommandResult",
    "Diagnostics",
    "ExpressionError",
    "Field",
    "Frontend",
    "GameContext",
    "GameLogic",
    "Graph",
    "HelpTopics",
    "IntRange",
    "Integer",
    "Item",
    "ItemTable",
    "ItemsFromTable",
    "Kind",
    "ListOf",
    "MapOf",
    "Mechanics",
    "Multiset",
    "Observer",
    "OneOf",
    "PlaySession",
    "PlayableGame",
    "Record",
    "Ref",
    "Rejection",
    "Request",
    "Rng",
    "RuleError",
    "RuleSet",
    "RulesEditor",
    "SaveFailed",
    "SaveOutcome",
    "SessionWrapper",
    "Span",
    "Step",
    "Struct",
    "Symbol",
    "Text",
    "UndoError",
    "Variant",
    "VariantConflict",
    "WebAssets",
    "bot_seed",
    "decision_rng",
    "did_you_mean",
    "dispatch",
    "handler_table",
    "seed_state",
    "shipped_dir",
    "short_repr",
]
