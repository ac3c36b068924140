"""The keyboard prompt on a terminal: line editing, history and completion (prompt_toolkit).

Used only when standard input is a terminal; piped input is read line by line by the app.
Completion offers the legal actions' texts and the commands, matching what has been typed
from the start of the line (`spe` → `special move Lleida`, `special recruit 4`, …).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document


class ActionCompleter(Completer):
    """Completes the whole line from `words()` (called afresh at each key: the legal actions
    change as the game goes on)."""

    def __init__(self, words: Callable[[], list[str]]) -> None:
        self.words = words

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        typed = document.text_before_cursor.lstrip()
        lowered = typed.lower()
        seen: set[str] = set()
        for word in self.words():
            if word.lower().startswith(lowered) and word not in seen:
                seen.add(word)
                yield Completion(word, start_position=-len(typed))


def make_prompt_session(words: Callable[[], list[str]]) -> Any:
    """A prompt_toolkit session with in-memory history and action completion."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory

    return PromptSession(
        history=InMemoryHistory(),
        completer=ActionCompleter(words),
        complete_while_typing=False,  # Tab completes; typing stays plain and fast
    )
