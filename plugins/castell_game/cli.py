"""`castell tower`: ask the tower checker and the solver from the command line.

    castell tower check 5,5,5/4,4/3 --rank balance=1 [--needs mix,strength] [--shape 3-2-1]
    castell tower best --team 1,2,2,5,6,6,6 --rank width=2 --size 6 --min-levels 4

Exit codes: 0 legal (and meets what was asked) / a tower found, 1 illegal / not met / none
found, 2 bad input (one line on standard error, never a traceback). `--format json` prints the
stable contracts of `castell_game.api.check_tower` and `best_tower`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NoReturn, cast

import click

if TYPE_CHECKING:
    from castell_dsl.contract import Record

    from .logic import CastellLogic

EXIT_OK, EXIT_NO, EXIT_USAGE = 0, 1, 2


class BadInput(Exception):
    """One line telling the user what to fix."""


def _fail(ctx: click.Context, message: str) -> NoReturn:
    click.echo(f"castell {ctx.command_path.split(' ', 1)[1]}: error: {message}", err=True)
    ctx.exit(EXIT_USAGE)


def _logic(rules_name: str) -> CastellLogic:
    from castell_dsl.language.diagnostics import RuleError
    from castell_dsl.runtime.games import logic_for
    from castell_dsl.runtime.loading import load_rules

    from .arguments import TowerArgumentError, tower_rule_set

    try:
        # The tower command is Castell's own: its rule sets run on Castell's logic.
        return cast("CastellLogic", logic_for(tower_rule_set(load_rules(rules_name))))
    except RuleError as exc:
        raise BadInput(f"cannot load rules '{rules_name}': {exc}") from None
    except TowerArgumentError as exc:
        raise BadInput(str(exc)) from None


def parse_ranks(values: tuple[str, ...], logic: CastellLogic) -> dict[str, int]:
    from castell_dsl.language.diagnostics import did_you_mean

    ranks: dict[str, int] = {}
    for item in values:
        name, sep, number = item.partition("=")
        if not sep:
            raise BadInput(f"--rank takes SKILL=N, e.g. balance=2 (got '{item[:40]}')")
        if name not in logic.skills:
            hint = did_you_mean(name, logic.skills)
            raise BadInput(
                f"unknown skill '{name[:40]}'"
                + (f"; {hint}" if hint else f" (skills: {', '.join(logic.skills)})")
            )
        try:
            rank = int(number)
        except ValueError:
            raise BadInput(
                f"the rank of {name} must be a whole number (got '{number[:40]}')"
            ) from None
        if rank < 0:
            raise BadInput(f"the rank of {name} cannot be negative (got {str(rank)[:40]})")
        highest = logic.max_rank[logic.skill_index[name]]
        if rank > highest:
            raise BadInput(f"the rank of {name} is at most {highest} (got {str(rank)[:40]})")
        ranks[name] = rank
    return ranks


def parse_needs(value: str | None, logic: CastellLogic) -> list[str] | None:
    if value is None:
        return None
    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names:
        raise BadInput("--needs takes skill names separated by commas, e.g. mix,strength")
    for name in names:
        if name not in logic.skills:
            raise BadInput(f"unknown skill '{name}' in --needs (skills: {', '.join(logic.skills)})")
    return names


def parse_shape(value: str | None) -> list[int] | None:
    if value is None:
        return None
    parts = value.split("-")
    if not all(p.isascii() and p.isdigit() and len(p) <= 9 and int(p) > 0 for p in parts):
        raise BadInput(
            f"--shape takes castellers per level, bottom first, e.g. 4-3-2-1 (got '{value[:40]}')"
        )
    return [int(p) for p in parts]


def parse_team(value: str, limit: int) -> list[int]:
    items = [i.strip() for i in value.split(",")]
    if not value.strip() or not all(items):
        raise BadInput("--team needs at least one casteller number, e.g. --team 1,2,2,5")
    if len(items) > limit:
        raise BadInput(f"--team has {len(items):,} castellers (the bag holds {limit:,})")
    for item in items:
        if not (item.isascii() and item.isdigit()) or len(item) > 9:
            raise BadInput(f"'{item[:20]}' in --team is not a casteller number")
    return [int(i) for i in items]


def _draw(levels: list[list[int]]) -> str:
    from .notation import draw_tower

    return "\n".join(draw_tower(levels))


def _uses_text(uses: dict[str, int], logic: CastellLogic) -> str:
    used = [f"{logic.titles[s]} {n}" for s, n in uses.items() if n]
    return ", ".join(used) if used else "no skills"


@click.group()
def tower() -> None:
    """Check towers and find the best one (C-5, C-6, C-9)."""


def parse_tile(value: str, logic: CastellLogic) -> Record:
    """A local performance tile of the rule set, by name (any case)."""
    index = logic.tile_index.get(value.strip().lower())
    if index is None:
        from castell_dsl.language.diagnostics import did_you_mean

        hint = did_you_mean(value.strip(), logic.tile_names)
        raise BadInput(
            f"there is no local performance tile '{value}'" + (f"; {hint}" if hint else "")
        )
    return logic.tiles[index]


def exhibition(needs: list[str], n_levels: int) -> Record:
    """An exhibition asked on the command line, as a tile record: these skills used at once in
    a tower of `n_levels` levels (the points of an exhibition tile are its levels, C-8.4)."""
    from castell_dsl.contract import Record, Span

    fields = {"shape": None, "exhibition": tuple(needs), "points": n_levels}
    return Record(
        "performance", f"exhibition of {','.join(needs)}", fields, Span.point("<command line>")
    )


@tower.command("check")
@click.argument("levels")
@click.option("--rank", "ranks", multiple=True, metavar="SKILL=N", help="A skill rank (default 0).")
@click.option("--tile", metavar="LP07", help="Does the tower complete this tile (C-8)?")
@click.option("--needs", metavar="SKILL,SKILL", help="Skills an exhibition needs used at once.")
@click.option(
    "--levels", "n_levels", type=click.IntRange(min=1), metavar="N",
    help="With --needs: the exhibition's levels (its points; exactly or at least, as the "
    "rule set's exhibition_levels says).",
)  # fmt: skip
@click.option("--shape", metavar="4-3-2-1", help="Castellers per level a shape tile needs.")
@click.option("--rules", "rules_name", default="castell", show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.pass_context
def check_command(
    ctx: click.Context,
    levels: str,
    ranks: tuple[str, ...],
    tile: str | None,
    needs: str | None,
    n_levels: int | None,
    shape: str | None,
    rules_name: str,
    fmt: str,
) -> None:
    """Is the tower LEVELS legal? LEVELS bottom first: 5,5,5/4,4/3.

    --tile asks whether it completes a local performance tile of the rules; --needs with
    --levels an exhibition (the skills used at once, in that many levels), --shape a shape.
    """
    from .notation import NotationError, parse_levels

    try:
        logic = _logic(rules_name)
        parsed = parse_levels(levels)
        rank_map = parse_ranks(ranks, logic)
        need_list = parse_needs(needs, logic)
        shape_list = parse_shape(shape)
        tiles = [parse_tile(tile, logic)] if tile is not None else []
        if need_list is not None:
            if n_levels is None:
                raise BadInput(
                    "an exhibition is completed by a tower of a number of levels (its points): "
                    "give --levels N with --needs, or name the tile with --tile"
                )
            tiles.append(exhibition(need_list, n_levels))
        elif n_levels is not None:
            raise BadInput("--levels goes with --needs (an exhibition's skills)")
    except (BadInput, NotationError) as exc:
        _fail(ctx, str(exc))
        return
    result = logic.check_tower_dict(parsed, rank_map, None, shape_list)
    asked = [f"shape {shape}"] if shape else []
    for record in tiles:  # what completing a tile means is the game's one rule (C-8)
        shortfall = logic.tile_shortfall(parsed, rank_map, record)
        result["meets"] = result.get("meets", True) and shortfall is None
        if shortfall is not None:
            result.setdefault("why", []).append(shortfall)
        asked.append(record.name)
    ok = result["legal"] and result.get("meets", True)
    if fmt == "json":
        click.echo(json.dumps(result))
    else:
        click.echo(_draw([list(level) for level in parsed]))
        if result["legal"]:
            click.echo(f"legal: uses {_uses_text(result['uses'], logic)}")
        else:
            click.echo(f"illegal: {result['reason']}")
        if "meets" in result:
            click.echo(f"{'meets' if result['meets'] else 'does not meet'} {' and '.join(asked)}")
            for why in result.get("why", ()) if result["legal"] else ():
                click.echo(why)
    ctx.exit(EXIT_OK if ok else EXIT_NO)


@tower.command("best")
@click.option("--team", required=True, metavar="N,N,...", help="The castellers, e.g. 1,2,2,5.")
@click.option("--rank", "ranks", multiple=True, metavar="SKILL=N", help="A skill rank (default 0).")
@click.option("--size", "sizes", multiple=True, type=int, metavar="N", help="A festival size.")
@click.option("--min-levels", default=1, show_default=True, type=click.IntRange(min=1))
@click.option("--shape", metavar="4-3-2-1", help="Find a tower of this shape.")
@click.option("--needs", metavar="SKILL,SKILL", help="Find a tower using these skills.")
@click.option("--rules", "rules_name", default="castell", show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.pass_context
def best_command(
    ctx: click.Context,
    team: str,
    ranks: tuple[str, ...],
    sizes: tuple[int, ...],
    min_levels: int,
    shape: str | None,
    needs: str | None,
    rules_name: str,
    fmt: str,
) -> None:
    """The best tower a team can build: most levels + castellers of the --size numbers.

    Ties are broken by more matching castellers, then fewer skill uses, then the largest
    tower comparing levels bottom-up.
    """
    from .arguments import most_castellers

    try:
        logic = _logic(rules_name)
        team_list = parse_team(team, most_castellers(logic.rules))
        rank_map = parse_ranks(ranks, logic)
        need_list = parse_needs(needs, logic)
        shape_list = parse_shape(shape)
    except BadInput as exc:
        _fail(ctx, str(exc))
        return
    from .api import best_tower_checked

    try:
        result = best_tower_checked(
            logic.tower_rules, team_list, rank_map, list(sizes), min_levels, shape_list, need_list
        )
    except ValueError as exc:  # a casteller number the game does not have
        _fail(ctx, str(exc))
        return
    if fmt == "json":
        click.echo(json.dumps(result))
    elif result["found"]:
        click.echo(_draw(result["levels"]))
        click.echo(f"score {result['score']}: uses {_uses_text(result['uses'], logic)}")
    else:
        click.echo("no tower meets these conditions with this team and these ranks")
    ctx.exit(EXIT_OK if result["found"] else EXIT_NO)
