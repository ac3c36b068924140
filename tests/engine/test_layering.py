"""The core's imports point one way: language ← contract ← engine ← runtime ← API and CLI.

Read from the source (module-level and function-local imports alike), so an upward import
hidden inside a function is caught too. Also: no import circle anywhere in the core, the
hookspecs import only the contract, and the engine and contract name no plugin package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import castell_dsl

CORE = Path(castell_dsl.__file__).resolve().parent

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


def test_no_import_circle_in_the_core():
    """Type-only imports (`if TYPE_CHECKING:`) never run, so they cannot form a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in RUNTIME_GRAPH.get(node, ()):
            if nxt == ROOT or nxt not in RUNTIME_GRAPH:
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

    for module in RUNTIME_GRAPH:
        if module not in index:
            visit(module)
    assert circles == []


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
