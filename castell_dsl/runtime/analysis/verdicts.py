"""Each section's verdict in plain words, from the JSON sections, by documented thresholds.

The thresholds are named constants here and listed in docs/analysis.md; a verdict never rests
on a point estimate alone where an interval exists: a seat is "favoured" only when its 95%
interval excludes the fair rate, and by at least `BALANCE_MARGIN`.
"""

from __future__ import annotations

from typing import Any

#: An en dash between an interval's ends, a minus sign between two rule sets' labels.
DASH = "\u2013"
MINUS = "\u2212"

#: A seat or turn position is flagged when its win rate's 95% interval excludes the fair rate
#: (1 / players) and it differs from it by at least this much.
BALANCE_MARGIN = 0.03
#: Shared wins or tie-break decisions in at least this share of games are worth a warning.
DRAWISH = 0.10
#: "Decided by round k": the first round after which the leader wins at least this share.
DECIDED = 0.80
#: A game decided by a round no later than this fraction of its rounds is "decided early".
EARLY = 0.5
#: A category scoring less than this share of the total hardly matters.
MINOR_SHARE = 0.05
#: An item is "dominant" when the 95% interval of how often it is taken when open lies
#: above this, over at least `DOMINANT_MIN_OPEN` player-games where it was open.
DOMINANT = 0.90
DOMINANT_MIN_OPEN = 20


#: Said of a report whose seats are all random bots (as `castell simulate` says of them).
RANDOM_SEATS = (
    "Every seat is a random bot: the figures show what the rules allow, not what good players "
    "do. Seat real players (--bots greedy, or greedy,mcts) for a designer's numbers; the skill "
    "ladder shows whether thinking pays."
)


def seats_note(bots: list[str]) -> str | None:
    """The caveat for random seats, or None."""
    return RANDOM_SEATS if bots and all(b == "random" for b in bots) else None


def verdict(section: str, level: str, text: str) -> dict[str, str]:
    """One verdict: its section, `ok`, `note` or `warning`, and its sentence."""
    return {"section": section, "level": level, "text": text}


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def interval(stat: dict[str, Any]) -> str:
    low, high = stat["ci95"]
    if low is None:
        return ""
    return f" ({pct(low)}{DASH}{pct(high)})"


def _ordinal_position(position: int) -> str:
    return "the first player" if position == 0 else f"the player in turn position {position + 1}"


def balance(sections: dict[str, Any], players: int) -> list[dict[str, str]]:
    b = sections["balance"]
    if players == 1:
        total = sections["scores"]["total"]
        low, high = total["ci95"]
        text = f"Solo: mean score {total['mean']:.1f}"
        if low is not None:
            text += f" ({low:.1f}{DASH}{high:.1f})"
        text += f", from {total['min']:g} to {total['max']:g}."
        for name, rate in b["outcomes"].items():
            text += f" {name}: {pct(rate['rate'])}{interval(rate)} of games."
        return [verdict("balance", "note", text)]
    fair = b["fair_win_rate"]
    out = []
    for key in ("positions", "seats"):
        for row in b[key]:
            rate = row["win_rate"]
            low, high = rate["ci95"]
            if rate["rate"] is None or low is None:
                continue
            excluded = low > fair or high < fair
            if not excluded or abs(rate["rate"] - fair) < BALANCE_MARGIN:
                continue
            who = (
                _ordinal_position(row["position"]).capitalize()
                if key == "positions"
                else f"Seat {row['seat']}"
            )
            more = rate["rate"] > fair
            text = (
                f"{who} wins {pct(rate['rate'])}{interval(rate)} of {players}-player games, "
                f"{'more' if more else 'less'} than a fair {pct(fair)}: "
                f"{'favoured' if more else 'disadvantaged'}."
            )
            if key == "positions" and row["position"] == 0:
                text = text[:-1] + f" — the first player is {'favoured' if more else 'behind'}."
            out.append(verdict("balance", "warning", text))
    if not out:
        out.append(
            verdict(
                "balance",
                "ok",
                f"No seat or turn position wins more or less than a fair {pct(fair)} beyond "
                f"the 95% intervals: balanced at this sample size.",
            )
        )
    return out


def decisiveness(sections: dict[str, Any], players: int) -> list[dict[str, str]]:
    if players == 1:
        return []
    d = sections["decisiveness"]
    shared, tiebreak, margin = d["shared_wins"], d["decided_by_tiebreak"], d["margin"]
    level = "warning" if max(shared["rate"] or 0, tiebreak["rate"] or 0) >= DRAWISH else "ok"
    return [
        verdict(
            "decisiveness",
            level,
            f"Shared wins in {pct(shared['rate'])}{interval(shared)} of games; tie-breaks "
            f"decide {pct(tiebreak['rate'])}{interval(tiebreak)}; the winner leads the "
            f"runner-up by {margin['mean']:.1f} points on average.",
        )
    ]


def decided_round(curve: list[dict[str, Any]]) -> int | None:
    """The first round after which the leader wins at least `DECIDED` of the games."""
    for row in curve:
        if row["rate"] is not None and row["rate"] >= DECIDED:
            return row["round"]
    return None


def drama(sections: dict[str, Any], players: int, rounds: int) -> list[dict[str, str]]:
    if players == 1:
        return []
    d = sections["drama"]
    curve = d["leader_after_round_wins"]
    if not curve:
        return []
    changes = d["lead_changes"]["mean"] or 0.0
    comebacks = d["comebacks"]
    k = decided_round(curve)
    tail = (
        f" The lead changes {changes:.1f} times a game; the winner was not leading at "
        f"mid-game in {pct(comebacks['rate'])}{interval(comebacks)} of games."
    )
    if k is None:
        last = curve[-2] if len(curve) > 1 else curve[-1]
        text = (
            f"Open to the end: even after round {last['round']} of {rounds} the leader wins "
            f"only {pct(last['rate'])}{interval(last)} of games."
        )
        return [verdict("drama", "ok", text + tail)]
    row = curve[k - 1]
    early = k < rounds and k <= rounds * EARLY
    text = (
        f"Decided by round {k} of {rounds}: the leader after round {k} wins "
        f"{pct(row['rate'])}{interval(row)} of games"
        + (": decided early." if early else ".")
        + tail
    )
    return [verdict("drama", "warning" if early else "ok", text)]


def length(sections: dict[str, Any]) -> list[dict[str, str]]:
    lg = sections["length"]
    legal = lg["branching"]["legal_actions"]
    text = (
        f"{lg['rounds']['mean']:g} rounds, {lg['turns']['mean']:.0f} turns and "
        f"{lg['actions']['mean']:.0f} actions per game"
    )
    if legal["n"]:
        text += (
            f"; {legal['mean']:.1f} legal actions per decision (sd {legal['sd'] or 0:.1f}, "
            f"at most {legal['max']:g}; {legal['n']} decisions sampled)"
        )
    return [verdict("length", "note", text + ".")]


def scores(sections: dict[str, Any]) -> list[dict[str, str]]:
    categories = [c for c in sections["scores"]["categories"] if c["n"]]
    if not categories:
        return []
    separating = [c for c in categories if c["winners_minus_others"]["difference"] is not None]
    if separating:
        deciding = max(separating, key=lambda c: c["separation"])
        text = (
            f"{deciding['category'].replace('_', ' ')} separates winners from the others most: "
            f"winners score {deciding['winners_minus_others']['difference']:+.1f} more there "
            f"({deciding['separation']:.1f} standard deviations)."
        )
    else:  # solo: no others to compare with; what varies most decides the score
        deciding = max(categories, key=lambda c: c["sd"] or 0)
        text = (
            f"{deciding['category'].replace('_', ' ')} varies most from game to game "
            f"(sd {deciding['sd'] or 0:.1f}, {pct(deciding['share_of_total'])} of the total)."
        )
    out = [verdict("scores", "note", text)]
    minor = [c["category"] for c in categories if (c["share_of_total"] or 0) < MINOR_SHARE]
    if minor:
        out.append(
            verdict(
                "scores",
                "warning",
                f"{', '.join(m.replace('_', ' ') for m in minor)} "
                f"{'makes' if len(minor) == 1 else 'make'} less than {pct(MINOR_SHARE)} of the "
                "total: hardly a factor.",
            )
        )
    return out


def item_flags(row: dict[str, Any], games: int) -> list[str]:
    """An item's flags: dead (no game reached it), never used (reached, never taken), always
    used (taken in every game), dominant (taken whenever open)."""
    flags = []
    if row["games_open"] == 0 and row["games_taken"] == 0:
        flags.append("dead")
    elif row["taken"] == 0:
        flags.append("never used")
    if games and row["games_taken"] == games:
        flags.append("always used")
    take = row["taken_when_open"]
    if (
        take["n"] >= DOMINANT_MIN_OPEN
        and take["ci95"][0] is not None
        and take["ci95"][0] > DOMINANT
    ):
        flags.append("dominant")
    return flags


def coverage(sections: dict[str, Any], games: int) -> list[dict[str, str]]:
    c = sections["coverage"]
    if not c["described"]:
        return [
            verdict(
                "coverage",
                "note",
                "This game's mechanics describes no items (GameLogic.items): no rule coverage.",
            )
        ] + [verdict("coverage", "warning", f"{w['code']} {w['message']}") for w in c["warnings"]]
    counts: dict[str, list[str]] = {}
    for row in c["items"]:
        for flag in row["flags"]:
            counts.setdefault(flag, []).append(f"{row['kind']} {row['name']}")
    out = []
    for flag in ("dead", "never used", "dominant", "always used"):
        names = counts.get(flag)
        if names:
            shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
            level = "warning" if flag in ("dead", "never used", "dominant") else "note"
            out.append(verdict("coverage", level, f"{len(names)} {flag}: {shown}."))
    if c.get("warnings"):
        out.append(
            verdict(
                "coverage",
                "warning",
                "The rule set's own lints: "
                + "; ".join(f"{w['code']} {w['message']}" for w in c["warnings"][:4])
                + ("" if len(c["warnings"]) <= 4 else f"; and {len(c['warnings']) - 4} more")
                + ".",
            )
        )
    if c["lints"]:
        out.append(
            verdict(
                "coverage",
                "warning",
                f"{len(c['lints'])} item(s) proved unusable without playing: "
                + "; ".join(f"{x['name']} ({x['reason']})" for x in c["lints"][:4])
                + ".",
            )
        )
    if not out:
        out.append(
            verdict(
                "coverage",
                "ok",
                f"All {len(c['items'])} items were reached and used; none dominates.",
            )
        )
    return out


def skill(ladder: dict[str, Any]) -> list[dict[str, str]]:
    rungs = [r for r in ladder["rungs"] if r["played"]]
    skipped = [r for r in ladder["rungs"] if not r["played"]]
    out = []
    if rungs:
        beats = [r for r in rungs if r["beats_lower"]]
        if len(beats) == len(rungs):
            text, level = "More thinking wins more: every rung beats the one below.", "ok"
        elif not beats:
            text, level = "Luck dominates: no rung of the ladder beats the one below.", "warning"
        else:
            names = ", ".join(f"{r['higher']} over {r['lower']}" for r in beats)
            text = (
                f"Skill matters in part: {names}; for the other rungs the 95% interval "
                "includes a fair share at this sample size."
            )
            level = "note"
        details = "; ".join(_rung(r) for r in rungs)
        out.append(verdict("skill", level, f"{text} {details}."))
    if skipped:
        out.append(
            verdict(
                "skill",
                "note",
                "Skipped for the budget: "
                + "; ".join(f"{r['higher']} vs {r['lower']} ({r['skipped']})" for r in skipped)
                + ".",
            )
        )
    return out


def _rung(r: dict[str, Any]) -> str:
    """One rung's result in words: its share of the wins, or (solo) its score difference."""
    name = f"{r['higher']} vs {r['lower']}"
    if r["fair_share"] is None:
        diff = r["score_difference"]
        low, high = diff["ci95"]
        span = f" ({low:+.1f} to {high:+.1f})" if low is not None else ""
        return f"{name}: {diff['mean']:+.1f} points{span} on the same seeds"
    share = r["higher_win_share"]
    return (
        f"{name}: {pct(share['rate'])}{interval(share)} of the wins (fair {pct(r['fair_share'])})"
    )


def against(differences: dict[str, Any], label: str, versus: str) -> list[dict[str, str]]:
    significant = {name: d for name, d in differences.items() if d["significant"]}
    if not significant:
        return [
            verdict(
                "against",
                "ok",
                f"{label} vs {versus}: no paired difference excludes 0 at 95%.",
            )
        ]
    parts = [
        f"{name} {d['mean']:+.2f} ({d['ci95'][0]:+.2f} to {d['ci95'][1]:+.2f})"
        for name, d in significant.items()
    ]
    return [
        verdict(
            "against",
            "note",
            f"{label} {MINUS} {versus}, paired by seed, significant at 95%: "
            + "; ".join(parts)
            + ".",
        )
    ]
