"""A tournament's report as text (the terminal) and as one self-contained HTML page.

Both read the JSON of `Standings.to_json`; the page has its style inline and no script, link or
image, so it can be mailed or archived as one file, and every name in it (a bot's spec, a
program's command) is escaped.
"""

from __future__ import annotations

import html
from typing import Any

from ..language.text import visible


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _title(data: dict[str, Any]) -> str:
    variants = f" ({', '.join(data['variants'])})" if data["variants"] else ""
    return (
        f"Tournament: {data['rules']}{variants}, {data['players']} players, "
        f"{data['games']} games ({data['rounds']} rounds x {data['lineups']} seat orders), "
        f"seed {data['seed']}"
    )


def render_text(data: dict[str, Any]) -> str:
    """The ratings table and the pairwise win rates, as aligned text."""
    ratings = data["ratings"]
    names = [visible(r["bot"]) for r in ratings]
    width = max(len("bot"), *(len(n) for n in names))
    lines = [visible(_title(data)), ""]
    header = f"{'rank':>4}  {'bot':<{width}}  {'rating':>7}  {'95% interval':>15}  "
    header += f"{'games':>6}  {'win rate':>8}  {'mean total':>10}"
    lines.append(header)
    for rank, (row, name) in enumerate(zip(ratings, names, strict=True), 1):
        low, high = row["rating_95"]
        lines.append(
            f"{rank:>4}  {name:<{width}}  {row['rating']:>7.0f}  "
            f"{f'{low:.0f} - {high:.0f}':>15}  {row['games']:>6}  "
            f"{row['win_rate']:>8.1%}  {row['mean_total']:>10.1f}"
        )
    lines += ["", "Pairwise: how often the row's bot finished ahead of the column's (draws half)"]
    columns = [max(len(n), 5) for n in names]
    lines.append(
        " " * width + "  " + "  ".join(f"{n:>{c}}" for n, c in zip(names, columns, strict=True))
    )
    for row, name in zip(data["pairwise"], names, strict=True):
        cells = [
            f"{_rate(row['against'][other['bot']]):>{c}}"
            for other, c in zip(ratings, columns, strict=True)
        ]
        lines.append(f"{name:<{width}}  " + "  ".join(cells))
    lines += [
        "",
        "Ratings: Bradley-Terry on the Elo scale (mean 1500), fitted to every pair of seats of "
        "every game;",
        f"intervals: {data['bootstrap']} bootstrap resamples of whole rounds.",
        "",
    ]
    return "\n".join(lines)


STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem; color: #1d1d1f; }
table { border-collapse: collapse; margin: 1rem 0 2rem; }
th, td { border: 1px solid #c8c8cc; padding: .3rem .6rem; text-align: right; }
th:first-child, td.bot { text-align: left; }
caption { text-align: left; font-weight: 600; padding-bottom: .4rem; }
"""


def render_html(data: dict[str, Any]) -> str:
    """One page, no script and nothing fetched: the same tables as the text."""
    e = html.escape
    ratings = data["ratings"]
    rows = []
    for rank, row in enumerate(ratings, 1):
        low, high = row["rating_95"]
        rows.append(
            f"<tr><td>{rank}</td><td class=bot>{e(row['bot'])}</td><td>{row['rating']:.0f}</td>"
            f"<td>{low:.0f} &ndash; {high:.0f}</td><td>{row['games']}</td>"
            f"<td>{row['win_rate']:.1%}</td><td>{row['mean_total']:.1f}</td></tr>"
        )
    head = "".join(f"<th scope=col>{e(r['bot'])}</th>" for r in ratings)
    pair_rows = []
    for row in data["pairwise"]:
        cells = "".join(f"<td>{_rate(row['against'][o['bot']])}</td>" for o in ratings)
        pair_rows.append(f"<tr><th scope=row class=bot>{e(row['bot'])}</th>{cells}</tr>")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(_title(data))}</title>
<style>{STYLE}</style>
</head>
<body>
<h1>{e(_title(data))}</h1>
<table data-testid="ratings">
<caption>Ratings (Bradley-Terry, Elo scale, mean 1500; 95% intervals from {data["bootstrap"]}
bootstrap resamples of whole rounds)</caption>
<tr><th scope=col>rank</th><th scope=col>bot</th><th scope=col>rating</th>
<th scope=col>95% interval</th><th scope=col>games</th><th scope=col>win rate</th>
<th scope=col>mean total</th></tr>
{"".join(rows)}
</table>
<table data-testid="pairwise">
<caption>How often the row's bot finished ahead of the column's (draws count half)</caption>
<tr><th></th>{head}</tr>
{"".join(pair_rows)}
</table>
</body>
</html>
"""
