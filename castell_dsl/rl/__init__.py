"""Reinforcement-learning interfaces for every rule set: PettingZoo and OpenSpiel (docs/rl.md).

    from castell_dsl.rl import env
    aec = env("calico", players=2, seed=0)          # a PettingZoo AEC environment

    from castell_dsl.rl import vector_env
    venv = vector_env(64, "calico", players=2)      # 64 games stepped together, NumPy arrays

    import castell_dsl.rl.openspiel                  # registers the OpenSpiel game
    import pyspiel
    game = pyspiel.load_game("castell_dsl(rules=calico,players=2)")

Both are thin layers over a `GameSpec` (`spec.py`): the generic action codec (`codec.py`), the
observation layout generated from the public view (`observation.py`), both built from a seeded
exploration of the rule set (`explore.py`), and the rewards from the engine's result. Install
the extras: `pip install "castell-dsl[rl]"` (PettingZoo) or `"castell-dsl[openspiel]"`.

This package sits at the API layer: it imports the runtime, the engine and the contract, never a
game, so a third-party game (the Pebbles example) works as the shipped ones do. Names load
lazily so that `import castell_dsl.rl` needs neither PettingZoo nor OpenSpiel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .codec import ActionCodec, CodecOverflow, TextCodec, codec_for, decode, encode
    from .pettingzoo_env import CastellEnv, env
    from .spec import GameSpec, game_spec
    from .vector import VectorEnv, vector_env

__all__ = [
    "ActionCodec",
    "CastellEnv",
    "CodecOverflow",
    "GameSpec",
    "TextCodec",
    "VectorEnv",
    "codec_for",
    "decode",
    "encode",
    "env",
    "game_spec",
    "vector_env",
]

_WHERE = {
    "ActionCodec": "codec",
    "CodecOverflow": "codec",
    "TextCodec": "codec",
    "codec_for": "codec",
    "decode": "codec",
    "encode": "codec",
    "CastellEnv": "pettingzoo_env",
    "env": "pettingzoo_env",
    "GameSpec": "spec",
    "game_spec": "spec",
    "VectorEnv": "vector",
    "vector_env": "vector",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'castell_dsl.rl' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)
