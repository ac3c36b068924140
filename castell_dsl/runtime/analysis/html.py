"""`castell analyze --html`: the report as one self-contained page, plots as inline SVG.

It reads the JSON report only. Nothing on the page refers outside it: no script, no font, no
image or style sheet by URL; every text from a rule file is escaped. Plots: win rate by turn
position and seat with 95% intervals, the total and each category's score distribution,
"the leader after round k wins" curves, the skill ladder, and the coverage table shaded by
use. With `--against`, the rule sets side by side in each plot and the paired differences.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .verdicts import seats_note

#: One colour per rule set (the subject, then the base), readable on white and in grey.
COLOURS = ("#1f5fa8", "#d0631b")
DASH = "\u2013"

STYLE = """
body{font:15px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1b1f24;
margin:0;background:#f6f7f9}
main{max-width:1080px;margin:0 auto;padding:24px 28px 60px;background:#fff}
h1{font-size:26px;margin:8px 0 4px}h2{font-size:19px;margin:32px 0 8px;border-bottom:2px solid
#e3e6ea;padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
.sub{color:#56606b}.verdicts{list-style:none;padding:0}.verdicts li{margin:6px 0;padding:6px 10px;
border-left:4px solid #9aa5b1;background:#f6f7f9}.verdicts li.warning{border-color:#d08a00;
background:#fff7e6}.verdicts li.ok{border-color:#2e8b57;background:#eef8f1}
.tag{font-weight:600;text-transform:capitalize;margin-right:6px}
table{border-collapse:collapse;font-size:13px;margin:8px 0}th,td{padding:3px 8px;
border-bottom:1px solid #e3e6ea;text-align:right}th:first-child,td:first-child{text-align:left}
.row{display:flex;flex-wrap:wrap;gap:18px}.row>div{flex:1 1 420px;min-width:300px}
svg{max-width:100%;height:auto}.legend span{display:inline-block;margin-right:14px}
.legend i{display:inline-block;width:12px;height:12px;margin-right:5px;vertical-align:-1px}
.flag{color:#a45a00;font-weight:600}
tr.kind th{text-align:left;background:#f0f2f5;text-transform:capitalize;padding-top:8px}
"""


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:+.2f}"


def _fixed(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _svg(width: int, height: int, body: list[str], label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(label)}">'
        + "".join(body)
        + "</svg>"
    )


def _axis(x0: int, y0: int, width: int, height: int, ticks: list[float], top: float) -> list[str]:
    out = [f'<line x1="{x0}" y1="{y0}" x2="{x0 + width}" y2="{y0}" stroke="#9aa5b1"/>']
    for tick in ticks:
        y = y0 - height * tick / top if top else y0
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + width}" y2="{y:.1f}" '
                   'stroke="#eef0f2"/>')  # fmt: skip
        label = f"{tick:.0%}" if top <= 1 else f"{tick:g}"
        out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end" '
                   f'fill="#56606b">{label}</text>')  # fmt: skip
    return out


def _nice_top(top: float) -> tuple[float, list[float]]:
    """An axis top at or above `top` (a rate) and its ticks, in steps people read."""
    for step in (0.05, 0.1, 0.2, 0.25):
        ticks = int(-(-top // step))
        if ticks <= 5:
            end = min(1.0, step * max(1, ticks))
            return end, [step * i for i in range(round(end / step) + 1)]
    return 1.0, [0, 0.25, 0.5, 0.75, 1.0]


def rate_bars(groups: list[str], series: list[list[dict[str, Any]]], fair: float | None,
              title: str) -> str:  # fmt: skip
    """Bars of rates with their 95% intervals as whiskers, one colour per rule set; a rate
    not measured (a ladder rung skipped for the budget) is marked as such."""
    width, height, x0, y0, plot_h = 500, 236, 44, 190, 160
    plot_w = width - x0 - 60  # room on the right for the fair line's label
    highest = max([0.0, *(r["ci95"][1] or r["rate"] or 0 for s in series for r in s)])
    top, ticks = _nice_top(max(highest, (fair or 0) + 0.05))
    body = _axis(x0, y0, plot_w, plot_h, ticks, top)
    slot = plot_w / max(1, len(groups))
    bar = slot * 0.7 / max(1, len(series))
    for g, name in enumerate(groups):
        for s, rates in enumerate(series):
            r = rates[g]
            x = x0 + g * slot + slot * 0.15 + s * bar
            if r["rate"] is None:
                colour = COLOURS[s % 2]
                body.append(f'<text x="{x + bar / 2:.1f}" y="{y0 - 6}" font-size="10" '
                            f'text-anchor="middle" fill="{colour}">skipped</text>')  # fmt: skip
                continue
            h = plot_h * r["rate"] / top
            body.append(f'<rect x="{x:.1f}" y="{y0 - h:.1f}" width="{bar - 2:.1f}" '
                        f'height="{h:.1f}" fill="{COLOURS[s % 2]}"><title>{escape(name)}: '
                        f"{_pct(r['rate'])} ({_pct(r['ci95'][0])}{DASH}{_pct(r['ci95'][1])})"
                        "</title></rect>")  # fmt: skip
            low, high = r["ci95"]
            if low is not None:
                cx = x + (bar - 2) / 2
                y_low, y_high = y0 - plot_h * low / top, y0 - plot_h * high / top
                body.append(f'<line x1="{cx:.1f}" y1="{y_low:.1f}" x2="{cx:.1f}" '
                            f'y2="{y_high:.1f}" stroke="#1b1f24" stroke-width="1.5"/>')  # fmt: skip
        cx = x0 + g * slot + slot / 2
        lines = "".join(
            f'<tspan x="{cx:.1f}" dy="{0 if i == 0 else 13}">{escape(part)}</tspan>'
            for i, part in enumerate(name.split("\n"))
        )
        body.append(f'<text x="{cx:.1f}" y="{y0 + 16}" font-size="11" text-anchor="middle" '
                    f'fill="#1b1f24">{lines}</text>')  # fmt: skip
    if fair is not None:
        y = y0 - plot_h * fair / top
        body.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + plot_w}" y2="{y:.1f}" '
                    'stroke="#2e8b57" stroke-dasharray="5 4"/>')  # fmt: skip
        body.append(f'<text x="{x0 + plot_w + 6}" y="{y + 4:.1f}" font-size="11" '
                    f'fill="#2e8b57">fair {_pct(fair)}</text>')  # fmt: skip
    return f"<h3>{escape(title)}</h3>" + _svg(width, height, body, title)


def curves(series: list[list[dict[str, Any]]], title: str) -> str:
    """'The leader after round k wins' curves with 95% bands, one per rule set."""
    width, height, x0, y0, plot_h = 460, 230, 44, 190, 160
    rounds = max((len(s) for s in series), default=1)
    span = width - x0 - 20
    body = _axis(x0, y0, span, plot_h, [0, 0.25, 0.5, 0.75, 1.0], 1.0)

    def x_of(k: int) -> float:
        return x0 + span * (k - 1) / max(1, rounds - 1)

    for s, rows in enumerate(series):
        colour = COLOURS[s % 2]
        band = [(x_of(r["round"]), y0 - plot_h * (r["ci95"][1] or 0)) for r in rows] + [
            (x_of(r["round"]), y0 - plot_h * (r["ci95"][0] or 0)) for r in reversed(rows)
        ]
        if band:
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in band)
            body.append(f'<polygon points="{points}" fill="{colour}" opacity="0.15"/>')
        line = " ".join(f"{x_of(r['round']):.1f},{y0 - plot_h * (r['rate'] or 0):.1f}"
                        for r in rows)  # fmt: skip
        body.append(f'<polyline points="{line}" fill="none" stroke="{colour}" '
                    'stroke-width="2.5"/>')  # fmt: skip
    for k in range(1, rounds + 1):
        body.append(f'<text x="{x_of(k):.1f}" y="{y0 + 16}" font-size="11" '
                    f'text-anchor="middle">{k}</text>')  # fmt: skip
    body.append(f'<text x="{x0 + span / 2:.1f}" y="{height - 4}" font-size="11" '
                'text-anchor="middle" fill="#56606b">after round</text>')  # fmt: skip
    return f"<h3>{escape(title)}</h3>" + _svg(width, height, body, title)


def distributions(series: list[list[list[float]]], means: list[float | None], title: str) -> str:
    """Score distributions: each value's share of the player-games, the rule sets' bars side
    by side in each value's slot, and each mean as a dashed line."""
    width, height, x0, y0, plot_h = 330, 176, 40, 144, 120
    values = [v for s in series for v, _c in s]
    if not values:
        return ""
    low, high = min(values), max(values)
    slots = high - low + 1
    shares = [[(v, c / max(1, sum(n for _v, n in s))) for v, c in s] for s in series]
    top = max((share for s in shares for _v, share in s), default=1) or 1
    plot_w = width - x0 - 10
    slot = plot_w / slots
    bar = max(0.8, slot * 0.9 / max(1, len(series)))
    body = _axis(x0, y0, plot_w, plot_h, [top * i / 2 for i in range(3)], top)
    for s, rows in enumerate(shares):
        for v, share in rows:
            x = x0 + slot * (v - low) + s * bar
            h = plot_h * share / top
            body.append(f'<rect x="{x:.1f}" y="{y0 - h:.1f}" width="{bar:.2f}" '
                        f'height="{h:.1f}" fill="{COLOURS[s % 2]}"><title>{v:g}: '
                        f"{share:.1%}</title></rect>")  # fmt: skip
    for s, mean in enumerate(means):
        if mean is None:
            continue
        x = x0 + slot * (mean - low) + slot / 2
        body.append(f'<line x1="{x:.1f}" y1="{y0 - plot_h}" x2="{x:.1f}" y2="{y0}" '
                    f'stroke="{COLOURS[s % 2]}" stroke-dasharray="4 3"/>')  # fmt: skip
    for v in sorted({low, round((low + high) / 2), high}):
        x = x0 + slot * (v - low) + slot / 2
        body.append(f'<text x="{x:.1f}" y="{y0 + 14}" font-size="10" text-anchor="middle">'
                    f"{v:g}</text>")  # fmt: skip
    label = f"distribution of {title}, means dashed"
    return f"<div><h3>{escape(title)}</h3>" + _svg(width, height, body, label) + "</div>"


def _legend(labels: list[str]) -> str:
    return (
        '<p class="legend">'
        + "".join(
            f'<span><i style="background:{COLOURS[i % 2]}"></i>{escape(label)}</span>'
            for i, label in enumerate(labels)
        )
        + "</p>"
    )


def _verdicts(items: list[dict[str, str]]) -> str:
    return (
        '<ul class="verdicts">'
        + "".join(
            f'<li class="{escape(v["level"])}"><span class="tag">{escape(v["section"])}</span>'
            f"{escape(v['text'])}</li>"
            for v in items
        )
        + "</ul>"
    )


def _shade(rate: float | None) -> str:
    return f"rgba(31,95,168,{0.08 + 0.6 * rate:.2f})" if rate is not None else "#f3d6d6"


def _coverage(sets: list[dict[str, Any]]) -> str:
    """One table: each item, and per rule set how often it was open, taken, taken when open
    (shaded by use), the win rates of takers and others, and its flags."""
    described = [r for r in sets if r["sections"]["coverage"]["described"]]
    parts = [
        f"<p>{escape(r['label'])}: this game's mechanics describes no items.</p>"
        for r in sets if not r["sections"]["coverage"]["described"]
    ]  # fmt: skip
    if not described:
        warnings = "".join(
            f"<li>{escape(w['where'])}: {escape(w['code'])} {escape(w['message'])}</li>"
            for r in sets
            for w in r["sections"]["coverage"]["warnings"]
        )
        return "".join(parts) + (f"<ul>{warnings}</ul>" if warnings else "")
    by_key: dict[tuple[str, str], list[dict[str, Any] | None]] = {}
    for i, r in enumerate(described):
        for row in r["sections"]["coverage"]["items"]:
            by_key.setdefault((row["kind"], row["name"]), [None] * len(described))[i] = row
    head = "".join(
        f'<th colspan="4" style="color:{COLOURS[i % 2]}">{escape(r["label"])}</th>'
        for i, r in enumerate(described)
    )
    sub = "<th>open</th><th>taken when open</th><th>win rate taken / not</th><th>flags</th>"
    rows = []
    columns = 1 + 4 * len(described)
    last_kind = None
    for (kind, name), cells in by_key.items():
        if kind != last_kind:
            rows.append(f'<tr class="kind"><th colspan="{columns}">{escape(kind)}</th></tr>')
            last_kind = kind
        tds = []
        for row in cells:
            if row is None:
                tds.append('<td colspan="4">not in this rule set</td>')
                continue
            rate = row["taken_when_open"]["rate"]
            tds.append(
                f"<td>{row['open']}</td>"
                f'<td style="background:{_shade(rate)}">{_pct(rate)}</td>'
                f"<td>{_pct(row['win_rate_taken']['rate'])} / "
                f"{_pct(row['win_rate_not_taken']['rate'])}</td>"
                f'<td class="flag">{escape(", ".join(row["flags"]))}</td>'
            )
        rows.append(f"<tr><td>{escape(name)}</td>{''.join(tds)}</tr>")
    lints = "".join(
        f"<li>{escape(r['label'])}: {escape(x['kind'])} {escape(x['name'])}: "
        f"{escape(x['reason'])}</li>"
        for r in described
        for x in r["sections"]["coverage"]["lints"]
    ) + "".join(
        f"<li>{escape(r['label'])}: {escape(w['where'])}: {escape(w['code'])} "
        f"{escape(w['message'])}</li>"
        for r in sets
        for w in r["sections"]["coverage"]["warnings"]
    )
    parts.append(
        '<p>Counts are player-games; "taken when open" is the share of the player-games where '
        "the item was open in which the player took it.</p>"
        f'<table class="coverage"><tr><th rowspan="2">item</th>{head}</tr>'
        f"<tr>{sub * len(described)}</tr>{''.join(rows)}</table>"
        + (f"<h3>Proved without playing</h3><ul>{lints}</ul>" if lints else "")
    )
    return "".join(parts)


def render_html(data: dict[str, Any]) -> str:
    """The whole page."""
    s = data["settings"]
    sets = data["rule_sets"]
    labels = [r["label"] for r in sets]
    players = s["players"]
    parts = [
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Analysis of {escape(' vs '.join(labels))}</title><style>{STYLE}</style>"
        '</head><body><main data-testid="analysis-report">',
        f"<h1>{escape(sets[0]['title'])}: {escape(' against '.join(labels))}</h1>",
        f'<p class="sub">{s["games"]} paired games per rule set, {players} players, bots '
        f"{escape(', '.join(dict.fromkeys(s['bots'])))}, seeds {s['seed']}{DASH}"
        f"{s['seed'] + s['games'] - 1}. Intervals are 95%: Wilson for rates, Student's t for "
        f"means. Schema {escape(data['schema'])}.</p>",
        _legend(labels),
    ]
    note = seats_note(s["bots"])
    if note:
        parts.append(f'<p class="sub">{escape(note)}</p>')
    for rule_set in sets:
        parts.append(f"<h2>Verdicts: {escape(rule_set['label'])}</h2>")
        parts.append(_verdicts(rule_set["verdicts"]))
    if data["against"]:
        a = data["against"]
        parts.append(f"<h2>{escape(a['label'])} against {escape(a['versus'])}</h2>")
        parts.append(_verdicts(a["verdicts"]))
        rows = "".join(
            f"<tr><td>{escape(name)}</td><td>{d['mean']:+.3f}</td>"
            f"<td>{_num(d['ci95'][0])} {DASH} {_num(d['ci95'][1])}</td>"
            f"<td>{'yes' if d['significant'] else ''}</td></tr>"
            for name, d in a["differences"].items()
        )
        parts.append(
            f"<p>{escape(a['method'])}.</p><table><tr><th>metric</th><th>mean difference</th>"
            f"<th>95% interval</th><th>excludes 0</th></tr>{rows}</table>"
        )
    if players > 1:
        parts.append('<h2>Balance</h2><div class="row"><div>')
        positions = [f"{p + 1}" for p in range(players)]
        parts.append(rate_bars(
            [f"position {p}" for p in positions],
            [[row["win_rate"] for row in r["sections"]["balance"]["positions"]] for r in sets],
            sets[0]["sections"]["balance"]["fair_win_rate"], "Win rate by turn position",
        ))  # fmt: skip
        parts.append("</div><div>")
        parts.append(rate_bars(
            [f"seat {p}" for p in range(players)],
            [[row["win_rate"] for row in r["sections"]["balance"]["seats"]] for r in sets],
            sets[0]["sections"]["balance"]["fair_win_rate"], "Win rate by seat",
        ))  # fmt: skip
        parts.append("</div></div><h2>Drama</h2>")
        parts.append(curves([r["sections"]["drama"]["leader_after_round_wins"] for r in sets],
                            "The leader after round k wins"))  # fmt: skip
    parts.append('<h2>Score structure</h2><div class="row">')
    parts.append(
        distributions(
            [r["sections"]["balance"]["score_distribution"] for r in sets],
            [r["sections"]["scores"]["total"]["mean"] for r in sets],
            "total (per player)",
        )
    )
    names = list(
        dict.fromkeys(c["category"] for r in sets for c in r["sections"]["scores"]["categories"])
    )
    for name in names:
        series, means = [], []
        for r in sets:
            found = [c for c in r["sections"]["scores"]["categories"] if c["category"] == name]
            series.append(found[0]["distribution"] if found else [])
            means.append(found[0]["mean"] if found else None)
        parts.append(distributions(series, means, name.replace("_", " ")))
    parts.append("</div>")
    for r in sets:
        cats = r["sections"]["scores"]["categories"]
        rows = "".join(
            f"<tr><td>{escape(c['category'].replace('_', ' '))}</td><td>{_fixed(c['mean'])}</td>"
            f"<td>{_fixed(c['sd'])}</td><td>{_pct(c['share_of_total'])}</td>"
            f"<td>{_num(c['winners_minus_others']['difference'])}</td>"
            f"<td>{_fixed(c['separation'])}</td></tr>"
            for c in cats
        )
        parts.append(
            f"<h3>{escape(r['label'])}</h3><table><tr><th>category</th><th>mean</th><th>sd</th>"
            "<th>share</th><th>winners \u2212 others</th><th>separation (sd)</th></tr>"
            f"{rows}</table>"
        )
    ladders = [r["skill"] for r in sets]
    if any(ladders):
        parts.append("<h2>Skill ladder</h2>")
        rungs = [f"{x['higher']}\nvs {x['lower']}" for x in (ladders[0] or {"rungs": []})["rungs"]]
        played = [[x["higher_win_share"] if x["played"] else {"rate": None, "ci95": [None, None]}
                   for x in (ladder or {"rungs": []})["rungs"]] for ladder in ladders]  # fmt: skip
        if players > 1:
            parts.append(rate_bars(rungs, played, 0.5, "Higher rung's share of the wins"))
        for r in sets:
            for x in (r["skill"] or {"rungs": []})["rungs"]:
                if not x["played"]:
                    what = f"{x['higher']} vs {x['lower']} skipped ({x['skipped']})"
                    parts.append(f"<p>{escape(r['label'])}: {escape(what)}.</p>")
    parts.append("<h2>Length and branching</h2><table><tr><th></th>"
                 + "".join(f"<th>{escape(label)}</th>" for label in labels) + "</tr>")  # fmt: skip
    for name in ("rounds", "turns", "actions"):
        cells = "".join(f"<td>{_fixed(r['sections']['length'][name]['mean'], 1)}</td>"
                        for r in sets)  # fmt: skip
        parts.append(f"<tr><td>{name} per game</td>{cells}</tr>")
    parts.append("<tr><td>legal actions per decision</td>" + "".join(
        f"<td>{_fixed(r['sections']['length']['branching']['legal_actions']['mean'], 1)}</td>"
        for r in sets) + "</tr></table>")  # fmt: skip
    parts.append("<h2>Rule coverage</h2>" + _coverage(sets))
    parts.append("</main></body></html>\n")
    return "".join(parts)
