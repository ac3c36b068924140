"""From rule files to one ordered set of definitions: `extends`, `include`, `override`, `remove`.

A rule file either stands alone (it has a `game` block) or `extends` another rule set, which it
then patches: it may add definitions, `override` fields of inherited ones and `remove` them.
A variant given with `--variant` is such a patch, applied on top of the chosen rules; several
variants apply in order, and two variants that change the same thing are an error naming both.

The loader works on syntax (it does not know the schema yet: the schema comes from the
mechanics the `game` block names). It keeps every definition's source so that later errors
point at the file and line where the definition, or the override that changed it, was written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import syntax as s
from .diagnostics import Concern, Diagnostic, Diagnostics, Span, did_you_mean
from .parser import parse
from .source import MAX_LOAD_BYTES, Source, read_source, resolve_path
from .text import visible

#: Deepest chain of extends/include; real rule sets use two or three.
MAX_DEPTH = 32
#: Most `include`s expanded for one load: without it a file including another twice, which
#: includes a third twice, ... expands 2**32 times within the depth limit.
MAX_INCLUDES = 256
#: Setting this environment variable to 1 lets `include` and `extends` read any file.
ALLOW_OUTSIDE_ENV = "CASTELL_ALLOW_OUTSIDE_RULE_PATH"
RULE_SUFFIX = ".castell"

#: Parsed files, per process, keyed by (path, size, modification time): `castell validate`
#: reads the base rules once for all the variant files that extend them.
_PARSED: dict[tuple[Path, int, int], tuple[Source, s.RuleFile]] = {}


@dataclass(frozen=True)
class Patch:
    """An `override` applied to a definition, and who wrote it (a file's path, `variant:NAME`)."""

    origin: str
    override: s.Override


@dataclass
class Definition:
    """One top-level definition: its entry as first written and the overrides applied to it,
    in order; `origins` lists who defined and changed it.

    The loader does not merge an override into the entry: what an override does depends on the
    kind of block (keyed or ordered, `FieldType.merge`), which only the schema knows; the
    compiler merges once the mechanics, hence the schema, is known.
    """

    kind: str
    label: str | None
    entry: s.Entry
    origins: list[str] = field(default_factory=list)
    patches: list[Patch] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.kind, self.label)


@dataclass
class Definitions:
    """The ordered definitions of a rule set, with every source file read (for rendering)."""

    items: dict[tuple[str, str | None], Definition] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    #: (kind, label, field) -> name of the variant that changed it, to detect conflicts.
    touched: dict[tuple[str, str | None, str], str] = field(default_factory=dict)
    #: (kind, label, field) -> (origin, where) of the last patch that changed it, for every
    #: patch (a file that `extends`, a variant): field "*" is the whole definition (added,
    #: removed). What `blame` reads to put a diagnostic in the file that caused it.
    changes: dict[tuple[str, str | None, str], tuple[str, Span]] = field(default_factory=dict)

    def copy(self) -> Definitions:
        return Definitions(
            {
                k: replace(v, origins=list(v.origins), patches=list(v.patches))
                for k, v in self.items.items()
            },
            dict(self.sources),
            list(self.files),
            dict(self.touched),
            dict(self.changes),
        )

    def changes_by(self, origins: Iterable[str]) -> list[tuple[tuple[str, str | None, str], Span]]:
        """The changes these origins (a file's path, `variant:NAME`) made, in order."""
        wanted = set(origins)
        return [(key, span) for key, (origin, span) in self.changes.items() if origin in wanted]

    def containing(self, span: Span) -> Definition | None:
        """The definition whose entry (as written, before overrides) contains `span`."""
        for definition in self.items.values():
            if _contains(definition.entry.span, span):
                return definition
        return None


@dataclass
class RulePath:
    """Where rule sets and variants are found by name: the games' directories, then the user's.

    Variant names are per game: a variant is looked up beside the rule set it is for
    (`DIR/variants/NAME.castell` next to `DIR/GAME.castell`), then in the user's directories
    (`CASTELL_RULES_PATH`), so two games may both have a `solo` variant.
    """

    directories: list[Path]
    #: The user's own directories (searched for variants of every game).
    user_directories: list[Path] = field(default_factory=list)

    def find_rules(self, name: str) -> Path | None:
        for directory in self.directories:
            candidate = directory / f"{name}{RULE_SUFFIX}"
            if candidate.is_file():
                return candidate
        return None

    def _variant_dirs(self, rules_files: Sequence[Path]) -> list[Path]:
        if not rules_files:
            return list(self.directories)
        out: list[Path] = []
        for directory in [*(Path(f).parent for f in rules_files), *self.user_directories]:
            if directory not in out:
                out.append(directory)
        return out

    def find_variant(self, name: str, rules_files: Sequence[Path] = ()) -> Path | None:
        """The variant file `name` for the rule set made of `rules_files` (the file and the
        files it extends; any game's variant if empty)."""
        chain = {resolve_path(f) for f in rules_files}
        for directory in self._variant_dirs(rules_files):
            for candidate in (
                directory / "variants" / f"{name}{RULE_SUFFIX}",
                directory / f"{name}{RULE_SUFFIX}",
            ):
                if candidate.is_file() and resolve_path(candidate) not in chain:
                    return candidate
        return None

    def rule_names(self) -> list[str]:
        names: set[str] = set()
        for directory in self.directories:
            names.update(p.stem for p in directory.glob(f"*{RULE_SUFFIX}"))
        return sorted(names)

    def variant_names(self, rules_files: Sequence[Path] = ()) -> list[str]:
        names: set[str] = set()
        for directory in self._variant_dirs(rules_files):
            names.update(p.stem for p in (directory / "variants").glob(f"*{RULE_SUFFIX}"))
        return sorted(names)


def display_path(path: Path) -> str:
    """A path as shown in diagnostics: relative to the working directory when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def _contains(outer: Span, inner: Span) -> bool:
    return (
        outer.path == inner.path
        and (outer.line, outer.column) <= (inner.line, inner.column)
        and (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)
    )


def is_path_like(target: str) -> bool:
    return "/" in target or "\\" in target or target.endswith(RULE_SUFFIX)


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


class Loader:
    """Reads rule files and resolves extends/include into `Definitions`.

    `include` and `extends` read only files inside the rule path (`RulePath.directories`) or
    inside the directory tree of a file the loader was asked to load (the file given on the
    command line, a variant file): a rule file from a pull request must not be able to read
    /etc/passwd or ~/.ssh and show its first line in a diagnostic in a public CI log. Paths are
    resolved (symlinks, `..`) before the check. `allow_outside=True`, or the environment
    variable CASTELL_ALLOW_OUTSIDE_RULE_PATH=1, lifts the confinement; reading still requires
    a regular file (`source.read_capped`).
    """

    def __init__(
        self, rule_path: RulePath, diags: Diagnostics, allow_outside: bool | None = None
    ) -> None:
        self.rule_path = rule_path
        self.diags = diags
        self._cache: dict[Path, s.RuleFile | None] = {}
        self.sources: dict[str, Source] = {}
        if allow_outside is None:
            allow_outside = os.environ.get(ALLOW_OUTSIDE_ENV, "") == "1"
        self.allow_outside = allow_outside
        self._roots: list[Path] = []
        self._includes = 0
        self._bytes = 0  # read by this load, every file counted once (MAX_LOAD_BYTES)

    # -- confinement --
    def _add_root(self, directory: Path) -> None:
        root = resolve_path(directory)
        if root not in self._roots:
            self._roots.append(root)

    def roots(self) -> list[Path]:
        """The directories whose trees `include` and `extends` may read from."""
        roots = list(self._roots)
        for directory in self.rule_path.directories:
            try:
                root = resolve_path(directory)
            except OSError:
                continue
            if root not in roots:
                roots.append(root)
        return roots

    def _admitted(self, target: Path, written: str, span: Span, what: str) -> bool:
        """May `target` (already resolved) be read? If not, say so without reading it."""
        if self.allow_outside or any(_inside(target, root) for root in self.roots()):
            return True
        self.diags.error(
            "E0271",
            f"{what} '{visible(written)}' is outside the rule path and this file's directory: "
            "not read",
            span,
            f"move the file next to the rules, add its directory to CASTELL_RULES_PATH, or set "
            f"{ALLOW_OUTSIDE_ENV}=1 to allow reading any file",
        )
        return False

    # -- files --
    def files_read(self) -> list[Path]:
        """Every file this loader read (for cache invalidation)."""
        return list(self._cache)

    def _parse_file(self, path: Path) -> s.RuleFile | None:
        path = resolve_path(path)
        if path in self._cache:
            return self._cache[path]
        shown = display_path(path)
        try:
            stat = path.stat()
            key: tuple[Path, int, int] | None = (path, stat.st_size, stat.st_mtime_ns)
        except OSError:
            key = None
        if key is not None and self._over_total(key[1], shown):
            self._cache[path] = None
            return None
        if key is not None and key in _PARSED and _PARSED[key][0].path == shown:
            source, tree = _PARSED[key]
            self.sources[shown] = source
            self._cache[path] = tree
            return tree
        read = read_source(path, shown, self.diags)
        parsed: s.RuleFile | None = None
        if read is not None:
            self.sources[shown] = read
            parsed = parse(read, self.diags)
            if parsed is not None and key is not None:
                if len(_PARSED) > 256:
                    _PARSED.clear()
                _PARSED[key] = (read, parsed)
        self._cache[path] = parsed
        return parsed

    def _over_total(self, size: int, shown: str) -> bool:
        """Whether reading `size` more bytes takes this load past `MAX_LOAD_BYTES` (E0107):
        256 includes of files each within the per-file cap would take minutes to parse."""
        self._bytes += size
        if self._bytes <= MAX_LOAD_BYTES:
            return False
        self.diags.error(
            "E0107",
            f"the files of this rule set are larger than {MAX_LOAD_BYTES // 1000} KB in all",
            Span.point(shown),
            "rule sets are small text files; is a large file included?",
        )
        return True

    def load_text(self, text: str, path: str = "<string>") -> Definitions | None:
        """Resolve a rule file given as text (relative includes resolve from the cwd)."""
        self._add_root(resolve_path(path).parent)
        source = Source(path, text)
        self.sources[path] = source
        tree = parse(source, self.diags)
        if tree is None:
            return self._with_sources(Definitions())
        return self._resolve(tree, resolve_path(path), [])

    def load(self, path: Path) -> Definitions:
        """Resolve a rule file and everything it extends or includes."""
        self._add_root(resolve_path(path).parent)
        return self._load(resolve_path(path), [])

    def _load(self, path: Path, stack: list[Path]) -> Definitions:
        tree = self._parse_file(path)
        if tree is None:
            return self._with_sources(Definitions())
        return self._resolve(tree, path, stack)

    def _with_sources(self, defs: Definitions) -> Definitions:
        defs.sources.update(self.sources)
        return defs

    def _resolve(self, tree: s.RuleFile, path: Path, stack: list[Path]) -> Definitions:
        stack = [*stack, path]
        items = self._expand_includes(tree, path, stack)
        extends = [item for item in items if isinstance(item, s.Extends)]
        for extra in extends[1:]:
            self.diags.error(
                "E0275",
                "a rule file extends at most one rule set",
                extra.span,
                f"this file already extends '{extends[0].target}'",
            )
        if extends:
            base_path = self._locate(extends[0].target, path, extends[0].span)
            if base_path is None or self._cycle(base_path, stack, extends[0].span, "extends"):
                base = Definitions()
            else:
                base = self._load(base_path, stack)
            defs = base.copy()
            defs.files.append(tree.path)
            self._apply(defs, items, origin=tree.path, patch=True)
        else:
            defs = Definitions(files=[tree.path])
            self._apply(defs, items, origin=tree.path, patch=False)
        return self._with_sources(defs)

    def _expand_includes(
        self, tree: s.RuleFile, path: Path, stack: list[Path], depth: int = 0
    ) -> list[s.Item]:
        out: list[s.Item] = []
        for item in tree.items:
            if not isinstance(item, s.Include):
                out.append(item)
                continue
            target = resolve_path(path.parent / item.path)
            if not self._admitted(target, item.path, item.span, "included file"):
                continue
            if self._cycle(target, stack, item.span, "include"):
                continue
            if depth >= MAX_DEPTH:
                self.diags.error("E0270", "includes nested too deeply", item.span)
                continue
            self._includes += 1
            if self._includes > MAX_INCLUDES:
                if self._includes == MAX_INCLUDES + 1:
                    self.diags.error(
                        "E0270",
                        f"more than {MAX_INCLUDES} includes in one rule set",
                        item.span,
                        "is a file included repeatedly? include each file once",
                    )
                continue
            included = self._parse_file(target)
            if included is None:
                if not target.exists():
                    what = "does not exist"
                    if target.is_symlink():
                        what = "is a loop of symbolic links"
                    self.diags.error(
                        "E0271",
                        f"included file '{visible(item.path)}' {what}",
                        item.span,
                        f"paths are relative to {display_path(path.parent) or '.'}",
                    )
                continue
            for inner in included.items:
                if isinstance(inner, s.Extends):
                    self.diags.error(
                        "E0275",
                        "an included file cannot use `extends`",
                        inner.span,
                        "put `extends` in the file that includes it",
                    )
            nested = s.RuleFile(included.path, tuple(i for i in included.items))
            out.extend(
                i
                for i in self._expand_includes(nested, target, [*stack, target], depth + 1)
                if not isinstance(i, s.Extends)
            )
        return out

    def _cycle(self, target: Path, stack: Sequence[Path], span: Span, what: str) -> bool:
        if target in stack:
            chain = " → ".join(display_path(p) for p in [*stack[stack.index(target) :], target])
            self.diags.error("E0270", f"cyclic {what}: {chain}", span, "break the cycle")
            return True
        if len(stack) > MAX_DEPTH:
            self.diags.error("E0270", f"{what} chain is deeper than {MAX_DEPTH} files", span)
            return True
        return False

    def _locate(self, target: str, relative_to: Path, span: Span) -> Path | None:
        if is_path_like(target):
            candidate = resolve_path(relative_to.parent / target)
            if not self._admitted(candidate, target, span, "rule file"):
                return None
            if candidate.is_file():
                return candidate
            what = "is a loop of symbolic links" if candidate.is_symlink() else "does not exist"
            self.diags.error(
                "E0271",
                f"rule file '{visible(target)}' {what}",
                span,
                f"paths are relative to {display_path(relative_to.parent) or '.'}",
            )
            return None
        found = self.rule_path.find_rules(target)
        if found is not None:
            found = resolve_path(found)  # a symlink in a rule directory may point anywhere
            if not self._admitted(found, target, span, "rule set"):
                return None
        if found is None:
            names = self.rule_path.rule_names()
            self.diags.error(
                "E0271",
                f"no rule set named '{visible(target)}'",
                span,
                did_you_mean(target, names) or f"known rule sets: {', '.join(names) or 'none'}",
            )
        return found

    # -- applying items --
    def _apply(self, defs: Definitions, items: Iterable[s.Item], origin: str, patch: bool) -> None:
        for item in items:
            if isinstance(item, s.Entry):
                self._define(defs, item, origin, patch)
            elif isinstance(item, s.Override):
                self._override(defs, item, origin)
            elif isinstance(item, s.Remove):
                self._remove(defs, item, origin)

    def _define(self, defs: Definitions, entry: s.Entry, origin: str, patch: bool) -> None:
        key = (entry.key, entry.label)
        existing = defs.items.get(key)
        if existing is not None:
            first = existing.entry.span
            label = f" {entry.label}" if entry.label else ""
            if patch and first.path != entry.span.path:
                hint = (
                    f"it is inherited from {first.path}:{first.line}; "
                    f"write `override {entry.key}{label} {{ ... }}` to change it"
                )
            else:
                hint = f"first defined at {first.path}:{first.line}"
            self.diags.error(
                "E0204",
                f"duplicate definition of {entry.key}{label}",
                entry.label_span or entry.key_span,
                hint,
            )
            return
        defs.items[key] = Definition(entry.key, entry.label, entry, [origin])
        self._touch(defs, entry.key, entry.label, "*", origin, entry.span, patch)

    def _missing(self, defs: Definitions, kind: str, label: str | None, span: Span, verb: str):
        labels = [lbl for (k, lbl) in defs.items if k == kind and lbl]
        shown = f"{kind} {label}" if label else kind
        hint = did_you_mean(label, labels) if label else None
        if hint is None:
            kinds = sorted({k for (k, _) in defs.items})
            hint = did_you_mean(kind, kinds) if kind not in kinds else None
        participle = {"remove": "removed", "override": "overridden"}[verb]
        self.diags.error(
            "E0272",
            f"cannot {verb} {shown}: it is not defined",
            span,
            hint or f"only inherited definitions can be {participle}",
        )

    @staticmethod
    def _find(defs: Definitions, kind: str, label: str | None) -> tuple | None:
        """The key of `kind label`; without a label, the kind's only definition."""
        if (kind, label) in defs.items:
            return (kind, label)
        if label is None:
            keys = [key for key in defs.items if key[0] == kind]
            if len(keys) == 1:
                return keys[0]
        return None

    def _remove(self, defs: Definitions, item: s.Remove, origin: str) -> None:
        targets = item.labels or ((None, item.kind_span),)
        for label, span in targets:
            key = self._find(defs, item.kind, label)
            if key is None:
                self._missing(defs, item.kind, label, span, "remove")
                continue
            del defs.items[key]
            self._touch(defs, item.kind, key[1], "*", origin, span)

    def _override(self, defs: Definitions, item: s.Override, origin: str) -> None:
        found = self._find(defs, item.kind, item.label)
        current = defs.items.get(found) if found is not None else None
        if current is None:
            self._missing(
                defs, item.kind, item.label, item.label_span or item.kind_span, "override"
            )
            return
        new = item.body
        where: dict[str, Span] = {}
        if isinstance(new, s.Block):
            for e in new.entries:
                where.setdefault(e.key, e.span)
        else:
            for i in new.items:
                where.setdefault(_map_key_text(i.key), i.span)
        current.patches.append(Patch(origin, item))
        current.origins.append(origin)
        for name in sorted(where):
            self._touch(defs, item.kind, current.label, name, origin, item.span)
            defs.changes[(item.kind, current.label, name)] = (origin, where[name])

    def _touch(
        self,
        defs: Definitions,
        kind: str,
        label: str | None,
        name: str,
        origin: str,
        span: Span,
        patch: bool = True,
    ) -> None:
        """Record that `origin` changed this; a different variant changing it too conflicts."""
        if patch:
            defs.changes[(kind, label, name)] = (origin, span)
        if not origin.startswith("variant:"):
            return
        for key in ((kind, label, name), (kind, label, "*")):
            other = defs.touched.get(key)
            if other is not None and other != origin:
                shown = f"{kind} {label}" if label else kind
                self.diags.error(
                    "E0273",
                    f"variants '{other.removeprefix('variant:')}' and "
                    f"'{origin.removeprefix('variant:')}' both change {shown}",
                    span,
                    "choose one of them, or write a variant file that combines both changes",
                )
                return
        defs.touched[(kind, label, name)] = origin

    # -- variants --
    def apply_variant(self, defs: Definitions, name: str, path: Path) -> None:
        """Apply a variant file's own definitions as a patch on `defs`."""
        self._add_root(resolve_path(path).parent)
        tree = self._parse_file(path)
        if tree is None:
            return
        items = self._expand_includes(tree, resolve_path(path), [resolve_path(path)])
        extends = [i for i in items if isinstance(i, s.Extends)]
        if not extends:
            self.diags.error(
                "E0275",
                f"variant '{name}' must start with `extends` naming the rules it changes",
                Span.point(display_path(path)),
                'add `extends "castell"` (or the rule set it is for) at the top',
            )
            return
        base = self._locate(extends[0].target, resolve_path(path), extends[0].span)
        if base is not None and display_path(base) not in defs.files:
            self.diags.error(
                "E0274",
                f"variant '{name}' is for '{extends[0].target}', not for these rules",
                extends[0].span,
                f"these rules come from {', '.join(defs.files)}",
            )
            return
        defs.files.append(display_path(path))
        self._apply(defs, items, origin=f"variant:{name}", patch=True)
        defs.sources.update(self.sources)


def key_of(diag: Diagnostic) -> tuple:
    """What makes two diagnostics the same problem at the same place."""
    return (diag.code, diag.span, diag.message)


def _named_change(
    diag: Diagnostic, changes: list[tuple[tuple[str, str | None, str], Span]]
) -> tuple[tuple[str, str | None, str], Span]:
    """The change a diagnostic's message names (`outside the casteller sizes 1..8` names the
    change to `sizes`), else the first change: the patch's doing, but no check said which."""
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", diag.message))
    for key, span in changes:
        _kind, label, name = key
        if name in words or (label is not None and label in words):
            return key, span
    return changes[0]


def _concerned(concern: Concern, key: tuple[str, str | None, str]) -> bool:
    kind, label, name = concern
    return (
        kind == key[0]
        and (label is None or label == key[1])
        and (name is None or key[2] in (name, "*"))
    )


def _shown(kind: str, label: str | None) -> str:
    return f"{kind} {label}" if label else kind


def blame(
    diagnostics: Iterable[Diagnostic],
    defs: Definitions,
    origins: Iterable[str],
    base_own: Callable[[], set[tuple]] | None = None,
) -> list[Diagnostic]:
    """Put each diagnostic about inherited rules in the patch that caused it.

    `origins` are the patches being checked (the file given, if it `extends`, and the
    variants). A diagnostic whose span is in another file (the installed base rules), when
    these patches changed a definition it concerns, moves to the patch's entry that made the
    change: the first of its `concerns` (what the check compared: `override game { rounds 8 }`
    for a calendar space after the last round) the patches changed, else the definition that
    contains the span, if they changed it. Failing both, `base_own` (the diagnostics the base
    has without these patches, as `key_of` keys; asked only when needed) decides: one the base
    does not have is the patches' doing, and moves to the change its message names (a field or
    a name it mentions), else to the patches' first change. Its hint becomes the check's
    `patch_hint` (the fix as a patch) when it has one, and its old place is kept as a note.
    Anything else stays where it is: the base has that problem by itself.
    """
    changes = defs.changes_by(origins)
    own = {span.path for _key, span in changes}
    out: list[Diagnostic] = []
    known: set[tuple] | None = None
    for diag in diagnostics:
        if not changes or diag.span.path in own:
            out.append(diag)
            continue
        inherited = defs.containing(diag.span)
        target = next(
            (
                (key, span)
                for concern in diag.concerns
                for key, span in changes
                if _concerned(concern, key)
            ),
            None,
        )
        if target is None and inherited is not None:
            target = next(((key, span) for key, span in changes if key[:2] == inherited.key), None)
        if target is None and base_own is not None:
            known = base_own() if known is None else known
            if key_of(diag) not in known:
                target = _named_change(diag, changes)
        if target is None:
            out.append(diag)
            continue
        (kind, label, name), span = target
        what = _shown(inherited.kind, inherited.label) if inherited else "the definition"
        changed = _shown(kind, label) + ("" if name == "*" else f" ({name})")
        note = (
            diag.span,
            f"{what} is inherited from here; it does not fit the change to {changed}",
        )
        moved = replace(
            diag, span=span, hint=diag.patch_hint or diag.hint, notes=(note, *diag.notes)
        )
        same = next(
            (
                i
                for i, d in enumerate(out)
                if (d.code, d.span, d.message) == (moved.code, moved.span, moved.message)
            ),
            None,
        )
        if same is None:
            out.append(moved)
        else:  # one diagnostic at the change, with a note per inherited place
            out[same] = replace(out[same], notes=(*out[same].notes, *moved.notes))
    return out


def _map_key_text(key: s.Scalar | s.RangeValue) -> str:
    if isinstance(key, s.RangeValue):
        return f"{key.low}..{key.high}"
    return str(key.value)
