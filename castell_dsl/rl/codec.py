"""Action codecs: a fixed number of integer ids for a rule set's actions, and back.

An RL agent picks an integer; the engine takes an `Action`. A codec maps between the two for
one rule set and player count. Legality is never re-implemented: `assign(legal)` gives an id to
each action the engine lists in `legal_actions()` now, and the mask is exactly those ids.

**The protocol** (`ActionCodec`): `size` ids, `assign(legal) -> {id: Action}` and `label(id)`.
A game may ship its own codec: an entry point in the group `castell_dsl.rl_codecs` named after
its mechanics (`game { mechanics NAME }`), whose value is a callable
`(rules, players, exploration) -> ActionCodec`. Without one, `TextCodec` is used: it is generic
and serves Castell, Calico and Pebbles alike.

**The generic codec** (`TextCodec`) assigns ids by canonical text over a vocabulary that the
exploration (`explore.py`) enumerates from the rule set:

1. Each listed text belongs to a *family*: the text with every run of digits (and the commas and
   slashes between them) replaced by `#` — `recruit # #`, `tower #`, `special perform LP# tower
   #`, `place pink/vines #`, `take A #`. A family is *closed* when it has no `#` (a combination
   of the rule set's names: `move Girona`, `goals a b c`) or when no text of it was first seen
   in the second half of the exploration (it stopped growing: `recruit # #` stops at 65 texts,
   `place pink/vines #` at 22). Otherwise it is *open* (`tower #` keeps growing: towers are
   open-ended).
2. The **vocabulary** is every text of a closed family, per kind in the rule set's turn order,
   in natural order within a kind: ids `0 … V-1`, each a fixed text in every state.
3. Each kind then gets `2·S + 2` **slots**, where S is the most out-of-vocabulary actions of
   that kind the engine listed at once in the exploration. In a state, the out-of-vocabulary
   legal actions of a kind take that kind's slots in the engine's listing order: slot `k` of
   `tower` is "the k-th tower the engine offers now" (Castell lists the solver's best tower per
   festival in the calendar's order, so slot 0 is the first festival's tower). This is the
   sequential/candidate part of the design: open-ended choices become a bounded, ordered set of
   candidates the engine itself proposes.

Why ids never collide (in any state): vocabulary ids are distinct because the map text → id is
a dictionary built from distinct texts and an action's canonical text identifies it; within a
state, equal texts are one action (listed twice, it is assigned once); slot ids of a kind are
`base + rank` for distinct ranks of distinct actions; the vocabulary range and each kind's slot
range are disjoint intervals. So `assign` is injective, and `decode(encode(a)) == a` for every
legal `a`. What cannot be proved for open-ended games is that a state never lists more than
`2·S + 2` out-of-vocabulary actions of one kind: then `assign` raises `CodecOverflow` (or, with
`overflow="drop"`, leaves the extra ones out and counts them in `dropped`). The test suite
checks it on 200 fresh random games of every shipped rule set.

Ids are fixed by (rule set hash, players, exploration budget, `explore.VERSION`): the same
inputs give the same vocabulary on every machine. `to_json`/`from_json` pin a vocabulary for a
trained policy.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

from ..contract import Action
from ..language.ruleset import RuleSet
from .explore import Exploration

ENTRY_POINT_GROUP = "castell_dsl.rl_codecs"

_DIGITS = re.compile(r"\d[\d,/]*")
_NATURAL = re.compile(r"(\d+)")


class CodecOverflow(RuntimeError):
    """A state lists more out-of-vocabulary actions of one kind than the codec has slots."""


@runtime_checkable
class ActionCodec(Protocol):
    """Integer ids for one rule set's actions (see the module docstring)."""

    #: The number of distinct ids, `0 … size-1`.
    size: int

    def assign(self, legal: Sequence[Action]) -> dict[int, Action]:
        """An id for each of `legal` (the engine's listing now), distinct texts distinct ids."""
        ...

    def label(self, index: int) -> str:
        """What id `index` means: its canonical text, or its slot (`<tower slot 0>`)."""
        ...


def family(text: str) -> str:
    """`recruit 3 7` -> `recruit # #`; `special perform LP07 tower 5,5/4` -> `… LP# tower #`."""
    return _DIGITS.sub("#", text)


def _natural(text: str) -> list[Any]:
    return [int(part) if part.isdigit() else part for part in _NATURAL.split(text)]


class TextCodec:
    """The generic codec: a vocabulary of texts, then overflow slots per kind."""

    def __init__(
        self,
        vocabulary: Sequence[str],
        slots: Sequence[tuple[str, int]],
        *,
        overflow: str = "raise",
    ):
        if overflow not in ("raise", "drop"):
            raise ValueError("overflow is 'raise' or 'drop'")
        self.vocabulary: tuple[str, ...] = tuple(vocabulary)
        self.ids: dict[str, int] = {text: i for i, text in enumerate(self.vocabulary)}
        if len(self.ids) != len(self.vocabulary):
            raise ValueError("a codec's vocabulary lists a text twice")
        self.slots: tuple[tuple[str, int], ...] = tuple(slots)
        self.slot_base: dict[str, int] = {}
        self.slot_count: dict[str, int] = {}
        base = len(self.vocabulary)
        for kind, count in self.slots:
            self.slot_base[kind] = base
            self.slot_count[kind] = count
            base += count
        self.size = base
        self.overflow = overflow
        #: Legal actions left out so far (only with `overflow="drop"`).
        self.dropped = 0

    @classmethod
    def from_exploration(cls, exploration: Exploration, *, overflow: str = "raise") -> TextCodec:
        """The vocabulary and slots of the module docstring, from an exploration."""
        half = exploration.budget // 2
        vocabulary: list[str] = []
        slots: list[tuple[str, int]] = []
        for kind in exploration.kinds:
            seen = exploration.first_seen.get(kind, {})
            late = {family(t) for t, game in seen.items() if game >= half}
            closed = [t for t in seen if "#" not in family(t) or family(t) not in late]
            closed_set = set(closed)
            vocabulary.extend(sorted(closed, key=_natural))
            texts = list(seen)
            most = max(
                (
                    sum(1 for n in listed if texts[n] not in closed_set)
                    for listed in exploration.together.get(kind, [])
                ),
                default=0,
            )
            slots.append((kind, 2 * most + 2))
        return cls(vocabulary, slots, overflow=overflow)

    def assign(self, legal: Sequence[Action]) -> dict[int, Action]:
        out: dict[int, Action] = {}
        seen: set[str] = set()
        used: dict[str, int] = {}
        ids = self.ids
        for action in legal:
            text = action.text
            if text in seen:
                continue
            seen.add(text)
            index = ids.get(text)
            if index is None:
                kind = action.kind
                rank = used.get(kind, 0)
                if rank >= self.slot_count.get(kind, 0):
                    if self.overflow == "drop":
                        self.dropped += 1
                        continue
                    raise CodecOverflow(
                        f"more than {self.slot_count.get(kind, 0)} '{kind}' actions outside the "
                        f"vocabulary are legal now (at {text!r}); explore with a larger budget"
                    )
                used[kind] = rank + 1
                index = self.slot_base[kind] + rank
            out[index] = action
        return out

    def label(self, index: int) -> str:
        if 0 <= index < len(self.vocabulary):
            return self.vocabulary[index]
        for kind, count in self.slots:
            base = self.slot_base[kind]
            if base <= index < base + count:
                return f"<{kind} slot {index - base}>"
        raise IndexError(f"no action id {index} (ids are 0 to {self.size - 1})")

    def to_json(self) -> dict[str, Any]:
        return {"vocabulary": list(self.vocabulary), "slots": [list(s) for s in self.slots]}

    @classmethod
    def from_json(cls, data: dict[str, Any], *, overflow: str = "raise") -> TextCodec:
        return cls(data["vocabulary"], [(k, n) for k, n in data["slots"]], overflow=overflow)


def action_id(value: Any) -> int:
    """An action id given by an agent, as an int: a Python or NumPy integer (or a 0-d integer
    array, a tensor holding one). Anything else is refused with a TypeError, never truncated:
    `int(3.7)` would play action 3 for a policy that meant something else. Booleans are
    refused too (`True` is not an id)."""
    import operator

    if isinstance(value, bool) or type(value).__name__ == "bool_":
        raise TypeError(f"an action id is an integer, not a boolean ({value!r})")
    try:
        return operator.index(value)
    except TypeError:
        shown = repr(value)[:40]
        raise TypeError(
            f"an action id is an integer, not {type(value).__name__} ({shown}): round or "
            "argmax your policy's output, and take ids whose action_mask entry is 1"
        ) from None


def encode(codec: ActionCodec, action: Action | str, legal: Sequence[Action]) -> int:
    """The id of `action` (an `Action` or its text) among the legal actions `legal`."""
    text = action if isinstance(action, str) else action.text
    for index, candidate in codec.assign(legal).items():
        if candidate.text == text:
            return index
    raise ValueError(f"{text!r} is not among the legal actions")


def decode(codec: ActionCodec, index: int, legal: Sequence[Action]) -> Action:
    """The legal action whose id is `index` now; `ValueError` if the id is masked out."""
    action = codec.assign(legal).get(action_id(index))
    if action is None:
        raise ValueError(f"action id {index} ({codec.label(index)}) is not legal now")
    return action


CodecFactory = Callable[[RuleSet, int, Exploration], ActionCodec]


def codec_for(rules: RuleSet, players: int, exploration: Exploration) -> ActionCodec:
    """The game's own codec (entry point `castell_dsl.rl_codecs` named after its mechanics), or
    the generic `TextCodec`."""
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name == rules.mechanics:
            factory: CodecFactory = point.load()
            return factory(rules, players, exploration)
    return TextCodec.from_exploration(exploration)
