"""Loading rule sets by name or path, with variants: the one entry point every command uses.

`load_rules("NAME", variants=("VARIANT",))` finds the rule file through the rule path (the
directories games register through `register_rule_paths`, then `CASTELL_RULES_PATH`), resolves
`extends` and `include`, applies variant files (found beside the rule set they are for, so
variant names are per game), compiles, then lets code variants (`Variant.adjust`) adjust
the result. Compiled rule sets are cached per process, keyed by the files' contents'
modification times, so bots and simulations pay for compilation once.

Every rule set loaded here remembers its `Provenance`: the file actually given (absolute path,
content hash, and the name when it was found by name), each variant, and every file read. A
save records it, so a game played with `--rules my-variant.castell` (a file that `extends`)
is reloaded from that file, from any working directory, and a refusal names the file that
changed rather than only "the rules have changed".
"""

from __future__ import annotations

import hashlib
import os
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..contract import Mechanics, RulesEditor, VariantConflict
from ..language.compiler import compile_rules
from ..language.diagnostics import Diagnostic, Diagnostics, RuleError, Span, did_you_mean
from ..language.loader import (
    Definitions,
    Loader,
    RulePath,
    blame,
    display_path,
    is_path_like,
    key_of,
)
from ..language.ruleset import RuleSet
from ..language.source import Source
from ..language.text import visible
from .plugins import HOOK_FAILURES, PluginError, get_plugins, registries

#: Errors after which compiling would only add noise (a file is missing or unreadable).
FATAL_LOAD_CODES = frozenset(
    [f"E01{n:02d}" for n in range(100)] + ["E0270", "E0271", "E0274", "E0275", "E0280"]
)

#: The code of a rule diagnostic that reports a plugin's failure (not the rule file's).
PLUGIN_FAILED = "E0280"


@dataclass(frozen=True)
class FileIdentity:
    """One file by absolute path and the SHA-256 of its bytes (None: it could not be read)."""

    path: str
    sha256: str | None

    @classmethod
    def of(cls, path: str | os.PathLike) -> FileIdentity:
        resolved = Path(path).resolve()
        return cls(str(resolved), file_sha256(resolved))


@dataclass(frozen=True)
class Provenance:
    """Which files a rule set was compiled from, as played: what saves record.

    `file` is the rule file actually given (for `--rules my-variant.castell`, that file, not
    the base it extends); `bundled` is the rule set's name when it was found by name on the
    rule path (so a reinstalled game is still found); `variants` are (name, file) pairs, the
    file None for a plugin's code variant; `files` is every file read (extends chain,
    includes, variant files), to say which one changed.
    """

    given: str
    file: FileIdentity
    bundled: str | None
    variants: tuple[tuple[str, FileIdentity | None], ...]
    files: tuple[FileIdentity, ...]


def file_sha256(path: str | os.PathLike) -> str | None:
    """The content hash of a file, or None when it cannot be read (gone, unreadable)."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 16), b""):
                digest.update(block)
    except (OSError, ValueError):
        return None
    return "sha256:" + digest.hexdigest()


_PROVENANCE: weakref.WeakKeyDictionary[RuleSet, Provenance] = weakref.WeakKeyDictionary()


def provenance(rules: RuleSet) -> Provenance | None:
    """Where a rule set loaded by `load_report`/`load_rules` came from (None for one built
    another way, e.g. in a test from text)."""
    return _PROVENANCE.get(rules)


def rule_path() -> RulePath:
    """The games' rule directories (from plugins), then the user's (`CASTELL_RULES_PATH`)."""
    directories: list[Path] = []
    found = get_plugins().collect(
        "register_rule_paths",
        accept=lambda item: isinstance(item, (str, os.PathLike)) and "\0" not in str(item),
        expected="a list of directories (str or Path)",
    )
    for result in found:
        path = Path(result)
        if path not in directories:
            directories.append(path)
    users = [Path(raw) for raw in os.environ.get("CASTELL_RULES_PATH", "").split(os.pathsep) if raw]
    return RulePath(directories + [p for p in users if p not in directories], users)


def default_rules() -> str:
    """The rule set commands use when none is given: the one a game plugin names through
    `default_rules` (the core names no game), or the only one installed."""
    named = [n for n in get_plugins().call("default_rules", tolerant=True) if isinstance(n, str)]
    if named:
        return named[0]
    names = rule_path().rule_names()
    if len(names) == 1:
        return names[0]
    diags = Diagnostics()
    diags.error(
        "E0271",
        "no default rule set: name one with --rules",
        Span.point("<command line>"),
        f"rule sets: {', '.join(names)}" if names else "no game is installed",
    )
    raise RuleError(diags.sorted())


def find_mechanics(name: str) -> Mechanics | None:
    return registries().mechanics.get(name)


def mechanics_names() -> list[str]:
    return sorted(registries().mechanics)


@dataclass
class LoadReport:
    """The outcome of loading one rule file: a rule set, or the diagnostics that explain why not."""

    path: str
    rules: RuleSet | None
    diagnostics: list[Diagnostic]
    sources: dict[str, Source] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    #: The resolved definitions, with which patch changed what and where (`rules show --diff`).
    definitions: Definitions | None = None

    @property
    def ok(self) -> bool:
        return self.rules is not None and not any(d.is_error for d in self.diagnostics)

    def source_lines(self, path: str) -> list[str] | None:
        source = self.sources.get(path)
        return source.lines if source is not None else None


def resolve_rules_path(name_or_path: str | os.PathLike, diags: Diagnostics) -> Path | None:
    """A rule set's file from its name (`castell`) or a path (`rules/castell/castell.castell`).

    The resolution order (docs/language.md, "Names and paths"): an argument is a path only when
    it looks like one — it contains a path separator or ends in `.castell` (a `PathLike` always
    is one); anything else is the name of a rule set installed on the rule path. A file or
    directory in the working directory is never consulted for a name, so `castell` means the
    installed game wherever the command is run.
    """
    text = os.fspath(name_or_path)
    if isinstance(name_or_path, os.PathLike) or is_path_like(text):
        candidate = Path(text)
        if candidate.is_file():
            return candidate
        what = "is not a rule file" if candidate.exists() else "does not exist"
        diags.error("E0271", f"'{visible(text)}' {what}", Span.point(text))
        return None
    found = rule_path().find_rules(text)
    if found is None:
        names = rule_path().rule_names()
        hint = did_you_mean(text, names) or f"rule sets: {', '.join(names)}"
        if Path(text).is_file():
            hint += f"; to use the file '{visible(text)}', write ./{visible(text)}"
        diags.error("E0271", f"no rule set named '{visible(text)}'", Span.point(text), hint)
    return found


def find_variant_file(
    name: str, path_rules: RulePath, chain: Sequence[Path], diags: Diagnostics
) -> Path | None:
    """A variant's file: `name` as a path when it looks like one (`./eight-rounds.castell`),
    else by name beside the rules it is for (then in `CASTELL_RULES_PATH`); None, with a
    diagnostic, if not found. As for rule sets, the working directory is never consulted for a
    name."""
    if is_path_like(name):
        candidate = Path(name)
        if candidate.is_file():
            return candidate
        what = "is not a file" if candidate.exists() else "does not exist"
        diags.error(
            "E0274",
            f"variant file '{name}' {what}",
            Span.point("<command line>"),
            "give a variant's name, or the path of a .castell file that `extends` these rules",
        )
        return None
    found = path_rules.find_variant(name, chain)
    if found is None:
        names = sorted(set(registries().variants) | set(path_rules.variant_names(chain)))
        diags.error(
            "E0274",
            f"unknown variant '{name}'",
            Span.point("<command line>"),
            did_you_mean(name, names) or f"variants: {', '.join(names) or 'none'}",
        )
    return found


def load_report(
    name_or_path: str | os.PathLike,
    variants: Sequence[str] = (),
    options: dict[str, Any] | None = None,
) -> LoadReport:
    """Load and compile; never raises for a problem in the rules (see `LoadReport`)."""
    diags = Diagnostics()
    shown = os.fspath(name_or_path)
    path = resolve_rules_path(name_or_path, diags)
    if path is None:
        return LoadReport(shown, None, diags.sorted())
    path_rules = rule_path()
    loader = Loader(path_rules, diags)
    defs = loader.load(path)
    code_variants = []
    variant_files: list[tuple[str, FileIdentity | None]] = []
    known = registries().variants
    chain = [path, *(Path(f) for f in defs.files)]  # variants live beside the rules they change
    for name in variants:
        if name in known:
            code_variants.append(known[name])
            variant_files.append((name, None))
            continue
        variant_file = find_variant_file(name, path_rules, chain, diags)
        if variant_file is None:
            continue
        variant_files.append((name, FileIdentity.of(variant_file)))
        loader.apply_variant(defs, name, variant_file)
    rules = None
    if not any(d.is_error and d.code in FATAL_LOAD_CODES for d in diags):
        rules = compile_rules(defs, diags, find_mechanics, mechanics_names())
        if diags.has_errors:
            rules = None
    if rules is not None:
        rules = _apply_code_variants(rules, defs, tuple(variants), code_variants, options, diags)
    # Problems the patches being loaded (this file, if it extends; the variant files) cause
    # in inherited rules are reported in the patch, with the inherited place as a note.
    origins = [display_path(path.resolve()), *(f"variant:{name}" for name in variants)]
    located = Diagnostics(
        blame(diags.items, defs, origins, lambda: _base_own(path, variants, defs))
    )
    report = LoadReport(
        display_path(path),
        rules,
        located.sorted(),
        dict(defs.sources),
        loader.files_read(),
        defs,
    )
    report.sources.update(loader.sources)
    if rules is not None:
        bundled = None if is_path_like(shown) else shown
        _PROVENANCE[rules] = Provenance(
            given=shown,
            file=FileIdentity.of(path),
            bundled=bundled,
            variants=tuple(variant_files),
            files=tuple(FileIdentity.of(f) for f in report.files),
        )
    return report


def _base_own(path: Path, variants: Sequence[str], defs: Definitions) -> set[tuple]:
    """The diagnostics (`key_of`) of the rules being patched, without the patches: the rules
    alone when variants are checked, else the file a file that `extends` extends. What `blame`
    asks to tell a base's own problem from one the patches caused."""
    if variants:
        base: str | Path = path
    elif len(defs.files) >= 2:
        base = Path(defs.files[-2])
    else:
        return set()
    return {key_of(d) for d in load_report(base).diagnostics}


def _apply_code_variants(
    rules: RuleSet,
    defs: Definitions,
    chosen: tuple[str, ...],
    code_variants: list[Any],
    options: dict[str, Any] | None,
    diags: Diagnostics,
) -> RuleSet | None:
    options = dict(options or {})
    editor = RulesEditor(rules, touched=file_touches(defs.touched.items()))
    span = Span.point(defs.files[0] if defs.files else rules.name)
    try:
        for variant in code_variants:
            if variant.applies_to and rules.name not in variant.applies_to:
                diags.error(
                    "E0274",
                    f"variant '{variant.name}' is for {', '.join(variant.applies_to)}, "
                    f"not for {rules.name}",
                    span,
                )
                return None
            editor.origin = f"variant:{variant.name}"
            try:
                variant.adjust(editor, options)
            except VariantConflict:
                raise
            except HOOK_FAILURES as exc:  # the variant's plugin failed, not the rules
                owner = registries().owners.get("variant", {}).get(variant.name, "?")
                raise PluginError(owner, f"variant {variant.name}", exc) from exc
    except VariantConflict as exc:
        diags.error("E0273", str(exc), span, "combine their changes in one variant file")
        return None
    except PluginError as exc:
        diags.error(
            PLUGIN_FAILED, str(exc), span, "disable the plugin with CASTELL_DISABLE_PLUGINS"
        )
        return None
    adjusted = editor.rules
    if editor.changed:
        mechanics = find_mechanics(adjusted.mechanics)
        if mechanics is not None:
            mechanics.check(adjusted, diags)
            if diags.has_errors:
                return None
    return adjusted.with_variants(chosen)


def file_touches(
    touched: Iterable[tuple[tuple[str, str | None, str], str]],
) -> dict[tuple[str, str | None], str]:
    """What file variants changed, in the editor's terms, so code variants can conflict."""
    out: dict[tuple[str, str | None], str] = {}
    for (kind, label, _field), origin in touched:
        out[(kind, label)] = origin
    return out


_CACHE: dict[tuple, tuple[RuleSet, tuple[tuple[Path, int], ...]]] = {}


def _stamps(files: Sequence[Path]) -> tuple[tuple[Path, int], ...] | None:
    try:
        return tuple((f, f.stat().st_mtime_ns) for f in files)
    except OSError:
        return None


def load_rules(
    name_or_path: str | os.PathLike | RuleSet,
    variants: Sequence[str] = (),
    options: dict[str, Any] | None = None,
) -> RuleSet:
    """Load a rule set by name or path; raise `RuleError` (with diagnostics) if it is broken."""
    if isinstance(name_or_path, RuleSet):
        if not variants or tuple(variants) == name_or_path.variants:
            return name_or_path
        name_or_path = name_or_path.sources[0] if name_or_path.sources else name_or_path.name
    # A name means what the rule path finds: the working directory (relative paths) and the
    # user's directories (`CASTELL_RULES_PATH`) are part of what it means.
    key = (
        os.fspath(name_or_path),
        os.getcwd(),
        os.environ.get("CASTELL_RULES_PATH", ""),
        tuple(variants),
        repr(sorted((options or {}).items())),
    )
    cached = _CACHE.get(key)
    if cached is not None and _stamps([f for f, _ in cached[1]]) == cached[1]:
        return cached[0]
    report = load_report(name_or_path, variants, options)
    if report.rules is None or not report.ok:
        raise RuleError(report.diagnostics)
    stamps = _stamps(report.files)
    if stamps is not None:
        _CACHE[key] = (report.rules, stamps)
    return report.rules
