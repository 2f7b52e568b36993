"""The variant descriptions (canasta_tutor/variants.py) and the engine playing each variant."""

from __future__ import annotations

import pytest

from canasta_tutor.errors import CanastaError
from canasta_tutor.variants import CLASSIC, VARIANTS, UnknownVariantError, Variant, get_variant

NAMES = ("classic", "two-handed", "three-handed", "six-handed")


def test_the_four_names() -> None:
    assert tuple(VARIANTS) == NAMES
    assert CLASSIC is get_variant("classic")
    assert get_variant(CLASSIC) is CLASSIC


def test_unknown_name_is_typed_and_quoted() -> None:
    with pytest.raises(UnknownVariantError) as err:
        get_variant("samba!")
    assert isinstance(err.value, CanastaError)
    assert "'samba!'" in str(err.value) and "two-handed" in str(err.value)


def test_classic_facts() -> None:
    v = CLASSIC
    assert (v.players, v.seats, v.sides, v.packs, v.jokers, v.num_cards) == (4, "NESW", (0, 1, 0, 1), 2, 4, 108)
    assert (v.hand_size, v.draw, v.canastas_to_go_out, v.target) == (11, 1, 1, 5000)
    assert v.side_names == ("NS", "EW") and v.n_sides == 2
    assert [v.partners(s) for s in range(4)] == [(2,), (3,), (0,), (1,)]
    assert [v.next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    assert [v.minimum_for(t) for t in (-5, 0, 1495, 1500, 2995, 3000)] == [15, 50, 50, 90, 90, 120]
    assert [v.red_three_bonus(n) for n in range(5)] == [0, 100, 200, 300, 800]
    assert v.partnerships


@pytest.mark.parametrize("name", NAMES)
def test_tables_agree(name: str) -> None:
    v: Variant = get_variant(name)
    assert len(v.seats) == len(v.sides) == v.players
    assert sorted(s for seats in v.side_seats for s in seats) == list(range(v.players))
    for seat in range(v.players):
        assert v.side_of(seat) == v.sides[seat]
        assert seat not in v.partners(seat)
        assert all(v.side_of(p) == v.side_of(seat) for p in v.partners(seat))
    # every red three in the deck has a bonus entry
    assert len(v.bonuses.red_threes) == 2 * v.packs + 1
