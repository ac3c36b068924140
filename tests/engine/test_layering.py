"""The core's imports point one way: language ← contract ← engine ← runtime ← API and CLI.

Read from the source (module-level and function-local imports alike), so an upward import
hidden inside a function is caught too. Also: no import circle anywhere in the core, the
hookspecs import only the contract, and the engine and contract name no plugin package.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

#: The sources of this checkout (not the installed copy: CI installs the package into
#: site-packages, where the plugins sit beside every other installed package).
REPO = Path(__file__).resolve().parents[2]
CORE = REPO / "castell_dsl"

#: Layer of each top-level part of the core: a module may import only its own layer or lower.
RANKS = {
    "resources": 0,
    "safejson": 0,
    "cache": 1,  # a leaf utility that reads through the language layer's bounded reader
    "language": 1,
    "contract": 2,
    "hookspecs": 2,
    "engine": 3,
    "runtime": 4,
    "api": 5,
    "rl": 5,
    "cli": 6,
    "tools": 6,
    "__main__": 6,
}
#: The package root re-exports the API lazily (PEP 562): it sits above everything it names.
ROOT = "castell_dsl"


def _modules() -> dict[str, Path]:
    out = {}
    for path in CORE.rglob("*.py"):
        parts = path.relative_to(CORE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _type_only(tree: ast.AST) -> set[ast.AST]:
    """Import nodes inside `if TYPE_CHECKING:` blocks (they never run)."""
    nodes: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                nodes.update(ast.walk(inner))
    return nodes


def _imports(name: str, path: Path, *, runtime_only: bool = False) -> set[str]:
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_only(tree) if runtime_only else set()
    for node in ast.walk(tree):
        if node in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                target = ".".join(package + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            submodules = {f"{target}.{a.name}" for a in node.names} & MODULES.keys()
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(target)
    return {t for t in found if t == ROOT or t.startswith(ROOT + ".")}


GRAPH = {name: _imports(name, path) - {name} for name, path in MODULES.items()}
#: Imports that run (type-only ones left out): a circle among these is a real one.
RUNTIME_GRAPH = {
    name: _imports(name, path, runtime_only=True) - {name} for name, path in MODULES.items()
}


def _layer(module: str) -> str:
    return module.split(".")[1]


def test_every_core_module_has_a_layer():
    assert {_layer(m) for m in MODULES if m != ROOT} <= RANKS.keys()


def test_imports_point_down_the_layers():
    upward = [
        f"{module} ({_layer(module)}) imports {target} ({_layer(target)})"
        for module, targets in GRAPH.items()
        if module != ROOT
        for target in targets
        if target != ROOT and RANKS[_layer(target)] > RANKS[_layer(module)]
    ]
    assert upward == []


def test_only_the_api_and_cli_import_the_package_root_facade():
    """The root lazily imports the API, so anything below the API importing it would hide a
    circle; lower layers may import only `hookimpl` through it, which needs nothing above."""
    for module, targets in GRAPH.items():
        if ROOT in targets and module != ROOT and RANKS[_layer(module)] < RANKS["api"]:
            text = MODULES[module].read_text(encoding="utf-8")
            assert "from castell_dsl import hookimpl" in text or "from .. import" in text, module


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return circles


def test_no_import_circle_in_the_core():
    """Type-only imports (`if TYPE_CHECKING:`) never run, so they cannot form a circle; the
    package root re-exports lazily and is left out (`hookimpl` is all lower layers take)."""
    assert _circles({m: set(t) - {ROOT} for m, t in RUNTIME_GRAPH.items()}) == []


def test_hookspecs_import_only_the_contract():
    assert {_layer(t) for t in GRAPH["castell_dsl.hookspecs"]} <= {"contract"}


def test_the_engine_and_contract_name_no_plugin_package():
    for module, path in MODULES.items():
        if module == ROOT or _layer(module) not in {"language", "contract", "engine"}:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                top = node.module.split(".")[0]
                allowed = {"castell_dsl", "lark", "pluggy"} | _stdlib()
                assert top in allowed, f"{module} imports {node.module}"


def _stdlib() -> set[str]:
    import sys

    return set(sys.stdlib_module_names)


# ---- plugins/ ------------------------------------------------------------------------------------
# Every package under plugins/ (games, front-ends, bots) is read the same way as the core: no
# import circle in any of them, and a game package imports only the contract, the language and
# itself (docs/architecture.md, "Layers and imports", says what else is allowed and why).

PLUGINS = REPO / "plugins"


def _plugin_modules() -> dict[str, Path]:
    """Every module of every plugin package; a compiled module counts by its `.pyx` source."""
    out = {}
    for package in sorted(p.parent for p in PLUGINS.glob("*/__init__.py")):
        for path in [*package.rglob("*.py"), *package.rglob("*.pyx")]:
            parts = path.relative_to(PLUGINS).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


PLUGIN_MODULES = _plugin_modules()
PLUGIN_PACKAGES = sorted({name.split(".")[0] for name in PLUGIN_MODULES})


def _plugin_imports(name: str, path: Path, *, types_too: bool = False) -> set[str]:
    """What `name` imports when it runs (type-only imports left out unless `types_too`), as
    module names: a plugin module or package where the import names one, otherwise the
    imported module."""
    found = set()
    tree = ast.parse(_python_imports(path))
    skipped = set() if types_too else _type_only(tree)
    for node in ast.walk(tree):
        if node in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                target = ".".join(package + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            named = {f"{target}.{a.name}" for a in node.names}
            submodules = named & (PLUGIN_MODULES.keys() | MODULES.keys())
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(target)
    return found - {name}


def _python_imports(path: Path) -> str:
    """A module's source, or for Cython (`.pyx`, not Python) its Python imports alone: its
    one-line `import`/`from … import` statements (`cimport`s are C-level, resolved at build)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".pyx":
        return text
    statement = re.compile(r"\s*(from\s+[\w.]+\s+import\s|import\s)")
    lines = [line.strip() for line in text.splitlines()]
    return "\n".join(line for line in lines if statement.match(line) and "cimport" not in line)


PLUGIN_GRAPH = {name: _plugin_imports(name, path) for name, path in PLUGIN_MODULES.items()}


def test_the_circle_finder_finds_a_circle():
    """The checks below rest on it: a circle through three modules, and a self-contained
    chain that is not one."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _circles(graph) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_every_plugin_package_is_read():
    assert {"castell_game", "calico_game", "castell_web", "castell_terminal"} <= set(
        PLUGIN_PACKAGES
    )
    assert "castell_game.tower_search" in PLUGIN_MODULES  # the compiled search, by its .py source


def test_no_import_circle_in_any_plugin_package():
    """K/C: every plugin package's modules import one another one way (a package's
    `__init__` included); type-only imports never run, so they cannot form a circle."""
    assert _circles(PLUGIN_GRAPH) == []


def test_no_two_plugin_modules_import_each_other_even_for_types():
    """Stricter than a circle that runs: two modules that name each other, even in an `if
    TYPE_CHECKING:` block, are one module's worth of coupling split in two (Calico's views,
    hints, items and encoding read the logic's type through `tables.CalicoTables`)."""
    graph = {
        name: _plugin_imports(name, path, types_too=True) for name, path in PLUGIN_MODULES.items()
    }
    mutual = sorted(
        (a, b) for a, targets in graph.items() for b in targets if a < b and a in graph.get(b, ())
    )
    assert mutual == []


def _declared_dependencies() -> set[str]:
    """The import names of the third-party packages `pyproject.toml` declares."""
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    names = {re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0] for d in project["project"]["dependencies"]}
    import_names = {"pyyaml": "yaml"}
    return {import_names.get(n.lower(), n.lower().replace("-", "_")) for n in names}


def _game_packages() -> list[str]:
    """The plugin packages that bring a game: their `__init__` implements `register_mechanics`."""
    return [
        package
        for package in PLUGIN_PACKAGES
        if "def register_mechanics(" in (PLUGINS / package / "__init__.py").read_text("utf-8")
    ]


#: What a game package may import beyond the contract, the language and itself, and why.
GAME_EXCEPTIONS = {
    # The tower-witness cache: a leaf utility at the language's layer (bounded reads, no
    # runtime), which the rule check uses so a proved tower need not be searched again.
    ("castell_game.checks", "castell_dsl.cache"),
    # `castell tower` is a command of the game's own: it loads a rule set by name and builds
    # its logic, as the CLI does for every command.
    ("castell_game.cli", "castell_dsl.runtime.games"),
    ("castell_game.cli", "castell_dsl.runtime.loading"),
    # The game's tower API (`castell_game.api`) takes a rule set or its name, and loads a
    # name through the public API (`castell_dsl.load_rules`), as any caller would.
    ("castell_game.arguments", "castell_dsl"),
}


def _game_import_problems() -> tuple[list[str], set[tuple[str, str]]]:
    allowed_tops = set(_stdlib()) | _declared_dependencies()
    problems = []
    used = set()
    for module, targets in PLUGIN_GRAPH.items():
        package = module.split(".")[0]
        if package not in _game_packages():
            continue
        for target in sorted(targets):
            parts = target.split(".")
            if parts[0] == package or parts[0] in allowed_tops - {"castell_dsl"}:
                continue
            if (
                parts[0] == "castell_dsl"
                and len(parts) > 1
                and parts[1] in {"contract", "language"}
            ):
                continue
            if target == "castell_dsl":
                text = PLUGIN_MODULES[module].read_text(encoding="utf-8")
                if "from castell_dsl import hookimpl\n" in text:
                    continue  # the hook marker, the one name a plugin takes from the root
            if (module, target) in GAME_EXCEPTIONS:
                used.add((module, target))
                continue
            problems.append(f"{module} imports {target}")
    return problems, used


def test_game_packages_import_only_the_contract_the_language_and_themselves():
    """A game is written against the contract (and the language's schema vocabulary the
    contract re-exports): never the engine, the runtime, a front-end or another game."""
    assert set(_game_packages()) >= {"castell_game", "calico_game"}
    problems, used = _game_import_problems()
    assert problems == []
    assert used == GAME_EXCEPTIONS, "an exception no longer needed: drop it from the list"


def test_no_plugin_imports_another_plugin_or_the_engine():
    """Plugins meet only through the contract: a front-end never imports a game (it asks the
    game's logic through the contract), a game never another, and none imports the engine's
    internals."""
    crossing = [
        f"{module} imports {target}"
        for module, targets in PLUGIN_GRAPH.items()
        for target in targets
        if (
            target.split(".")[0] in PLUGIN_PACKAGES and target.split(".")[0] != module.split(".")[0]
        )
        or target.startswith("castell_dsl.engine")
    ]
    assert crossing == []


# ---- front-end packages: the contract only ------------------------------------------------------
# A front-end plays through the contract's `PlaySession` and asks the host for everything else
# through the contract's `FrontendServices` (handed to `register_commands`, and to its worker
# processes by `worker_command`), so it imports no runtime, API, tools or CLI module: it keeps
# working while those change (docs/architecture.md, "Front-ends and the services seam").

#: The front-end plugin packages.
FRONTEND_PACKAGES = ("castell_jsonl", "castell_terminal", "castell_web")
#: What a front-end may import of the core: the contract, the rules language (the studio reads
#: rule text with its own confined `Loader`), the bounded JSON reader (below the language),
#: and `hookimpl` from the package root.
FRONTEND_CORE = ("castell_dsl.contract", "castell_dsl.language", "castell_dsl.safejson")
#: Third-party modules a front-end may import that `pyproject.toml` does not name itself, and
#: why: the web server's connection guard subclasses uvicorn's h11 protocol, so it speaks h11's
#: events (h11 is a dependency of uvicorn, installed with it).
FRONTEND_TRANSITIVE = {"h11"}


def _frontend_import_problems(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a front-end module (function-local and type-only ones too) outside
    itself, the standard library, the declared dependencies and `FRONTEND_CORE`."""
    allowed_tops = set(_stdlib()) | _declared_dependencies() | FRONTEND_TRANSITIVE
    problems = []
    for module, targets in sorted(graph.items()):
        package = module.split(".")[0]
        if package not in FRONTEND_PACKAGES:
            continue
        for target in sorted(targets):
            top = target.split(".")[0]
            if top == package or (top in allowed_tops and top != "castell_dsl"):
                continue
            if any(target == core or target.startswith(core + ".") for core in FRONTEND_CORE):
                continue
            if target == ROOT:
                text = PLUGIN_MODULES[module].read_text(encoding="utf-8")
                if "from castell_dsl import hookimpl\n" in text:
                    continue  # the hook marker, the one name a plugin takes from the root
            problems.append(f"{module} imports {target}")
    return problems


def test_front_end_packages_import_only_the_contract():
    """Every module of every front-end, `castell serve`'s lobby, replays, bot and studio
    workers included, imports only the contract, the language and itself (type-only imports
    too: a front-end names no runtime type either)."""
    assert set(FRONTEND_PACKAGES) <= set(PLUGIN_PACKAGES)
    graph = {
        name: _plugin_imports(name, path, types_too=True) for name, path in PLUGIN_MODULES.items()
    }
    assert len([m for m in graph if m.startswith("castell_web.")]) >= 15  # every module read
    assert _frontend_import_problems(graph) == []


def test_the_front_end_check_finds_a_runtime_import_in_a_function(tmp_path: Path):
    """The check above can fail: a function-local import of the runtime (as the web server's
    lobby had them) and a type-only one of the library API are found; the contract's, the
    package's own and the standard library's are not."""
    module = tmp_path / "example.py"
    module.write_text(
        "from __future__ import annotations\n"
        "import json\n"
        "from typing import TYPE_CHECKING\n"
        "from castell_dsl.contract.services import FrontendServices\n"
        "from .lobby import catalogue\n"
        "if TYPE_CHECKING:\n"
        "    from castell_dsl.api import GameInfo\n"
        "def load(name):\n"
        "    from castell_dsl.runtime.saves import replay\n"
        "    return replay\n",
        encoding="utf-8",
    )
    graph = {"castell_web.example": _plugin_imports("castell_web.example", module, types_too=True)}
    assert _frontend_import_problems(graph) == [
        "castell_web.example imports castell_dsl.api",
        "castell_web.example imports castell_dsl.runtime.saves",
    ]
