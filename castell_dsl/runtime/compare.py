"""Comparing rule sets on paired games: what a variant changes in play, with intervals.

Every rule set plays the same games: game `i` of each uses seed `S + i` and the same bots in
the same seats (the paired-seed machinery of `paired.py`, which `castell analyze` shares, so
locally with `jobs` processes or on a Dask cluster). Because the games are paired, a difference is
measured game by game: for each game `i`, (variant's value - base's value), and the mean of
those differences gets a **paired t interval** (95%, Student's t with n - 1 degrees of
freedom). Pairing removes the variance the seeds share (the same shuffles, the same first
player), so it detects smaller differences than comparing two independent means.

What is measured is generic, read from each game's line: the total and each scoring category
(per game, the mean over its players), game length (rounds, actions), wins by seat and by turn
position (Wilson intervals), and the players' final facts (`simulation.final_facts`): a number
fact's mean, and for a list fact (the tiles, prizes, cats, buttons a player ended with) how
often each item is held. The core names no game's content: the facts are the mechanics'.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.game import Game
from ..language.ruleset import RuleSet
from .paired import Contender, PairedSpec, parse_contender, run_paired
from .simulation import final_facts, game_line, play_game, wilson_interval

#: Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip

METHOD = "paired t interval, 95%, over games with the same seeds and bots"


def t_quantile(df: int) -> float:
    """The 97.5% quantile of Student's t: a table to 30 degrees of freedom, then the
    Cornish-Fisher expansion around the normal quantile (error below 0.001)."""
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def mean_interval(values: Sequence[float]) -> dict[str, Any]:
    """Mean, standard deviation and 95% t interval of the mean."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "sd": None, "ci95": [None, None]}
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = t_quantile(n - 1) * sd / math.sqrt(n) if n > 1 else math.inf
    low, high = (mean - half, mean + half) if math.isfinite(half) else (None, None)
    return {
        "n": n,
        "mean": round(mean, 4),
        "sd": round(sd, 4),
        "ci95": [None if low is None else round(low, 4), None if high is None else round(high, 4)],
    }


def paired_difference(base: Sequence[float], other: Sequence[float]) -> dict[str, Any]:
    """The mean of (other - base) game by game, with its paired t interval."""
    diffs = [b - a for a, b in zip(base, other, strict=True)]
    out = mean_interval(diffs)
    low, high = out["ci95"]
    out["significant"] = low is not None and high is not None and (low > 0 or high < 0)
    return out


def _category(name: str) -> Callable[[dict[str, Any]], float]:
    return lambda player: player["categories"].get(name, 0)


def _per_game(line: dict[str, Any], pick: Callable[[dict[str, Any]], float]) -> float:
    players = line["players"]
    return sum(pick(p) for p in players) / len(players) if players else 0.0


@dataclass
class Collected:
    """The lines of one rule set's games, in game order."""

    contender: Contender
    lines: list[dict[str, Any]]
    hash: str = ""

    def series(self) -> dict[str, dict[str, list[float]]]:
        """Per-game values by section and metric name."""
        out: dict[str, dict[str, list[float]]] = {
            "scores": {"total": []},
            "length": {"rounds": [], "actions": []},
            "facts": {},
            "items": {},
        }
        categories = _ordered(name for line in self.lines for p in line["players"]
                              for name in p["categories"])  # fmt: skip
        for name in categories:
            out["scores"][name] = []
        facts = self._facts()
        numbers = _ordered(k for f in facts for p in f for k, v in p.items()
                           if not isinstance(v, dict))  # fmt: skip
        lists = _ordered(k for f in facts for p in f for k, v in p.items() if isinstance(v, dict))
        items = {
            name: _ordered(item for f in facts for p in f for item in (p.get(name) or {}))
            for name in lists
        }
        for line, per_player in zip(self.lines, facts, strict=True):
            out["scores"]["total"].append(_per_game(line, lambda p: p["total"]))
            for name in categories:
                out["scores"][name].append(_per_game(line, _category(name)))
            out["length"]["rounds"].append(line["rounds"])
            out["length"]["actions"].append(line.get("actions", 0))
            count = max(1, len(per_player))
            for name in numbers:
                values = [p.get(name, 0) for p in per_player]
                out["facts"].setdefault(name, []).append(sum(values) / count)
            for name in lists:
                for item in items[name]:
                    held = sum((p.get(name) or {}).get(item, 0) for p in per_player)
                    out["items"].setdefault(f"{name}:{item}", []).append(held)
        return out

    def _facts(self) -> list[list[dict[str, Any]]]:
        return [line.get("facts") or [{} for _ in line["players"]] for line in self.lines]

    def seats(self, players: int) -> dict[str, list[dict[str, Any]]]:
        """Win rates by seat and by turn position (0: the first player), Wilson intervals."""
        n = len(self.lines)
        by_seat = [0.0] * players
        by_position = [0.0] * players
        for line in self.lines:
            winners = line["winners"]
            first = line.get("first_player", 0) or 0
            for seat in winners:
                by_seat[seat] += 1 / len(winners)
                by_position[(seat - first) % players] += 1 / len(winners)

        def rows(wins: list[float], key: str) -> list[dict[str, Any]]:
            out = []
            for index, won in enumerate(wins):
                low, high = wilson_interval(won, n)
                out.append(
                    {
                        key: index,
                        "win_rate": round(won / n, 4) if n else 0.0,
                        "win_rate_95": [round(low, 4), round(high, 4)],
                    }
                )
            return out

        return {"seats": rows(by_seat, "seat"), "positions": rows(by_position, "position")}


def _ordered(names: Any) -> list[str]:
    seen: dict[str, None] = {}
    for name in names:
        seen.setdefault(name, None)
    return list(seen)


def line_with_facts(
    rules: RuleSet, players: int, seed: int, bots: tuple[str, ...], index: int
) -> dict[str, Any]:
    """A paired game's record for `compare`: its line, the players' final facts and who
    played first (the measure `run_compare` hands the paired-seed machinery)."""
    game: Game = play_game(rules, players, seed, bots)
    line = game_line(index, seed, game, bots)
    line["facts"] = final_facts(game)
    line["first_player"] = game.state.get("first_player", 0)
    return line


def run_compare(
    contenders: Sequence[Contender],
    players: int,
    bots: Sequence[str],
    seed: int,
    games: int,
    jobs: int = 1,
    scheduler: str | None = None,
    on_game: Callable[[str, dict[str, Any]], None] | None = None,
) -> list[Collected]:
    """Play the same `games` games (seeds `seed + i`, the same bots) under each rule set."""
    from .loading import load_rules

    spec = PairedSpec(tuple(contenders), players, tuple(bots), seed, games)
    collected = [Collected(c, [], load_rules(c.rules, c.variants).hash) for c in spec.contenders]
    for lines in run_paired(spec, line_with_facts, jobs, scheduler):
        for item, line in zip(collected, lines, strict=True):
            item.lines.append(line)
            if on_game is not None:
                on_game(item.contender.label, line)
    return collected


def report(collected: Sequence[Collected], players: int, bots: Sequence[str], seed: int) -> dict:
    """The stable JSON report of `castell compare` (documented in docs/variants.md)."""
    base = collected[0]
    base_series = base.series()
    rule_sets = []
    for item in collected:
        series = item.series()
        entry: dict[str, Any] = {
            "label": item.contender.label,
            "rules": item.contender.rules,
            "variants": list(item.contender.variants),
            "hash": item.hash,
            "games": len(item.lines),
        }
        for section in ("scores", "length", "facts", "items"):
            entry[section] = {name: mean_interval(v) for name, v in series[section].items()}
        entry.update(item.seats(players))
        rule_sets.append(entry)
    differences = []
    for item in collected[1:]:
        series = item.series()
        diff: dict[str, Any] = {"label": item.contender.label, "versus": base.contender.label}
        for section in ("scores", "length", "facts", "items"):
            names = _ordered([*base_series[section], *series[section]])
            diff[section] = {}
            for name in names:
                ours = series[section].get(name)
                theirs = base_series[section].get(name)
                if section == "items":  # an item never held in one rule set was held 0 times
                    ours = ours or [0.0] * len(item.lines)
                    theirs = theirs or [0.0] * len(base.lines)
                if ours is None or theirs is None:
                    continue  # a category or fact one of the rule sets does not have
                diff[section][name] = paired_difference(theirs, ours)
        differences.append(diff)
    return {
        "games": len(base.lines),
        "players": players,
        "bots": list(bots),
        "seed": seed,
        "method": METHOD,
        "base": base.contender.label,
        "rule_sets": rule_sets,
        "differences": differences,
    }


# ---- text -------------------------------------------------------------------------------------


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _stat(stat: dict[str, Any]) -> str:
    low, high = stat["ci95"]
    return f"{_num(stat['mean'])} [{_num(low)}, {_num(high)}]"


def _diff(stat: dict[str, Any]) -> str:
    low, high = stat["ci95"]
    sign = "+" if (stat["mean"] or 0) >= 0 else ""
    mark = " *" if stat.get("significant") else ""
    return f"{sign}{_num(stat['mean'])} [{_num(low)}, {_num(high)}]{mark}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        out.append("  ".join(cells).rstrip())
    return out


def render_text(data: dict[str, Any], max_items: int = 12) -> str:
    """Tables: each metric's mean [95% interval] per rule set and the paired differences."""
    sets = data["rule_sets"]
    diffs = data["differences"]
    labels = [s["label"] for s in sets]
    lines = [
        f"{data['games']} paired games, {data['players']} players, bots "
        f"{', '.join(data['bots'])}, seeds {data['seed']}..{data['seed'] + data['games'] - 1}",
        f"differences: {data['method']}; * the interval excludes 0",
        "",
    ]
    header = ["", *labels, *(f"{d['label']} - {d['versus']}" for d in diffs)]
    titles = {"scores": "score (mean per player)", "length": "game length", "facts": "facts"}
    for section in ("scores", "length", "facts"):
        names = _ordered(n for s in sets for n in s[section])
        if not names:
            continue
        rows = []
        for name in names:
            row = [name.replace("_", " ")]
            row += [_stat(s[section][name]) if name in s[section] else "-" for s in sets]
            row += [_diff(d[section][name]) if name in d[section] else "-" for d in diffs]
            rows.append(row)
        lines += [titles[section], *_table(header, rows), ""]
    items = _ordered(n for s in sets for n in s["items"])
    if items:

        def change(name: str) -> float:
            return max((abs(d["items"][name]["mean"] or 0) for d in diffs if name in d["items"]),
                       default=0.0)  # fmt: skip

        shown = sorted(items, key=change, reverse=True)[:max_items] if diffs else items[:max_items]
        rows = []
        for name in shown:
            row = [name.replace(":", " ")]
            row += [_stat(s["items"][name]) if name in s["items"] else "0" for s in sets]
            row += [_diff(d["items"][name]) if name in d["items"] else "-" for d in diffs]
            rows.append(row)
        more = len(items) - len(shown)
        title = "items held at the end (per game, all players)" + (
            f"; the {len(shown)} that change most, {more} more in --format json" if more else ""
        )
        lines += [title, *_table(header, rows), ""]
    for key, title in (("positions", "turn position"), ("seats", "seat")):
        rows = []
        for index in range(data["players"]):
            row = [f"{title} {index}"]
            for s in sets:
                r = s[key][index]
                low, high = r["win_rate_95"]
                row.append(f"{r['win_rate']:.1%} [{low:.1%}, {high:.1%}]")
            row += [""] * len(diffs)
            rows.append(row)
        label = "wins by turn position (0 plays first)" if key == "positions" else "wins by seat"
        lines += [f"{label}, Wilson 95% intervals", *_table(header, rows), ""]
    return "\n".join(lines).rstrip() + "\n"


# ---- plot -------------------------------------------------------------------------------------


class PlotError(Exception):
    """The plot cannot be drawn (matplotlib missing, an unknown file type)."""


PLOT_SUFFIXES = (".png", ".svg")


def plot(collected: Sequence[Collected], path: str) -> None:
    """Score distributions side by side: per-player totals, then each category, per rule set.
    PNG or SVG by the file's extension; matplotlib (the `plot` extra) with the Agg backend."""
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise PlotError(f"--plot {path}: the file must end in .png or .svg")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError(
            'matplotlib is not installed: pip install "castell-dsl[plot]" (or pip install '
            "matplotlib)"
        ) from None
    labels = [c.contender.label for c in collected]
    panels: list[tuple[str, list[list[float]]]] = [
        ("total", [[p["total"] for line in c.lines for p in line["players"]] for c in collected])
    ]
    names = _ordered(n for c in collected for line in c.lines for p in line["players"]
                     for n in p["categories"])  # fmt: skip
    for name in names:
        panels.append(
            (
                name.replace("_", " "),
                [
                    [p["categories"].get(name, 0) for line in c.lines for p in line["players"]]
                    for c in collected
                ],
            )
        )
    columns = min(3, len(panels))
    rows = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(4.5 * columns, 3.4 * rows), squeeze=False)
    for index, (title, data) in enumerate(panels):
        axis = axes[index // columns][index % columns]
        axis.boxplot(data, showmeans=True)
        axis.set_xticks(range(1, len(labels) + 1), labels, rotation=15, fontsize=8)
        axis.set_title(title)
    for index in range(len(panels), rows * columns):
        axes[index // columns][index % columns].axis("off")
    games = len(collected[0].lines) if collected else 0
    figure.suptitle(f"score per player, {games} paired games (mean ▲, median —)")
    figure.tight_layout()
    figure.savefig(path, format=suffix[1:])
    plt.close(figure)


__all__ = [
    "METHOD",
    "Collected",
    "Contender",
    "PlotError",
    "mean_interval",
    "paired_difference",
    "parse_contender",
    "plot",
    "render_text",
    "report",
    "run_compare",
    "t_quantile",
]
