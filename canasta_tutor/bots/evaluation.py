"""A learned estimate of how a hand will end, for cut-off playouts.

A playout that runs to the end of the hand measures a move's value with a lot
of noise: everything that happens in the thirty turns after the move (which
cards come off the stock, who goes out and when) moves the margin by hundreds
of points, and only a little of that is the move's doing.  The search can
instead play a few turns past the move, where its consequences show (the pack
taken or refused, the canasta finished, the card the next player took), and
then *estimate* the rest of the hand.

:func:`evaluate` is that estimate: a linear function of facts of a sampled,
fully dealt state (points on the table, canastas and near-canastas, cards and
pairs in each side's hands, the pile and who draws next, the stock left),
fitted by least squares to the final margins of rules-of-thumb self-play
(``benchmarks/fit_evaluation.py`` writes ``evaluation_weights.json``).  So it
estimates the same quantity a full playout measures: the hand's margin when
the rest is played by the rules of thumb.  The weights are data, read once;
the evaluation itself is plain Python, with no numpy in the search.

Each variant whose playouts are cut off (``Variant.playout_turns``) has its own
weights, fitted on its own self-play (:func:`weights_file`); with more than two
sides, the other sides' facts enter as their mean, as the margin the search
measures is a side's score less the others' mean.  Samba plays its playouts to
the end of the hand (its ``playout_turns`` is None).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ..engine.cards import BLACK_THREE, CARD_VALUE, DEUCE, JOKER, KIND_VALUES, RED_THREE
from ..engine.pennies_melds import SEVEN
from ..engine.state import DRAW, State
from ..engine.variants import get_variant

#: classic's weights, in this package (found by its name, so the search's compiled copy, canasta_tutor.bots.native,
#: reads the same file)
WEIGHTS_FILE = Path(str(resources.files("canasta_tutor.bots") / "evaluation_weights.json"))


def fitted_on(variant: str = "classic") -> str:
    """The variant whose self-play a variant's weights are fitted on: its own, except five-handed, whose hands
    are classic hands deal for deal (the same seed deals the same cards to the same chairs; only who sits in
    them differs, R-FIVE-1), so a fit on its self-play would repeat classic's to the last digit."""
    return "classic" if variant == "classic" or get_variant(variant).reserve else variant


def weights_file(variant: str = "classic") -> Path:
    """The file of a variant's fitted weights: ``evaluation_weights.json`` for classic (and five-handed, see
    :func:`fitted_on`), ``evaluation_weights_<name>.json`` for the others (``-`` written ``_``)."""
    variant = fitted_on(variant)
    if variant == "classic":
        return WEIGHTS_FILE
    return WEIGHTS_FILE.with_name(f"evaluation_weights_{variant.replace('-', '_')}.json")


#: per side: the facts :func:`side_features` measures, in order
SIDE_FEATURES = (
    "table_points",  # melded card points, canasta bonuses and red threes as they would score now
    "hand_points",  # the card points held in the side's hands (scored against it)
    "natural_canastas",
    "mixed_canastas",
    "melds_at_6",  # melds one card short of a canasta
    "melds_at_5",
    "melds_at_4_or_less",
    "has_melded",  # the side has made its initial meld
    "hand_cards",
    "hand_wilds",
    "hand_pairs",  # natural ranks held two or more times, not yet melded by the side
    "hand_fits",  # natural cards that could be added to the side's melds
    "hand_black_threes",
    "hand_cards_x_stock",  # hand cards weighed by the share of the stock left
    "hand_points_x_stock",
    "pile_if_next",  # pile size when the side draws next
    "pile_if_next_frozen",  # ... and the pile is frozen for it
)
#: ``side``'s facts, then the other side's (with more than two sides: the others' mean).  The fit sees every
#: turn start from every side, with that side's margin, so a fact all sides share (the stock left, say) could
#: only ever get a weight of 0: the stock enters through the hand terms weighed by it instead.
FEATURES = tuple(f"our_{n}" for n in SIDE_FEATURES) + tuple(f"their_{n}" for n in SIDE_FEATURES)


def side_features(state: State, side: int) -> list[float]:
    """The facts of :data:`SIDE_FEATURES` for ``side`` in a fully dealt state (sets-only melds)."""
    variant = state.variant
    bonuses = variant.bonuses
    melds = state.melds[side]
    table = 0
    natural = mixed = at6 = at5 = low = 0
    special = 0  # Pennies from Heaven's canastas of wild cards and of sevens (R-PEN-8)
    for kind, m in melds.items():
        n = len(m[0]) + len(m[1])
        table += sum(CARD_VALUE[c] for c in m[0]) + sum(CARD_VALUE[c] for c in m[1])
        if n >= 7 and variant.four_kinds and kind in (DEUCE, SEVEN):
            special += bonuses.wild_canasta if kind == DEUCE else bonuses.sevens_canasta
        elif n >= 7:
            if m[1]:
                mixed += 1
            else:
                natural += 1
        elif n == 6:
            at6 += 1
        elif n == 5:
            at5 += 1
        else:
            low += 1
    red = bonuses.red_threes[len(state.red3[side])]
    counts_red = (SEVEN in melds and len(melds[SEVEN][0]) + len(melds[SEVEN][1]) >= 7) if variant.four_kinds else melds
    table += natural * bonuses.natural_canasta + mixed * bonuses.mixed_canasta + special + (red if counts_red else -red)
    hand_points = cards = wilds = pairs = fits = b3 = 0
    counts = [0] * len(KIND_VALUES)
    for seat in variant.side_seats[side]:
        for kind, held in enumerate(state.hands[seat]):
            k = len(held)
            if k:
                counts[kind] += k
                hand_points += KIND_VALUES[kind] * k
    for kind, k in enumerate(counts):
        if not k:
            continue
        cards += k
        if kind in (DEUCE, JOKER):
            wilds += k
        elif kind == BLACK_THREE:
            b3 += k
        elif kind != RED_THREE:
            if kind in melds:
                fits += k
            elif k >= 2:
                pairs += 1
    share = len(state.stock) / 50.0
    turn_side = state.sides[state.turn]
    nxt = state.phase == DRAW and turn_side == side
    frozen = state.freeze_at >= 0 or not state.initial[side]
    pile = len(state.pile) if nxt else 0
    return [float(table), float(-hand_points), float(natural), float(mixed), float(at6), float(at5), float(low),
            float(bool(melds)), float(cards), float(wilds), float(pairs), float(fits), float(b3),
            cards * share, -hand_points * share, float(pile), float(pile if frozen else 0)]


def features(state: State, side: int) -> list[float]:
    """The facts of :data:`FEATURES`: ``side``'s, then the other side's (more than two sides: the
    mean of the others')."""
    n_sides = state.variant.n_sides
    ours = side_features(state, side)
    if n_sides == 2:
        return ours + side_features(state, 1 - side)
    others = [side_features(state, s) for s in range(n_sides) if s != side]
    return ours + [sum(col) / len(others) for col in zip(*others, strict=True)]


@lru_cache(maxsize=None)
def weights(variant: str = "classic") -> tuple[float, tuple[float, ...]]:
    """A variant's fitted intercept and weights (one per name of :data:`FEATURES`)."""
    path = weights_file(variant)
    data = json.loads(path.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES or data.get("variant", "classic") != fitted_on(variant):
        raise ValueError(f"{path.name} was fitted on other features or another variant; "
                         f"run benchmarks/fit_evaluation.py --variant {variant}")
    return float(data["intercept"]), tuple(float(w) for w in data["weights"])


def evaluate(state: State, side: int) -> float:
    """The expected margin of the hand for ``side`` (its score less the other side's, or the others'
    mean) from here, as rules-of-thumb play would end it: the variant's fitted linear estimate."""
    b, w = weights(state.variant.name)
    return b + sum(x * y for x, y in zip(features(state, side), w, strict=True))


__all__ = ["FEATURES", "features", "evaluate", "weights", "weights_file", "fitted_on", "WEIGHTS_FILE"]
