"""`castell analyze`'s text report: one screen of verdicts, then the tables (rich).

It reads the JSON report only (`castell_dsl.runtime.analysis.report`), like the HTML page."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from ..runtime.analysis.verdicts import DASH, MINUS, seats_note

MARK = {"ok": "[green]✓[/]", "note": "[cyan]·[/]", "warning": "[yellow]![/]"}


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _rate(stat: dict[str, Any]) -> str:
    low, high = stat["ci95"]
    return "-" if stat["rate"] is None else f"{_pct(stat['rate'])} ({_pct(low)}{DASH}{_pct(high)})"


def _mean(stat: dict[str, Any]) -> str:
    low, high = stat["ci95"]
    if stat["mean"] is None:
        return "-"
    if low is None:
        return f"{stat['mean']:.2f}"
    return f"{stat['mean']:.2f} ({low:.2f}{DASH}{high:.2f})"


def _table(title: str, columns: list[str]) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold")
    for i, column in enumerate(columns):
        table.add_column(column, justify="left" if i == 0 else "right")
    return table


def print_report(data: dict[str, Any], console: Console | None = None) -> None:
    console = console or Console()
    s = data["settings"]
    console.print(
        f"[bold]castell analyze[/]: {s['games']} games per rule set, {s['players']} "
        f"player{'s' if s['players'] != 1 else ''}, "
        f"bots {', '.join(dict.fromkeys(s['bots']))}, "
        f"seeds {s['seed']}..{s['seed'] + s['games'] - 1}",
        soft_wrap=True,
    )
    note = seats_note(s["bots"])
    if note:
        console.print(f"[dim]{note}[/]")
    for rule_set in data["rule_sets"]:
        console.print(f"\n[bold underline]{rule_set['label']}[/] ({rule_set['title']})")
        for v in rule_set["verdicts"]:
            console.print(f" {MARK[v['level']]} [bold]{v['section']}[/]: {v['text']}")
    against = data["against"]
    if against:
        console.print(f"\n[bold underline]{against['label']} against {against['versus']}[/]")
        for v in against["verdicts"]:
            console.print(f" {MARK[v['level']]} {v['text']}")
    for rule_set in data["rule_sets"]:
        _tables(console, rule_set, s["players"])
    if against:
        table = _table(
            f"Paired differences, {against['label']} {MINUS} {against['versus']} "
            f"({against['method']})",
            ["metric", "mean difference (95%)", "significant"],
        )
        for name, d in against["differences"].items():
            table.add_row(name, _mean(d), "yes" if d["significant"] else "")
        console.print(table)


def _tables(console: Console, rule_set: dict[str, Any], players: int) -> None:
    sections = rule_set["sections"]
    label = rule_set["label"]
    b = sections["balance"]
    if players > 1:
        table = _table(f"{label}: balance (fair win rate {_pct(b['fair_win_rate'])})",
                       ["", "win rate (95%)", "mean score (95%)"])  # fmt: skip
        for row in b["positions"]:
            table.add_row(f"turn position {row['position'] + 1}", _rate(row["win_rate"]),
                          _mean(row["score"]))  # fmt: skip
        for row in b["seats"]:
            table.add_row(f"seat {row['seat']}", _rate(row["win_rate"]), _mean(row["score"]))
        console.print(table)
        d = sections["decisiveness"]
        dr = sections["drama"]
        table = _table(f"{label}: decisiveness and drama", ["", "value (95%)"])
        table.add_row("shared wins", _rate(d["shared_wins"]))
        table.add_row("tied on points", _rate(d["tied_on_points"]))
        table.add_row("decided by a tie-break", _rate(d["decided_by_tiebreak"]))
        table.add_row("margin of victory", _mean(d["margin"]))
        table.add_row("lead changes per game", _mean(dr["lead_changes"]))
        table.add_row("comebacks (winner not leading at mid-game)", _rate(dr["comebacks"]))
        for row in dr["leader_after_round_wins"]:
            table.add_row(f"leader after round {row['round']} wins", _rate(row))
        console.print(table)
    elif b["outcomes"]:
        table = _table(f"{label}: solo outcomes", ["", "rate (95%)"])
        for name, rate in b["outcomes"].items():
            table.add_row(name, _rate(rate))
        console.print(table)
    lg = sections["length"]
    br = lg["branching"]
    table = _table(f"{label}: length and branching ({br['sample']})",
                   ["", "mean (95%)", "sd", "max"])  # fmt: skip
    for name in ("rounds", "turns", "actions"):
        table.add_row(f"{name} per game", _mean(lg[name]), f"{lg[name]['sd'] or 0:.1f}",
                      f"{lg[name]['max']}")  # fmt: skip
    la = br["legal_actions"]
    table.add_row(f"legal actions per decision (n={la['n']})", _mean(la), f"{la['sd'] or 0:.1f}",
                  f"{la['max']}")  # fmt: skip
    for row in br["by_kind"]:
        table.add_row(f"  {row['kind']} (open at {_pct(row['share_of_decisions'])})", _mean(row),
                      f"{row['sd'] or 0:.1f}", f"{row['max']}")  # fmt: skip
    console.print(table)
    sc = sections["scores"]
    gap_title = f"winners {MINUS} others (95%)"
    table = _table(f"{label}: score structure (per player)",
                   ["category", "mean (95%)", "sd", "share", gap_title])  # fmt: skip
    table.add_row("total", _mean(sc["total"]), f"{sc['total']['sd'] or 0:.1f}", "", "")
    for c in sc["categories"]:
        w = c["winners_minus_others"]
        low, high = w["ci95"]
        gap = "-" if w["difference"] is None else f"{w['difference']:+.2f}"
        if low is not None:
            gap += f" ({low:+.2f}{DASH}{high:+.2f})"
        table.add_row(c["category"].replace("_", " "), _mean(c), f"{c['sd'] or 0:.1f}",
                      _pct(c["share_of_total"]), gap)  # fmt: skip
    console.print(table)
    ladder = rule_set["skill"]
    if ladder:
        table = _table(f"{label}: skill ladder ({ladder['games_per_rung']} games per rung)",
                       ["rung", "share of the wins (95%)", "fair", "score gap (95%)"])  # fmt: skip
        for r in ladder["rungs"]:
            name = f"{r['higher']} vs {r['lower']}"
            if not r["played"]:
                table.add_row(name, f"skipped: {r['skipped']}", "", "")
                continue
            share = "-" if r["fair_share"] is None else _rate(r["higher_win_share"])
            table.add_row(name, share, _pct(r["fair_share"]), _mean(r["score_difference"]))
        console.print(table)
    cov = sections["coverage"]
    if cov["described"]:
        table = _table(f"{label}: rule coverage (player-games)",
                       ["item", "open", "taken", "completed", "taken when open", "win taken / not",
                        "flags"])  # fmt: skip
        for row in cov["items"]:
            table.add_row(
                f"{row['kind']} {row['name']}", str(row["open"]), str(row["taken"]),
                str(row["completed"]), _pct(row["taken_when_open"]["rate"]),
                f"{_pct(row['win_rate_taken']['rate'])} / "
                f"{_pct(row['win_rate_not_taken']['rate'])}",
                ", ".join(row["flags"]),
            )  # fmt: skip
        console.print(table)
        for lint in cov["lints"]:
            console.print(f" [yellow]![/] {lint['kind']} {lint['name']}: {lint['reason']}")
    else:
        console.print(f"{label}: rule coverage: the mechanics describes no items.")
    for warning in cov["warnings"]:
        console.print(f" [yellow]![/] {warning['where']}: {warning['code']} {warning['message']}")
