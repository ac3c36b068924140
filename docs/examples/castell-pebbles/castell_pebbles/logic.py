"""What the Pebbles rules mean: dealing heaps, taking pebbles, and the facts scoring reads.

The engine runs the flow (the rounds, one `take` per player per round, chance, scoring); this
module says which takes are possible, why one is refused, and what it does (the `Take`
handler), and what the rest means (dealing, the facts scoring reads, views for people). State layout
(`state["g"]`, plain JSON data so a game saves and replays exactly):
    heaps[h]       pebbles in heap h (heaps are named A, B, C … in that order)
    pebbles[seat]  pebbles each player has taken
    emptied[seat]  heaps each player has emptied
"""

from __future__ import annotations

from typing import Any

from castell_dsl.contract import (
    Action,
    ActionHandler,
    ActionSyntaxError,
    GameContext,
    GameLogic,
    Record,
    Rejection,
    RuleSet,
    handler_table,
)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Points for emptying a heap, as the rule file's `heaps` category counts them (for bots).
EMPTY_BONUS = 3


class Take(ActionHandler):
    """The `take` action: how it is written, which takes there are, why one is refused, and
    what it does. The logic lists it in `handlers`; the engine asks it through the logic."""

    kind = "take"

    def parse(self, text: str) -> Action:
        words = text.upper().split()
        if len(words) != 2 or len(words[0]) != 1 or words[0] not in LETTERS:
            raise ActionSyntaxError("write take HEAP COUNT, e.g. take B 2")
        if not words[1].isdigit():
            raise ActionSyntaxError(f"'{words[1]}' is not a number of pebbles")
        heap, n = LETTERS.index(words[0]), int(words[1])
        return Action("take", (heap, n), f"take {words[0]} {n}")

    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        return [
            Action("take", (h, n), f"take {LETTERS[h]} {n}")
            for h, size in enumerate(game.state["g"]["heaps"])
            for n in range(1, min(spec.most, size) + 1)
        ]

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        heap, n = action.args
        heaps = game.state["g"]["heaps"]
        if not 0 <= heap < len(heaps):
            return Rejection("no-heap", f"there is no heap {LETTERS[heap]}")
        if not 1 <= n <= spec.most:
            return Rejection("too-many", f"take 1 to {spec.most} pebbles")
        if n > heaps[heap]:
            return Rejection("not-enough", f"heap {LETTERS[heap]} holds {heaps[heap]}")
        return None

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        heap, n = action.args
        g = game.state["g"]
        g["heaps"][heap] -= n
        g["pebbles"][player] += n
        if g["heaps"][heap] == 0:
            g["emptied"][player] += 1
            if game.observed:
                game.emit({"type": "emptied", "player": player, "heap": LETTERS[heap]})
        return None


class PebblesLogic(GameLogic):
    """A Pebbles rule set's numbers, read once; the state itself lives in the game."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        heaps = rules.one("heaps")
        self.count = heaps.count
        self.low, self.high = heaps.sizes
        # For bots and hints; the engine hands `options` and `check` the turn's own `spec`.
        self.most = max(
            turn.action["take"].most
            for turn in rules.named("turn").values()
            if "take" in turn.action
        )
        self.steps = {"restock": self.restock}
        self.handlers = handler_table(Take())

    def initial_state(self, game: GameContext) -> dict[str, Any]:
        n = game.players
        return {"heaps": [0] * self.count, "pebbles": [0] * n, "emptied": [0] * n}

    def restock(self, game: GameContext) -> None:
        """Deal every empty heap again, its size drawn with the game's seeded generator."""
        heaps = game.state["g"]["heaps"]
        dealt = {}
        for h, size in enumerate(heaps):
            if size == 0:
                heaps[h] = self.low + game.rng.below(self.high - self.low + 1)
                dealt[LETTERS[h]] = heaps[h]
        if dealt and game.observed:
            game.emit({"type": "restock", "heaps": dealt})

    def facts(self, game: GameContext, player: int) -> dict[str, Any]:
        g = game.state["g"]
        return {"pebbles": g["pebbles"][player], "emptied": g["emptied"][player]}

    # ---- bots and people ------------------------------------------------------------------
    def heuristic(self, game: GameContext, player: int) -> float:
        """The score, less the best heap the next player could empty: so the greedy bot does
        not hand over a heap it could have kept out of reach."""
        value = float(game.score_of(player))
        if game.current_player not in (None, player):
            reach = [s + EMPTY_BONUS for s in game.state["g"]["heaps"] if 0 < s <= self.most]
            value -= max(reach, default=0)
        return value

    def hints(self, game: GameContext, player: int) -> list[str]:
        """Heaps to empty now; otherwise takes that leave no heap within the next reach."""
        heaps = game.state["g"]["heaps"]
        out = [
            f"take {LETTERS[h]} {s} empties heap {LETTERS[h]}: {s + EMPTY_BONUS} points"
            for h, s in enumerate(heaps)
            if 0 < s <= self.most
        ]
        if out:
            return out
        safe = [
            f"take {LETTERS[h]} {n}"
            for h, s in enumerate(heaps)
            for n in range(1, min(self.most, s) + 1)
            if s - n > self.most
        ]
        if safe:
            return ["these leave no heap the next player can empty: " + ", ".join(safe)]
        return ["every take leaves a heap within the next player's reach"]

    def notation(self) -> list[str]:
        return [f"take A 2      two pebbles from heap A (1 to {self.most})"]

    def view(self, game: GameContext) -> dict[str, Any]:
        g = game.state["g"]
        return {
            "heaps": {LETTERS[h]: s for h, s in enumerate(g["heaps"])},
            "pebbles": list(g["pebbles"]),
            "emptied": list(g["emptied"]),
        }

    def render(self, game: GameContext, viewer: int | None) -> list[Any]:
        g = game.state["g"]
        lines = [f"heap {LETTERS[h]}  {'o' * s:<20} {s}" for h, s in enumerate(g["heaps"])]
        lines += [
            f"seat {p}: {g['pebbles'][p]} pebbles, {g['emptied'][p]} heaps emptied"
            for p in range(game.players)
        ]
        return ["\n".join(lines)]

    def narrate(self, game: GameContext, event: dict[str, Any]) -> list[Any]:
        if event["type"] == "emptied":
            return [f"seat {event['player']} empties heap {event['heap']}"]
        if event["type"] == "restock":
            dealt = ", ".join(f"{h} {n}" for h, n in event["heaps"].items())
            return [f"heaps dealt: {dealt}"]
        return []
