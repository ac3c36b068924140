"""castell-quick: a third-party Castell DSL plugin adding the "quick" variant (six rounds).

Installed with `pip install castell-quick`, it is found through the `castell_dsl` entry-point
group; `castell simulate --variant quick` and `castell play --variant quick` then use it.
"""

from castell_dsl import hookimpl
from castell_dsl.contract import Variant


def six_rounds(editor, options):
    """Play six rounds: the game ends after round 6, and festivals after it are dropped."""
    rules = editor.rules
    rounds = 6
    editor.replace("game", rules.game.replace(rounds=rounds))
    calendar = rules.one("calendar")
    spaces = tuple(space for space in calendar.space if space.value.round <= rounds)
    editor.replace("calendar", calendar.replace(space=spaces))


@hookimpl
def register_variants():
    return [
        Variant(
            "quick",
            "Castell in six rounds, for a lunch break",
            applies_to=("castell",),
            adjust=six_rounds,
        )
    ]
