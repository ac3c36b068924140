"""Packaging, the part pyproject.toml cannot say: which folders become which packages.

Code packages are discovered — the core in `castell_dsl/`, each plugin in its own folder of
`plugins/`, whose folder name is its import name — so adding a module or a plugin needs no edit
here. Data folders that are not Python packages (the grammar, each game's rule files) are mapped
into the package that ships them; `castell_dsl.contract.shipped_dir` finds them in both layouts
(installed, or a checkout). Everything else is in pyproject.toml.

One optional extension: the tower solver's search compiled (`castell_game.tower_search`). Its
source is the plain-Python module `plugins/castell_game/tower_search.py`, typed by the
`tower_search.pxd` beside it (Cython's pure-Python mode), so there is one source for both. It
is built when Cython (a build requirement) and a C compiler are there, and the import system
then prefers it to the .py file; without a compiler the build of it fails quietly
(`optional=True`) and the same file runs as plain Python, with the same answers.
"""

from setuptools import Extension, find_packages, setup


def compiled_extensions() -> list[Extension]:
    """The optional extensions, from their Cython sources (none when Cython is missing)."""
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    search = Extension(
        "castell_game.tower_search",
        ["plugins/castell_game/tower_search.py"],
        optional=True,
    )
    return cythonize([search], build_dir="build/cython", quiet=True, language_level=3)


#: Data package -> folder in the repository (rule files are data, not code).
DATA = {
    "castell_dsl.grammar": "grammar",
    "castell_game.rules": "rules/castell",
    "castell_game.rules.variants": "rules/castell/variants",
    "calico_game.rules": "rules/calico",
    "calico_game.rules.variants": "rules/calico/variants",
}
#: Files shipped beside a plugin's code (static files: no build step).
PLUGIN_DATA = ["*.md", "*.pyi", "pages/*.md", "web/*", "static/*"]
CORE = find_packages(".", include=["castell_dsl", "castell_dsl.*"])
PLUGINS = find_packages("plugins")

setup(
    packages=[*CORE, *PLUGINS, *DATA],
    package_dir={**{name: f"plugins/{name.replace('.', '/')}" for name in PLUGINS}, **DATA},
    package_data={
        # A plugin's own files, whichever it has: its pages (a game's reference, its players'
        # pages for `help TOPIC`), a game's browser renderer, the web front-end's pages.
        **{name: PLUGIN_DATA for name in PLUGINS},
        # The grammar and the parser tables generated from it (language/parser_tables.py).
        "castell_dsl.grammar": ["*.lark", "*.json"],
        # `castell analyze`'s JSON Schema (castell-analysis/1).
        "castell_dsl.runtime.analysis": ["schema.json"],
        **{name: ["*.castell"] for name in DATA if name.endswith((".rules", ".variants"))},
    },
    ext_modules=compiled_extensions(),
)
