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
            )
    if len(wheel.tiles) != len(wheel.sectors):
        diags.error(
            "E0250",
            f"the wheel has {len(wheel.tiles)} tiles for {len(wheel.sectors)} sectors",
            wheel.spans.get("tiles", wheel.span),
            "each sector holds one tile",
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
            )
        if space.round > game.rounds:
            diags.error(
                "E0211",
                f"calendar space in round {space.round}, but the game has {game.rounds} rounds",
                space.spans.get("round", space.span),
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
                )
        need_tokens = sum(s.size_tokens for s in spaces)
        if need_tokens > tokens:
            diags.error(
                "E0250",
                f"with {players} players the calendar needs {need_tokens} size tokens, "
                f"but there are {tokens}",
                calendar.span,
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


def _check_performances(rules: RuleSet, diags: Diagnostics) -> None:
    """Every tile must be completable by some team under the highest ranks (C-8)."""
    from castell_dsl import cache

    trules = tower_rules(rules)
    bag = rules.one("bag")
    team = [n for n, count in bag.items() for _ in range(count)]
    ranks = {name: skill.max_rank for name, skill in rules.named("skill").items()}
    # The answer depends only on the tower rules, the bag, the ranks and the tile: remembered
    # on disk, so `castell validate` in CI or a pre-commit hook does not redo the searches.
    context = [
        list(trules.sizes), trules.width_limit, list(trules.skills),
        sorted(trules.relaxations.items()), trules.mix_spread, trules.width_step,
        sorted(bag.items()), sorted(ranks.items()),
    ]  # fmt: skip
    learned: dict[str, bool] = {}
    for name, tile in rules.named("performance").items():
        has_shape = tile.shape is not None
        question = [tile.shape, tile.exhibition, tile.points]
        key = cache.key_of("tile-feasible-v1", context, question)
        possible = cache.get("feasibility", key)
        if possible is None:
            from . import solver  # only when the answer is not remembered yet

            if has_shape:
                found = solver.complete_shape(team, ranks, trules, tile.shape)
            else:
                found = solver.complete_exhibition(
                    team, ranks, trules, tile.exhibition, tile.points
                )
            possible = found is not None
            learned[key] = possible
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
    cache.put_many("feasibility", learned)
