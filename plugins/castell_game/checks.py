"""Castell's own rule checks, run after the generic ones pass.

They catch rule files that compile but could not be played as written: a wheel whose tiles and
sectors do not line up, a calendar that needs more festival tiles or size tokens than exist, a
setup that draws more castellers than the bag holds, a local performance tile nobody could ever
complete (proved with the tower solver under the highest ranks, with the whole bag as the team).
"""

from __future__ import annotations

from castell_dsl.language.diagnostics import Diagnostics, did_you_mean
from castell_dsl.language.ruleset import RuleSet

from .tables import calendar_spaces, tower_rules


def check_castell(rules: RuleSet, diags: Diagnostics) -> None:
    _check_sizes(rules, diags)
    _check_setup(rules, diags)
    _check_wheel(rules, diags)
    _check_calendar(rules, diags)
    _check_skills(rules, diags)
    if not diags.has_errors:
        _check_performances(rules, diags)
    if not diags.has_errors:
        lint_castell(rules, diags)


# ---- designer lints: what compiles but can never come into play (warnings) ---------------------


def lint_castell(rules: RuleSet, diags: Diagnostics) -> None:
    """Warnings for parts of a valid rule set that no game can ever use: prizes and places
    never awarded, calendar spaces whose festival is never held, festival tiles never drawn,
    skills never trained, size tokens never given (docs/language.md lists the codes)."""
    _lint_prizes(rules, diags)
    _lint_calendar(rules, diags)
    _lint_skills(rules, diags)


def _player_counts(rules: RuleSet) -> range:
    low, high = rules.game.players
    return range(low, high + 1)


def _lint_prizes(rules: RuleSet, diags: Diagnostics) -> None:
    chart = rules.one("prize_chart")
    counts = _player_counts(rules)
    for players in counts:
        row = chart.get(players)
        if row is not None and len(row) > players:
            never = ", ".join(row[players:])
            diags.warning(
                "W0261",
                f"with {players} players the prize chart gives {len(row)} places, but at most "
                f"{players} players compete: {never} is never awarded",
                chart.spans.get(players, chart.span),
                f"give at most {players} prizes for {players} players",
                concerns=[("game", None, "players")],
            )
    awarded = {p for players in counts for p in chart.get(players, ())[:players]}
    for name, prize in rules.named("prize").items():
        if name not in awarded:
            diags.warning(
                "W0262",
                f"prize {name} is never awarded: no row of the prize chart gives it",
                prize.span,
                "add it to the prize chart, or remove it",
                concerns=[("prize_chart", None, None)],
            )


def _festival_rounds(rules: RuleSet, players: int) -> set[int]:
    """The rounds in which the round's `festivals` step runs with this many players."""
    game = rules.game
    out = set()
    for step in rules.one("round"):
        if step.kind != "step" or step.name != "festivals":
            continue
        for number in range(1, game.rounds + 1):
            env = {"round": number, "rounds": game.rounds, "players": players}
            if step.when is None or step.when(env):
                out.add(number)
    return out


def _lint_calendar(rules: RuleSet, diags: Diagnostics) -> None:
    calendar = rules.one("calendar")
    counts = _player_counts(rules)
    backs_used: set[str] = set()
    tokens_given = 0
    for item in calendar.space:
        space = item.value
        used = [p for p in counts if _uses_space(rules, item, p)]
        if used:
            backs_used.add(space.back)
            tokens_given += space.size_tokens
        held = [p for p in used if space.round in _festival_rounds(rules, p)]
        if used and not held:
            diags.warning(
                "W0263",
                f"calendar space in round {space.round} is never scored: the round's "
                f"`festivals` step does not run in round {space.round}",
                space.spans.get("round", item.span),
                "move the space to a round with festivals, or change the round's condition",
                concerns=[("round", None, None)],
            )
    for name, festival in rules.named("festival").items():
        if festival.back not in backs_used:
            diags.warning(
                "W0264",
                f"festival {name} is never drawn: no calendar space has back {festival.back}",
                festival.spans.get("back", festival.span),
                f"add a calendar space with back {festival.back}, or remove the tile",
                concerns=[("calendar", None, None)],
            )
    if tokens_given == 0 and sum(rules.one("size_tokens").values()):
        diags.warning(
            "W0266",
            "no calendar space gives size tokens: the size tokens are never won, and a "
            "category that counts them never scores",
            calendar.span,
            "give some spaces `size_tokens 1` or more",
        )


def _uses_space(rules: RuleSet, item, players: int) -> bool:
    env = {"players": players, "round": 0, "rounds": rules.game.rounds}
    return item.when is None or bool(item.when(env))


def _lint_skills(rules: RuleSet, diags: Diagnostics) -> None:
    tiles = set(rules.one("wheel").tiles)
    needing: dict[str, list[str]] = {}
    for name, tile in rules.named("performance").items():
        for skill in tile.exhibition or ():
            needing.setdefault(skill, []).append(name)
    for name, skill in rules.named("skill").items():
        if name in tiles or skill.max_rank == 0:
            continue
        also = needing.get(name)
        and_tiles = f"; {', '.join(also)} can never be performed" if also else ""
        diags.warning(
            "W0265",
            f"skill {name} can never be trained: no board skill tile on the wheel is {name}"
            f"{and_tiles}",
            skill.span,
            "put a tile of it on the wheel (`wheel { tiles [...] }`), or remove it",
            concerns=[("wheel", None, "tiles")],
        )


def cause_span(record, fields: tuple[str, ...]):
    """Where to point for a problem with these fields: an override's, if one changed them."""
    for name in fields:
        span = record.spans.get(name)
        if span is not None and span.path != record.span.path:
            return span
    return next((record.spans[f] for f in fields if f in record.spans), record.span)


def _check_sizes(rules: RuleSet, diags: Diagnostics) -> None:
    low, high = rules.one("tower").sizes
    for kind in ("bag", "size_tokens"):
        counts = rules.one(kind)
        for number in counts:
            if not low <= number <= high:
                diags.error(
                    "E0211",
                    f"{kind} has number {number}, outside the casteller sizes {low}..{high}",
                    counts.spans.get(number, counts.span),
                    "change the number, or the `sizes` of the tower block",
                )


def _check_setup(rules: RuleSet, diags: Diagnostics) -> None:
    setup = rules.one("setup")
    regions = rules.named("region")
    bag_total = sum(rules.one("bag").values())
    for players, per_region in setup.castellers_per_region.items():
        needed = per_region * len(regions) + players * setup.team
        if needed > bag_total:
            diags.error(
                "E0250",
                f"setup for {players} players draws {needed} castellers, "
                f"but the bag holds {bag_total}",
                setup.castellers_per_region.spans.get(players, setup.span),
                concerns=[("bag", None, None), ("region", None, None), ("game", None, "players")],
            )
    missing = [name for name in regions if name not in setup.refill_order]
    if missing:
        diags.error(
            "E0220",
            f"refill_order does not list {', '.join(missing)}",
            setup.spans.get("refill_order", setup.span),
            "list every region once: it is the order regions are refilled in (C-7.1)",
        )
    performances = len(rules.named("performance"))
    wanted = setup.performances_per_region * len(regions)
    if wanted > performances:
        diags.error(
            "E0250",
            f"setup deals {wanted} local performance tiles, but only {performances} exist",
            setup.spans.get("performances_per_region", setup.span),
            concerns=[("performance", None, None), ("region", None, None)],
            patch_hint=(
                f"keep at least {wanted} performance tiles, or `override setup "
                f"{{ performances_per_region {performances // max(1, len(regions))} }}`"
            ),
        )


def _check_wheel(rules: RuleSet, diags: Diagnostics) -> None:
    wheel = rules.one("wheel")
    skills = rules.named("skill")
    grants = dict(wheel.grants or {})
    tile_names = set(skills) | set(grants)
    for tile in wheel.tiles:
        if tile not in tile_names:
            diags.error(
                "E0220",
                f"wheel tile '{tile}' is neither a skill nor a granting tile",
                wheel.spans.get("tiles", wheel.span),
                did_you_mean(tile, tile_names)
                or "tiles are skill names, or names listed in `grants`",
            )
    for tile, action in grants.items():
        if action != "special":
            diags.error(
                "E0220",
                f"wheel tile '{tile}' grants '{action}', but only a special action can be granted",
                wheel.spans.get("grants", wheel.span),
            )
    regions = rules.named("region")
    specials = set(wheel.shared_sectors) | set(wheel.blank_sectors)
    for sector in wheel.sectors:
        if sector not in regions and sector not in specials:
            diags.error(
                "E0220",
                f"wheel sector '{sector}' is not a region",
                wheel.spans.get("sectors", wheel.span),
                did_you_mean(sector, list(regions) + list(specials))
                or "non-region sectors must be listed in shared_sectors or blank_sectors",
            )
    for region in regions:
        if region not in wheel.sectors:
            diags.error(
                "E0220",
                f"region {region} has no sector on the wheel",
                wheel.spans.get("sectors", wheel.span),
                "every region needs a sector so its players can train (C-4.5)",
                concerns=[("region", region, None)],
                patch_hint=f"`override wheel {{ sectors [… {region} …] tiles [… …] }}` "
                "giving a sector (and a tile) to every region",
            )
    if len(wheel.tiles) != len(wheel.sectors):
        diags.error(
            "E0250",
            f"the wheel has {len(wheel.tiles)} tiles for {len(wheel.sectors)} sectors",
            wheel.spans.get("tiles", wheel.span),
            "each sector holds one tile",
            concerns=[("wheel", None, "sectors"), ("wheel", None, "tiles")],
        )


def _check_calendar(rules: RuleSet, diags: Diagnostics) -> None:
    game = rules.game
    festivals = rules.named("festival")
    backs = {f.back for f in festivals.values()}
    calendar = rules.one("calendar")
    for item in calendar.space:
        space = item.value
        if space.back not in backs:
            diags.error(
                "E0220",
                f"calendar space has back '{space.back}', which no festival tile has",
                space.spans.get("back", space.span),
                did_you_mean(space.back, backs) or f"festival backs: {', '.join(sorted(backs))}",
                concerns=[("festival", None, "back")],
            )
        if space.round > game.rounds:
            diags.error(
                "E0211",
                f"calendar space in round {space.round}, but the game has {game.rounds} rounds",
                space.spans.get("round", space.span),
                concerns=[("game", None, "rounds")],
                patch_hint=(
                    f"add `override calendar {{ … }}` giving all the spaces, in rounds "
                    f"1..{game.rounds} (the inherited calendar has spaces after round "
                    f"{game.rounds}: remove or move them)"
                ),
            )
    tokens = sum(rules.one("size_tokens").values())
    low, high = game.players
    for players in range(low, high + 1):
        spaces = calendar_spaces(rules, players)
        for back in backs:
            need = sum(1 for s in spaces if s.back == back)
            have = sum(1 for f in festivals.values() if f.back == back)
            if need > have:
                diags.error(
                    "E0250",
                    f"with {players} players the calendar has {need} '{back}' spaces, "
                    f"but there are {have} '{back}' festival tiles",
                    calendar.span,
                    concerns=[("festival", None, None), ("game", None, "players")],
                    patch_hint=(
                        f"add '{back}' festival tiles, or `override calendar {{ … }}` with "
                        f"at most {have} '{back}' spaces for {players} players"
                    ),
                )
        need_tokens = sum(s.size_tokens for s in spaces)
        if need_tokens > tokens:
            diags.error(
                "E0250",
                f"with {players} players the calendar needs {need_tokens} size tokens, "
                f"but there are {tokens}",
                calendar.span,
                concerns=[("size_tokens", None, None), ("game", None, "players")],
                patch_hint=(
                    "`override size_tokens { … }` with more tokens, or "
                    "`override calendar { … }` with spaces that need fewer"
                ),
            )


def _check_skills(rules: RuleSet, diags: Diagnostics) -> None:
    seen: dict[str, str] = {}
    for name, skill in rules.named("skill").items():
        if skill.relaxes in seen:
            diags.error(
                "E0204",
                f"skills {seen[skill.relaxes]} and {name} both relax {skill.relaxes}",
                skill.spans.get("relaxes", skill.span),
                "each tower relaxation belongs to one skill",
            )
        seen[skill.relaxes] = name


#: Work allowed for proving one tile (completable or not) with the exact solver: an estimate
#: of its pattern tables (`_proof_cost`). The bundled rules need about 8,700; the solver's time
#: and memory grow with it (a bag of 400 per number reached 8 GB), so beyond it the validator says
#: what it cannot prove instead of trying. Measured: at the cap a proof takes a few seconds.
PROOF_BUDGET = 30_000
#: Diagnostic code for a rule set too large to prove (a value out of the validator's range).
CODE_TOO_LARGE_TO_PROVE = "E0211"
#: Largest witness tower read back from the cache (levels, castellers per level).
_MAX_WITNESS = 64


def _window_patterns(counts: list[int], sizes: tuple[int, ...], spread: int) -> int:
    """How many levels the solver's pattern tables hold: per smallest number p, every choice of
    1..count(p) castellers of p and 0..count(q) of each q in p's Mix window."""
    total = 0
    for p, low in enumerate(sizes):
        n = counts[p]
        for q in range(p + 1, len(sizes)):
            if sizes[q] - low > spread:
                break
            n *= counts[q] + 1
        total += n
    return total


def _proof_cost(counts: list[int], sizes: tuple[int, ...], spread: int, ranks: dict) -> int:
    """An estimate of the solver's work: pattern tables times the deepest rank it explores."""
    return _window_patterns(counts, sizes, spread) * (1 + max(ranks.values(), default=0))


def _tile_ranks(trules, ranks: dict[str, int], tile, team_size: int) -> dict[str, int]:
    """Ranks no higher than the tile can use: a rank above the most uses a tower of the tile's
    height (or width) could make never changes an answer, but makes the search deeper.

    Mix is used at most once per level, Strength and Balance once per adjacent pair, Base once;
    Width uses depend on the widest level (the shape's, or at most the whole team)."""
    height = len(tile.shape) if tile.shape is not None else tile.points
    widest = max(tile.shape) if tile.shape is not None else team_size
    width_uses = max(0, -(-(widest - trules.width_limit) // trules.width_step))
    most = {
        "mixed_sizes": height,
        "equal_size": max(0, height - 1),
        "equal_count": max(0, height - 1),
        "wide_bottom": 1,
        "wider": width_uses,
    }
    by_skill = {skill: most[rid] for rid, skill in trules.relaxations.items() if rid in most}
    return {name: min(rank, by_skill.get(name, height)) for name, rank in ranks.items()}


def _valid_witness(value: object) -> bool:
    """The schema of a cache entry: {"levels": [[int, ...], ...]} of bounded size."""
    if not isinstance(value, dict) or set(value) != {"levels"}:
        return False
    levels = value["levels"]
    return (
        isinstance(levels, list)
        and 0 < len(levels) <= _MAX_WITNESS
        and all(
            isinstance(level, list)
            and 0 < len(level) <= _MAX_WITNESS
            and all(type(x) is int for x in level)
            for level in levels
        )
    )


def _witness_holds(levels, tile, team_counts: dict[int, int], ranks, trules) -> bool:
    """Does this tower prove the tile completable? Re-checked with the tower checker: legal
    under the ranks, built from castellers the bag holds, and of the tile's shape/exhibition.
    A cache entry is only ever such a claim; this is what makes a planted one harmless."""
    from collections import Counter

    from . import towers

    used = Counter(x for level in levels for x in level)
    if any(team_counts.get(number, 0) < n for number, n in used.items()):
        return False
    result = towers.check(levels, ranks, trules)
    if not result.legal:
        return False
    if tile.shape is not None:
        return towers.meets_shape(levels, tile.shape)
    return towers.meets_exhibition(result, tile.exhibition, tile.points)


def _check_performances(rules: RuleSet, diags: Diagnostics) -> None:
    """Every tile must be completable by some team under the highest ranks (C-8).

    Proved with the exact solver, within `PROOF_BUDGET`. A completable tile's witness tower is
    remembered on disk (`castell validate` in CI or a pre-commit hook need not redo searches),
    and re-verified with the tower checker when read back; a "not completable" answer is never
    taken from the cache, so no cache file can change a verdict.
    """
    from castell_dsl import cache

    trules = tower_rules(rules)
    bag = rules.one("bag")
    team_counts = {n: count for n, count in bag.items() if count > 0}
    team_size = sum(team_counts.values())
    ranks = {name: skill.max_rank for name, skill in rules.named("skill").items()}
    context = [
        list(trules.sizes), trules.width_limit, list(trules.skills),
        sorted(trules.relaxations.items()), trules.mix_spread, trules.width_step,
        sorted(bag.items()), sorted(ranks.items()),
    ]  # fmt: skip
    learned: dict[str, dict] = {}
    too_large: list[tuple[str, int]] = []
    for name, tile in rules.named("performance").items():
        has_shape = tile.shape is not None
        question = [tile.shape, tile.exhibition, tile.points]
        key = cache.key_of("tile-feasible-v2", context, question)
        entry = cache.get("feasibility", key, _valid_witness)
        if entry is not None and _witness_holds(entry["levels"], tile, team_counts, ranks, trules):
            possible = True
        else:
            # A shape tower uses exactly sum(shape) castellers: more of one number never helps.
            cap = sum(tile.shape) if has_shape else team_size
            counts = [min(team_counts.get(n, 0), cap) for n in trules.sizes]
            tile_ranks = _tile_ranks(trules, ranks, tile, team_size)
            if _proof_cost(counts, trules.sizes, trules.mix_spread, tile_ranks) > PROOF_BUDGET:
                too_large.append((name, _largest_provable(trules, tile_ranks)))
                continue
            from . import solver  # only when no remembered witness holds

            team = [n for n, count in zip(trules.sizes, counts, strict=True) for _ in range(count)]
            if has_shape:
                found = solver.complete_shape(team, tile_ranks, trules, tile.shape)
            else:
                found = solver.complete_exhibition(
                    team, tile_ranks, trules, tile.exhibition, tile.points
                )
            possible = found is not None
            if found is not None:
                learned[key] = {"levels": [list(level) for level in found.levels]}
        if has_shape:
            what = "shape " + "-".join(map(str, tile.shape))
        else:
            what = f"exhibition of {', '.join(tile.exhibition)} in {tile.points} levels"
        if not possible:
            diags.error(
                "E0260",
                f"no team could ever complete performance {name} ({what})",
                cause_span(tile, ("shape", "exhibition", "points")),
                "even the whole bag with every skill at its highest rank cannot build it",
            )
    if too_large:
        _report_too_large(rules, trules, too_large, diags)
    cache.put_many("feasibility", learned, _valid_witness)


def _largest_provable(trules, tile_ranks: dict[str, int]) -> int:
    """The most castellers of each number for which a tile's proof stays within the budget."""
    best = 0
    for per_number in range(1, PROOF_BUDGET + 1):
        counts = [per_number] * len(trules.sizes)
        if _proof_cost(counts, trules.sizes, trules.mix_spread, tile_ranks) > PROOF_BUDGET:
            break
        best = per_number
    return best


def _report_too_large(rules: RuleSet, trules, too_large: list[tuple[str, int]], diags) -> None:
    """One diagnostic for every tile the budget did not allow proving."""
    names = ", ".join(name for name, _ in too_large[:5]) + (", …" if len(too_large) > 5 else "")
    per_number = min(n for _, n in too_large)
    if per_number >= 1:
        bag = rules.one("bag")
        diags.error(
            CODE_TOO_LARGE_TO_PROVE,
            "bag too large to prove tile feasibility: "
            f"at most {per_number} castellers per number with mix_spread {trules.mix_spread} "
            f"and these ranks (tiles {names})",
            cause_span(bag, tuple(bag)),
            "the validator proves every tile with an exact search, whose cost grows with the "
            "bag, mix_spread and the ranks; use a smaller bag, or lower max_rank",
        )
    else:
        tower = rules.one("tower")
        diags.error(
            CODE_TOO_LARGE_TO_PROVE,
            f"tower rules too permissive to prove tile feasibility (mix_spread "
            f"{trules.mix_spread}, highest ranks; tiles {names})",
            tower.spans.get("mix_spread", tower.span),
            "the exact search cannot prove these tiles within its budget; use a smaller "
            "mix_spread or lower max_rank",
        )
