"""The look-ahead checks against exhaustive versions of themselves (hypothesis).

:func:`can_go_out` tries at most one discard (the lone card, or a wild card);
here it must agree with trying every possible discard.  :func:`max_meld_points`
must never promise more than the whole hand is worth, and keeping cards never
adds points.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_tutor.engine.cards import BLACK_THREE, KIND_VALUES, NUM_KINDS, RED_THREE
from canasta_tutor.engine.feasibility import _meld_all, can_go_out, max_meld_points
from canasta_tutor.engine.options import RuleOptions
from test_fuzz import sized

counts_st = st.lists(st.integers(0, 4), min_size=NUM_KINDS, max_size=NUM_KINDS).map(
    lambda c: c[:RED_THREE] + [0])
melds_st = st.dictionaries(st.integers(0, 10), st.tuples(st.integers(2, 8), st.integers(0, 3)), max_size=4)
opts_st = st.sampled_from([RuleOptions(), RuleOptions(wild_limit="half")])


def exhaustive_can_go_out(c, melds, opts, allow_discard, b3_on_table):
    if _meld_all(c, melds, opts, b3_on_table):
        return True
    if not allow_discard:
        return False
    for k in range(NUM_KINDS):
        if c[k]:
            cc = list(c)
            cc[k] -= 1
            if _meld_all(cc, melds, opts, b3_on_table):
                return True
    return False


@settings(max_examples=sized(500), deadline=None)
@given(c=counts_st, melds=melds_st, opts=opts_st, allow_discard=st.booleans(), b3_on_table=st.sampled_from([0, 3]))
def test_can_go_out_matches_trying_every_discard(c, melds, opts, allow_discard, b3_on_table):
    if b3_on_table:
        melds = {**melds, BLACK_THREE: (b3_on_table, 0)}
    assert can_go_out(c, melds, opts, allow_discard, b3_on_table) == exhaustive_can_go_out(
        c, melds, opts, allow_discard, b3_on_table)


@settings(max_examples=sized(200), deadline=None)
@given(c=counts_st, melds=melds_st, opts=opts_st)
def test_max_meld_points_is_bounded_and_keeping_costs(c, melds, opts):
    worth = sum(n * KIND_VALUES[k] for k, n in enumerate(c) if k != BLACK_THREE)
    values = [max_meld_points(c, melds, opts, keep=keep) for keep in (0, 1, 2)]
    assert 0 <= values[2] <= values[1] <= values[0] <= worth
