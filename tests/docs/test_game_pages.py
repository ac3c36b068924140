"""The players' pages `plugins/castell_game/pages/castell.md` and
`plugins/calico_game/pages/calico.md` stay true.

(a) Every rule ID cited in the rule files (`rules/**/*.castell`) and the tests
    (`tests/**/*.py`) is defined on its game's page, in bold (`**C-4.3**`, `**K-5.2**`).
(b) Every rule ID of the shared rules reference (`../shared/rules/*.md`, read-only in CI) is
    defined on its page, and the pages define no ID the reference does not have. Skipped,
    with a message, where `../shared` is absent.
(c) Every example in a ```castell-action``` block parses with the engine
    (`new_game(...).parse`), and every line of a ```castell-session``` block is legal when
    replayed in order from the start of the seeded game its fence names.
Also: each `##` section (a `help TOPIC` candidate) is at most 60 lines, the expected topic
slugs exist, and README.md links both pages.

A `C-…` ID belongs to the Castell page, a `K-…` ID to the Calico page.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from pathlib import Path

import pytest

from castell_dsl import load_rules, new_game
from castell_dsl.contract import ActionError

REPO = Path(__file__).resolve().parents[2]
PAGES = {
    "C": REPO / "plugins" / "castell_game" / "pages" / "castell.md",
    "K": REPO / "plugins" / "calico_game" / "pages" / "calico.md",
}
#: Which rule set a page's examples are read with, unless the fence says `rules=…`.
PAGE_RULES = {"castell.md": "castell", "calico.md": "calico"}
SHARED_RULES = REPO.parent / "shared" / "rules"

#: A rule ID: `C-4`, `C-4.3`, `C-6.3a`, `K-5.2`.
RULE_ID = re.compile(r"\b([CK]-\d+(?:\.\d+[a-z]?)?)\b")
#: A rule ID defined on a page: in bold.
DEFINED_ID = re.compile(r"\*\*([CK]-\d+(?:\.\d+[a-z]?)?)\*\*")
#: Fenced example blocks: ```castell-action [key=value …]``` or ```castell-session …```.
FENCE = re.compile(r"^```(castell-action|castell-session)([^\n]*)\n(.*?)^```", re.M | re.S)

#: IDs cited somewhere that no rules reference defines, so the pages cannot define them either.
#: Each entry says where and why; an entry that is no longer cited (or is now defined) fails
#: `test_known_dangling_citations_are_still_dangling`, so the list cannot go stale.
KNOWN_DANGLING = {
    "K-9": "tests/golden/test_seeded_simulations.py cites the range 'K-1 … K-9'; the Calico "
    "rules reference ends at K-8",
}

MAX_SECTION_LINES = 60
TOPICS = {
    "castell.md": {
        "rules", "components", "setup", "round", "actions", "notation", "example-turns",
        "towers", "skills", "wheel", "local-performances", "festivals", "prizes",
        "size-tokens", "scoring", "variants",
    },
    "calico.md": {
        "rules", "components", "board", "setup", "turn", "notation", "example-turns",
        "market", "design-goals", "cats", "buttons", "scoring", "variants", "scenarios",
    },
}  # fmt: skip


# ---- helpers ------------------------------------------------------------------------------------
def page_text(prefix: str) -> str:
    return PAGES[prefix].read_text(encoding="utf-8")


def defined_ids(prefix: str) -> set[str]:
    return {i for i in DEFINED_ID.findall(page_text(prefix)) if i.startswith(prefix)}


def cited_ids() -> dict[str, list[str]]:
    """Rule ID -> the places (`path:line`) citing it in the rule files and the tests."""
    where: dict[str, list[str]] = defaultdict(list)
    files = sorted((REPO / "rules").glob("**/*.castell")) + sorted((REPO / "tests").glob("**/*.py"))
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for rule_id in RULE_ID.findall(line):
                where[rule_id].append(f"{path.relative_to(REPO)}:{number}")
    return where


def sections(path: Path) -> list[tuple[str, str, int]]:
    """(heading, slug, number of lines) of each `##` section; headings in code are skipped."""
    out: list[list] = []
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if not in_code and line.startswith("## "):
            heading = line[3:].strip()
            out.append([heading, slug(heading), []])
        elif out:
            out[-1][2].append(line)
    result = []
    for heading, name, body in out:
        while body and not body[-1].strip():
            body.pop()
        result.append((heading, name, 1 + len(body)))
    return result


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to `-`."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def example_blocks(path: Path) -> list[tuple[str, dict[str, str], list[str]]]:
    """(kind, fence options, lines) of each example block of a page."""
    blocks = []
    for kind, info, body in FENCE.findall(path.read_text(encoding="utf-8")):
        options = dict(word.split("=", 1) for word in info.split() if "=" in word)
        options.setdefault("rules", PAGE_RULES[path.name])
        lines = [x.strip() for x in body.splitlines()]
        blocks.append((kind, options, [x for x in lines if x and not x.startswith("#")]))
    return blocks


@functools.cache
def rules_for(name: str, variants: tuple[str, ...] = ()):
    return load_rules(name, variants)


def parse_problem(rules: str, text: str, variants: tuple[str, ...] = ()) -> str | None:
    """Why `text` is not a readable action of `rules` (None if it is): it must parse, be of
    the kind its first word names, and its canonical text must read back as the same action."""
    game = new_game(rules_for(rules, variants), players=2, seed=0)
    try:
        action = game.parse(text)
    except ActionError as exc:
        return f"{text!r} does not parse: {exc}"
    if action.kind != text.split()[0].lower():
        return f"{text!r} parsed as a {action.kind!r} action"
    try:
        again = game.parse(action.text)
    except ActionError as exc:
        return f"{text!r}: its canonical form {action.text!r} does not parse: {exc}"
    if again != action:
        return f"{text!r}: its canonical form {action.text!r} reads as another action"
    return None


def replay_problem(options: dict[str, str], lines: list[str]) -> str | None:
    """Why replaying `lines` from the start of the seeded game fails (None if all legal)."""
    variants = tuple(v for v in options.get("variants", "").split(",") if v)
    game = new_game(
        rules_for(options["rules"], variants),
        players=int(options.get("players", "2")),
        seed=int(options.get("seed", "0")),
    )
    for number, line in enumerate(lines, 1):
        rejection = game.explain(line)
        if rejection is not None:
            return f"line {number} {line!r} is not legal there: {rejection.message}"
        game.apply(line)
    return None


def all_examples():
    for prefix, path in PAGES.items():
        for index, (kind, options, lines) in enumerate(example_blocks(path)):
            yield pytest.param(path.name, kind, options, lines, id=f"{prefix}-{kind}-{index}")


# ---- (a) cited IDs are defined ------------------------------------------------------------------
@pytest.mark.parametrize("prefix", sorted(PAGES))
def test_every_cited_rule_id_is_defined_on_its_page(prefix):
    """(a) C-1 … C-10 and K-1 … K-8 as cited in rules/**/*.castell and tests/**/*.py: each
    is defined in bold on plugins/castell_game/pages/castell.md (C-…) or
    plugins/calico_game/pages/calico.md (K-…)."""
    defined = defined_ids(prefix)
    cited = cited_ids()
    missing = {
        rule_id: places
        for rule_id, places in cited.items()
        if rule_id.startswith(prefix) and rule_id not in defined and rule_id not in KNOWN_DANGLING
    }
    assert not missing, f"rule IDs cited but not defined (as **ID**) in {PAGES[prefix].name}:\n" + (
        "\n".join(f"  {i}: cited at {', '.join(p[:3])}" for i, p in sorted(missing.items()))
    )


def test_known_dangling_citations_are_still_dangling():
    """(a) The KNOWN_DANGLING exceptions are still cited outside this file and still undefined
    on their page; otherwise the entry must be removed."""
    cited = cited_ids()
    this_file = str(Path(__file__).resolve().relative_to(REPO))
    for rule_id, why in KNOWN_DANGLING.items():
        elsewhere = [p for p in cited.get(rule_id, []) if not p.startswith(this_file)]
        assert elsewhere, f"{rule_id} is no longer cited ({why}): remove it from KNOWN_DANGLING"
        assert rule_id not in defined_ids(rule_id[0]), (
            f"{rule_id} is now defined on its page: remove it from KNOWN_DANGLING"
        )


def test_id_checker_sees_a_missing_definition():
    """(a) The checker itself: C-4.3 is found defined; an invented ID is not."""
    assert "C-4.3" in defined_ids("C")
    assert "C-" + "99.9" not in defined_ids("C")  # split, so this file does not cite it
    assert RULE_ID.findall("see C-6.3a and K-5.2.") == ["C-6.3a", "K-5.2"]


# ---- (b) the shared reference's IDs are defined -------------------------------------------------
def shared_ids() -> set[str]:
    if not SHARED_RULES.is_dir():
        pytest.skip(
            f"the shared rules reference is not here ({SHARED_RULES}); CI mounts it read-only at "
            "../shared relative to the repository root: skipping the check of its rule IDs"
        )
    ids: set[str] = set()
    for path in sorted(SHARED_RULES.glob("*.md")):
        ids.update(RULE_ID.findall(path.read_text(encoding="utf-8")))
    return ids


@pytest.mark.parametrize("prefix", sorted(PAGES))
def test_every_shared_rule_id_is_defined_on_its_page(prefix):
    """(b) Every C-… ID of ../shared/rules/castell.md and every K-… ID of calico.md (C-1.1 …
    C-10.7, K-1.1 … K-8.5) is defined in bold on the players' page."""
    wanted = {i for i in shared_ids() if i.startswith(prefix)}
    assert wanted, f"no {prefix}- IDs found in {SHARED_RULES}"
    missing = sorted(wanted - defined_ids(prefix))
    assert not missing, f"{PAGES[prefix].name} does not define: {', '.join(missing)}"


@pytest.mark.parametrize("prefix", sorted(PAGES))
def test_pages_define_no_rule_id_the_reference_lacks(prefix):
    """(b) The pages invent no rule IDs: each bold C-…/K-… is one of the shared reference."""
    extra = sorted(defined_ids(prefix) - shared_ids())
    assert not extra, f"{PAGES[prefix].name} defines IDs the rules reference lacks: {extra}"


# ---- (c) the action examples parse, the sessions are legal --------------------------------------
@pytest.mark.parametrize(("page", "kind", "options", "lines"), list(all_examples()))
def test_action_examples_work(page, kind, options, lines):
    """(c) Castell C-4.2 to C-4.9, C-5.6, C-8 and Calico K-2.2, K-3.2, K-3.3: each example of a
    castell-action block parses as its kind; each castell-session replays legally."""
    assert lines, f"an empty {kind} block in {page}"
    variants = tuple(v for v in options.get("variants", "").split(",") if v)
    if kind == "castell-action":
        problems = [p for line in lines if (p := parse_problem(options["rules"], line, variants))]
        assert not problems, "\n".join(problems)
    else:
        problem = replay_problem(options, lines)
        assert problem is None, f"{page} session {options}: {problem}"


@pytest.mark.parametrize("prefix", sorted(PAGES))
def test_examples_cover_every_action_kind(prefix):
    """(c) The pages show every action of their game (Castell C-4.2: move, recruit, train,
    special, tower, end; Calico K-2.2, K-3.2, K-3.3: goals, place, take)."""
    path = PAGES[prefix]
    blocks = example_blocks(path)
    assert {kind for kind, _o, _l in blocks} == {"castell-action", "castell-session"}
    game = new_game(rules_for(PAGE_RULES[path.name]), players=2, seed=0)
    kinds = {plan.kind for plans in game.plan.turns.values() for plan in plans}
    shown = {line.split()[0].lower() for _k, _o, lines in blocks for line in lines}
    assert kinds <= shown, f"{path.name} shows no example of: {sorted(kinds - shown)}"


def test_example_checkers_can_fail():
    """(c) The checkers reject what is wrong: an unknown region or action (C-4.3), a bad
    tower (C-5), a hex without a row (K-3.2), and a session line that is not legal yet
    (recruit before the pawn is placed, C-4.3/C-4.4)."""
    assert parse_problem("castell", "move Madrid")
    assert parse_problem("castell", "fly Girona")
    assert parse_problem("castell", "tower 5,a/4")
    assert parse_problem("castell", "special perform LP99 tower 3,3,3/2,2/1")
    assert parse_problem("calico", "place pink/vines 3")
    assert parse_problem("calico", "take pink")
    assert parse_problem("castell", "move Girona") is None
    seed_27 = {"rules": "castell", "seed": "27", "players": "2"}
    assert replay_problem(seed_27, ["recruit 3"])
    assert replay_problem(seed_27, ["move Lleida"]) is None


# ---- sections as help topics --------------------------------------------------------------------
@pytest.mark.parametrize("page", sorted(TOPICS))
def test_sections_are_help_topics(page):
    """Each page's `##` sections have unique slugs, include the expected topics and are at most
    60 lines, so `help TOPIC` can print one (C-… and K-… rules are grouped by topic)."""
    path = next(p for p in PAGES.values() if p.name == page)
    found = sections(path)
    slugs = [name for _h, name, _n in found]
    assert len(slugs) == len(set(slugs)), f"duplicate section slugs in {page}: {slugs}"
    assert TOPICS[page] <= set(slugs), f"{page} lacks topics {sorted(TOPICS[page] - set(slugs))}"
    long = [(h, n) for h, _s, n in found if n > MAX_SECTION_LINES]
    assert not long, f"sections over {MAX_SECTION_LINES} lines in {page}: {long}"


def test_readme_links_the_pages():
    """README.md's "How to play" links both pages."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "### How to play" in readme
    for path in PAGES.values():
        assert f"]({path.relative_to(REPO).as_posix()}" in readme


#: `[default] C-4.3, C-4.7 b:` in a rule file's comment, or `K-2.2 [default]`: the rule IDs whose
#: reading is the project's choice.
_IDS = r"((?:[CK]-\d+(?:\.\d+[a-z]?)?(?:\s+[a-z]\b)?(?:,\s*)?)+)"
DEFAULT_AFTER = re.compile(r"\[default\]\s+" + _IDS)
DEFAULT_BEFORE = re.compile(_IDS + r"\s*\[(?:public errata, )?default\]")


def defaulted_readings() -> list[tuple[str, str]]:
    """(rule ID, `file:line`) of every rule a rule file's comment marks as read by default."""
    out = []
    for path in sorted((REPO / "rules").glob("**/*.castell")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern in (DEFAULT_AFTER, DEFAULT_BEFORE):
                for match in pattern.finditer(line):
                    for rule_id in RULE_ID.findall(match.group(1)):
                        out.append((rule_id, f"{path.relative_to(REPO)}:{number}"))
    return out


@pytest.mark.parametrize(("rule_id", "where"), defaulted_readings())
def test_every_default_reading_is_explained_on_the_players_page(rule_id, where):
    """A [default] reading in a rule file (C-4.6's granted special action, C-4.7's special move
    before the pawn is placed, …) is told to players where the rule is: the rule's bullet or
    paragraph on the page says it is the project's default."""
    blocks = re.split(r"\n(?=- |\n|\|)", page_text(rule_id[0]))
    assert any(f"**{rule_id}**" in block and "default" in block.lower() for block in blocks), (
        f"{where} reads {rule_id} by default; say so on the players' page"
    )


def test_the_default_readings_are_found():
    found = {rule_id for rule_id, _ in defaulted_readings()}
    assert {"C-4.6", "C-4.3", "C-4.7", "C-8.4", "K-8.3", "K-2.2"} <= found


PERFORM = re.compile(r"special perform (LP\d+) tower ([\d,/]+\d)")


def documented_performances() -> list[tuple[str, str, str]]:
    """(tile, tower, where) of every `special perform` example a player or programmer reads:
    the README, the docs, the players' pages and the game's own help and error texts."""
    files = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    files += sorted((REPO / "plugins" / "castell_game").rglob("*.md"))
    files += sorted((REPO / "plugins" / "castell_game").glob("*.py"))
    out = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for tile, tower in PERFORM.findall(line):
                out.append((tile, tower, f"{path.relative_to(REPO)}:{number}"))
    return out


@pytest.mark.parametrize(("tile", "tower", "where"), documented_performances())
def test_every_documented_performance_completes_its_tile(tile, tower, where):
    """C-8.3, C-8.4: an example of performing a tile shows a tower that completes it (with
    every skill at its highest rank), so a player who copies it is not refused."""
    from castell_game.notation import parse_levels

    game = new_game("castell", players=2)
    logic = game.logic
    ranks = {name: logic.max_rank[i] for i, name in enumerate(logic.skills)}
    record = logic.tiles[logic.tile_index[tile.lower()]]
    assert logic.tile_shortfall(parse_levels(tower), ranks, record) is None, where


def test_the_performance_examples_are_found():
    places = {where.split(":")[0] for _, _, where in documented_performances()}
    assert {
        "README.md",
        "plugins/castell_game/logic.py",
        "plugins/castell_game/special.py",
    } <= places
