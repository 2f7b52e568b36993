"""Playing hands between bots, and duplicate matches.

A *deal* is one hand from a seeded shuffle, scores starting at 0-0.  In a
duplicate match each deal is played twice with the partnerships swapped, so
luck of the cards cancels: bot A's margin on a deal is the sum of its side's
margins over the two plays.  In a variant (:mod:`canasta_tutor.engine.variants`) the
deal is played once per side, bot A holding that side's seats and bot B every
other seat, and A's margin is the sum over those plays of its side's score less
the mean of the other sides' (:func:`canasta_tutor.bots.expert.margin`; with two
sides this is the classic margin).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

from ..engine.game import Game
from ..engine.state import HAND_OVER, GAME_OVER, State
from ..engine.variants import CLASSIC, Variant, get_variant

#: A seat policy used in fast play: (state, seat) -> action.  It must read only
#: what the seat may know (bots build their view from the state's public parts).
StatePolicy = Callable[[State, int], tuple]


def play_hand(state: State, policies: list[StatePolicy]) -> State:
    """Play the current hand of ``state`` to its end with a policy per seat."""
    while state.phase not in (HAND_OVER, GAME_OVER):
        seat = state.actor
        assert seat is not None  # the game is not over
        state.apply_unchecked(policies[seat](state, seat))
    return state


def deal_state(seed: int, variant: Variant | str = CLASSIC) -> State:
    """The seeded deal used by matches: the seat before South deals (classic: East), scores 0."""
    v = get_variant(variant)
    seats = v.seats
    return Game(variant=v).new_initial_state(seed=seed, dealer=seats[(seats.index("S") - 1) % len(seats)])


@dataclass
class MatchReport:
    deals: int
    a_wins: int
    ties: int
    margins: list[float] = field(default_factory=list)
    hands: int = 0
    seconds: float = 0.0

    @property
    def a_win_share(self) -> float:
        """Share of deals A won (a tied deal counts half)."""
        return (self.a_wins + 0.5 * self.ties) / self.deals if self.deals else 0.0

    @property
    def margin_mean(self) -> float:
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    @property
    def margin_ci95(self) -> tuple[float, float]:
        n = len(self.margins)
        if n < 2:
            return (self.margin_mean, self.margin_mean)
        m = self.margin_mean
        var = sum((x - m) ** 2 for x in self.margins) / (n - 1)
        h = 1.96 * math.sqrt(var / n)
        return (m - h, m + h)

    def to_dict(self) -> dict:
        return {
            "deals": self.deals,
            "a_wins": self.a_wins,
            "ties": self.ties,
            "a_win_share": round(self.a_win_share, 4),
            "margin_mean": round(self.margin_mean, 1),
            "margin_ci95": [round(x, 1) for x in self.margin_ci95],
            "hands": self.hands,
            "seconds": round(self.seconds, 2),
            "hands_per_s": round(self.hands / self.seconds, 2) if self.seconds else None,
        }


def play_deal(seed: int, a: StatePolicy, b: StatePolicy, variant: Variant | str = CLASSIC) -> float:
    """A's margin on one duplicate deal: A sits NS then EW on the same cards (in a variant: each side
    in turn, B in every other seat)."""
    v = get_variant(variant)
    if v.n_sides == 2 and v.players == 4:
        s1 = play_hand(deal_state(seed, v), [a, b, a, b])
        r1 = s1.hand_results[-1].sides
        s2 = play_hand(deal_state(seed, v), [b, a, b, a])
        r2 = s2.hand_results[-1].sides
        return (r1[0].total - r1[1].total) + (r2[1].total - r2[0].total)
    from .expert import margin

    total = 0.0
    for side in range(v.n_sides):
        policies = [a if v.sides[s] == side else b for s in range(v.players)]
        total += margin(play_hand(deal_state(seed, v), policies).hand_results[-1].sides, side)
    return total


def run_match(a: StatePolicy, b: StatePolicy, deals: int, seed: int, progress: bool = False,
              workers: int = 1, variant: Variant | str = CLASSIC) -> MatchReport:
    """A duplicate match of ``deals`` deals (seeds ``seed``, ``seed+1``, ...) of ``variant``."""
    v = get_variant(variant)
    from tqdm.auto import tqdm

    start = time.perf_counter()
    seeds = range(seed, seed + deals)  # a range, not a list: a huge match allocates nothing up front
    margins: list[float] = []
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool, tqdm(total=deals, disable=not progress, desc="deals") as bar:
            batch = 16 * workers  # tasks in flight at once
            for lo in range(0, deals, batch):
                chunk = seeds[lo:lo + batch]
                for m in pool.map(_play_deal_star, [(s, a, b, v.name) for s in chunk], chunksize=4):
                    margins.append(m)
                    bar.update(1)
    else:
        for s in tqdm(seeds, disable=not progress, desc="deals"):
            margins.append(play_deal(s, a, b, v))
    report = MatchReport(deals=deals, a_wins=sum(1 for m in margins if m > 0),
                         ties=sum(1 for m in margins if m == 0), margins=margins, hands=v.n_sides * deals)
    report.seconds = time.perf_counter() - start
    return report


def _play_deal_star(args: tuple) -> float:
    return play_deal(*args)
