"""Rule sets and variants by installed name only: how a name that arrives over a network is
turned into rules.

`load_rules` also takes paths (`--rules ./mine.castell`), which is right for the person at the
command line and wrong for a stranger: a name from a web request, an uploaded save or a
WebSocket message must never open a file the server did not install, and the answer to an
unknown name must not depend on what exists on the server's disk (an existence oracle).

So a network name is first looked up in the installed catalogue: the rule sets on the rule
path (the games' directories and `CASTELL_RULES_PATH`) and, for one rule set, the variants
beside it and the code variants that apply to it. Only then is it loaded, and the rule set
that comes back must have been read from exactly the installed files. An unknown name is
refused with the same message whatever exists on disk, before anything is touched.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..contract.services import NotInstalled, Shadowed
from ..language.loader import is_path_like
from ..language.ruleset import RuleSet
from .loading import load_rules, provenance, rule_path
from .plugins import registries

#: Longest rule set or variant name accepted from the network (installed names are file stems).
MAX_NAME = 64
#: Most variants one request may name.
MAX_VARIANTS = 16


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME and not is_path_like(value)


def installed_rule_sets() -> list[str]:
    """The rule sets a network name may choose: those on the rule path, by plain name."""
    return [name for name in rule_path().rule_names() if _is_name(name)]


def installed_rules_path(name: str) -> Path:
    """The installed file of the rule set `name` (NotInstalled if there is none)."""
    if not _is_name(name) or name not in installed_rule_sets():
        raise NotInstalled(f"unknown rule set: choose one of {', '.join(installed_rule_sets())}")
    found = rule_path().find_rules(name)
    if found is None:  # removed since the listing: the same answer as any unknown name
        raise NotInstalled(f"unknown rule set: choose one of {', '.join(installed_rule_sets())}")
    return found


def installed_variants(rules_name: str) -> dict[str, Path | None]:
    """The variants of an installed rule set: name -> its file beside the rules (or in the
    user's rule directories), or None for a plugin's code variant that applies to it."""
    path = rule_path()
    found = path.find_rules(rules_name)
    chain = [found] if found is not None else []
    out: dict[str, Path | None] = {}
    for name in path.variant_names(chain):
        variant = path.find_variant(name, chain)
        if variant is not None and _is_name(name):
            out[name] = variant
    for name, code in registries().variants.items():
        if _is_name(name) and (not code.applies_to or rules_name in code.applies_to):
            out.setdefault(name, None)
    return dict(sorted(out.items()))


def check_installed(rules_name: Any, variants: Any) -> tuple[str, tuple[str, ...]]:
    """A rule set name and variant names from the network, checked against the catalogue
    (NotInstalled, whose message depends only on what is installed, otherwise)."""
    if not isinstance(rules_name, str):
        raise NotInstalled("'rules' is the name of an installed rule set")
    installed_rules_path(rules_name)
    if variants is None:
        variants = []
    if not isinstance(variants, list) or len(variants) > MAX_VARIANTS:
        raise NotInstalled(f"'variants' is a list of at most {MAX_VARIANTS} variant names")
    known = installed_variants(rules_name)
    for name in variants:
        if not _is_name(name) or name not in known:
            raise NotInstalled(
                f"unknown variant of {rules_name}: choose from {', '.join(known) or 'none'}"
            )
    if len(set(variants)) != len(variants):
        raise NotInstalled("a variant is named twice")
    return rules_name, tuple(variants)


def load_installed(rules_name: Any, variants: Any = ()) -> RuleSet:
    """The installed rule set `rules_name` with installed `variants`, loaded from the installed
    files only. Raises NotInstalled for a name outside the catalogue (nothing is read),
    Shadowed if the files read were not the installed ones (a defence: names resolve on the
    rule path only), and `RuleError` when the installed rules do not load with these variants."""
    name, chosen = check_installed(rules_name, list(variants))
    rules = load_rules(name, chosen)  # a plain name: the rule path only, never the working dir
    _check_read_installed(rules, name, chosen)
    return rules


def _check_read_installed(rules: RuleSet, name: str, variants: tuple[str, ...]) -> None:
    origin = provenance(rules)
    if origin is None:
        return
    expected = installed_rules_path(name).resolve()
    known = installed_variants(name)
    if Path(origin.file.path) != expected:
        raise Shadowed(f"rule set '{name}' was not read from its installed file {expected}")
    for variant, identity in origin.variants:
        file = known.get(variant)
        if identity is not None and (file is None or Path(identity.path) != file.resolve()):
            raise Shadowed(f"variant '{variant}' was not read from its installed file")


__all__ = [
    "MAX_NAME",
    "MAX_VARIANTS",
    "NotInstalled",
    "Shadowed",
    "check_installed",
    "installed_rule_sets",
    "installed_rules_path",
    "installed_variants",
    "load_installed",
]
