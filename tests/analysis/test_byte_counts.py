"""`ByteCounts`, the rule coverage's per-item counters (`castell analyze`'s coverage table):
summed as integers in byte lanes that are read every 255 strings, they must give exactly the
counts of an item-by-item loop, over more strings than one lane can hold."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from castell_dsl.runtime.analysis.stats import ByteCounts


def naive_counts(strings: list[bytes], width: int) -> list[int]:
    counts = [0] * width
    for marked in strings:
        for index, byte in enumerate(marked):
            if byte:
                counts[index] += 1
    return counts


@settings(max_examples=30, deadline=None)
@given(
    st.integers(min_value=1, max_value=12).flatmap(
        lambda width: st.tuples(
            st.just(width),
            st.lists(
                st.binary(min_size=width, max_size=width).map(
                    lambda b: bytes(1 if x & 1 else 0 for x in b)
                ),
                max_size=700,
            ),
        )
    )
)
def test_counts_equal_an_item_by_item_count(case: tuple[int, list[bytes]]) -> None:
    width, strings = case
    counter = ByteCounts(width)
    for marked in strings:
        counter.add(int.from_bytes(marked, "big"))
    assert counter.counts() == naive_counts(strings, width)
    # Reading the counts changes nothing: a second reading is the same.
    assert counter.counts() == naive_counts(strings, width)


def test_a_lane_past_255_strings_carries_nothing_into_its_neighbour() -> None:
    counter = ByteCounts(3)
    for _ in range(1000):
        counter.add(int.from_bytes(b"\x00\x01\x01", "big"))
    counter.add(int.from_bytes(b"\x01\x00\x00", "big"))
    assert counter.counts() == [1, 1000, 1000]


@settings(max_examples=30, deadline=None)
@given(
    st.integers(min_value=1, max_value=6),
    st.lists(st.lists(st.booleans(), min_size=4, max_size=4), min_size=4, max_size=4),
    st.integers(min_value=1, max_value=200),
)
def test_sums_of_several_strings_count_as_each_string(
    players: int, pattern: list[list[bool]], games: int
) -> None:
    """A game's players' masks summed into one addition (`most` = players), for more games
    than a lane holds: the same counts as adding every player's string."""
    width = 4
    strings = [bytes(int(b) for b in pattern[(g + p) % 4]) for g in range(games)
               for p in range(players)]  # fmt: skip
    counter = ByteCounts(width)
    for g in range(games):
        game = strings[g * players : (g + 1) * players]
        counter.add(sum(int.from_bytes(m, "big") for m in game), players)
    assert counter.counts() == naive_counts(strings, width)
