"""Actions: what a player does, as an object and as short canonical text.

Every action has one text form (`move Girona`, `recruit 3 7`, `tower 6,6,6/5,5/4/3`, `end`),
used alike by humans at the prompt, logs, save files and tests. The mechanics parses and formats
the arguments; the engine only knows the first word, the action's kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Action:
    """An action of kind `kind` with mechanics-defined `args`, and its canonical `text`."""

    kind: str
    args: tuple[Any, ...]
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why an action is not allowed: a stable `code` for tools, a `message` for people."""

    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class ActionError(Exception):
    """Raised by `Game.apply` for an illegal action; the game state is unchanged."""

    def __init__(self, rejection: Rejection, action: str):
        self.rejection = rejection
        self.action = action
        super().__init__(f"{action}: {rejection.message} [{rejection.code}]")

    @property
    def code(self) -> str:
        return self.rejection.code


class ActionSyntaxError(Exception):
    """The mechanics could not read an action's text; the message says what was expected."""
