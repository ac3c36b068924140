"""Packaging, the part pyproject.toml cannot say: which folders become which packages.

Code packages are discovered — the core in `castell_dsl/`, each plugin in its own folder of
`plugins/`, whose folder name is its import name — so adding a module or a plugin needs no edit
here. Data folders that are not Python packages (the grammar, each game's rule files) are mapped
into the package that ships them; `castell_dsl.contract.shipped_dir` finds them in both layouts
(installed, or a checkout). Everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

#: Data package -> folder in the repository (rule files are data, not code).
DATA = {
    "castell_dsl.grammar": "grammar",
    "castell_game.rules": "rules/castell",
    "castell_game.rules.variants": "rules/castell/variants",
    "calico_game.rules": "rules/calico",
    "calico_game.rules.variants": "rules/calico/variants",
}
CORE = find_packages(".", include=["castell_dsl", "castell_dsl.*"])
PLUGINS = find_packages("plugins")

setup(
    packages=[*CORE, *PLUGINS, *DATA],
    package_dir={**{name: f"plugins/{name.replace('.', '/')}" for name in PLUGINS}, **DATA},
    package_data={
        # a plugin's own pages: a game's reference, and its players' pages for `help TOPIC`
        **{name: ["*.md", "pages/*.md"] for name in PLUGINS},
        "castell_dsl.grammar": ["*.lark"],
        # Each game's browser renderer and the web front-end's pages: static files, no build.
        "castell_game": ["web/*"],
        "calico_game": ["web/*"],
        "castell_web": ["static/*"],
        **{name: ["*.castell"] for name in DATA if name.endswith((".rules", ".variants"))},
    },
)
