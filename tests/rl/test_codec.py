"""The generic action codec: every legal action of 200 fresh random games of each shipped game
(and a variant) has a unique id that decodes back to the same action text.

The games use seeds from 10,000 on, which the exploration the codec was built from (seeds 0 to
budget-1) never played, so this checks the vocabulary and its overflow slots on positions the
codec has not seen.
"""

from __future__ import annotations

import pytest
from rl_support import need

from castell_dsl.contract import Rng, seed_state

GAMES = [("castell", 4, ()), ("castell", 2, ("short-season",)), ("calico", 4, ()),
         ("calico", 1, ("solo",))]  # fmt: skip


def check_codec(spec, games: int = 200, first_seed: int = 10_000) -> int:
    """Play `games` random games; at every position assert the codec's ids are unique, within
    range, and decode to the very texts the engine listed. Return the positions checked."""
    from castell_dsl.rl import decode, encode

    codec = spec.codec
    positions = 0
    for seed in range(first_seed, first_seed + games):
        game = spec.new_game(seed)
        chooser = Rng({"rng": seed_state(seed)})
        while not game.is_over():
            legal = game.legal_actions()
            assigned = codec.assign(legal)
            texts = {a.text for a in legal}
            assert len(assigned) == len(texts), "every distinct legal action has an id"
            assert {a.text for a in assigned.values()} == texts
            assert all(0 <= i < codec.size for i in assigned)
            ids = {a.text: i for i, a in assigned.items()}
            for action in legal:
                label = codec.label(ids[action.text])
                assert label == action.text or label.startswith(f"<{action.kind} slot ")
            pick = legal[chooser.below(len(legal))]  # the helpers, on one action per position
            assert decode(codec, encode(codec, pick, legal), legal).text == pick.text
            game.apply(legal[chooser.below(len(legal))])
            positions += 1
    return positions


@pytest.mark.parametrize(("rules", "players", "variants"), GAMES)
def test_every_legal_action_has_a_unique_id_that_decodes_back(rules, players, variants):
    need("numpy")
    from castell_dsl.rl import game_spec

    assert check_codec(game_spec(rules, players, variants)) > 1000


def test_ids_are_fixed_by_the_rule_set_and_survive_a_round_trip_through_json():
    need("numpy")
    from castell_dsl.rl import TextCodec, game_spec
    from castell_dsl.rl.explore import _MEMORY

    spec = game_spec("castell", 2, ("short-season",))
    pinned = TextCodec.from_json(spec.codec.to_json())
    assert pinned.vocabulary == spec.codec.vocabulary and pinned.size == spec.codec.size
    _MEMORY.clear()  # explore again: the same inputs give the same vocabulary
    from castell_dsl.rl.spec import _SPECS

    _SPECS.clear()
    again = game_spec("castell", 2, ("short-season",))
    assert again.codec.to_json() == spec.codec.to_json()
    assert again.observation.names == spec.observation.names


def test_the_vocabulary_holds_the_rule_sets_closed_actions_and_slots_for_open_ones():
    need("numpy")
    from castell_dsl.rl import game_spec

    codec = game_spec("castell", 4).codec
    assert {f"move {r}" for r in game_spec("castell", 4).rules.named("region")} <= set(
        codec.vocabulary
    )
    assert "end" in codec.vocabulary
    assert not any(t.startswith("tower ") for t in codec.vocabulary)  # open: candidates
    assert dict(codec.slots)["tower"] >= 2
    calico = game_spec("calico", 2).codec
    assert sum(t.startswith("place ") for t in calico.vocabulary) == 36 * 22  # patch x hex


def test_overflow_is_loud_or_counted():
    need("numpy")
    from castell_dsl.contract import Action
    from castell_dsl.rl import CodecOverflow, TextCodec

    codec = TextCodec(["end"], [("tower", 1), ("end", 2)])
    towers = [Action("tower", (), f"tower {n}") for n in (1, 2)]
    with pytest.raises(CodecOverflow):
        codec.assign(towers)
    lenient = TextCodec(["end"], [("tower", 1)], overflow="drop")
    assert list(lenient.assign([*towers, Action("end", (), "end")])) == [1, 0]
    assert lenient.dropped == 1
    assert codec.label(1) == "<tower slot 0>"
