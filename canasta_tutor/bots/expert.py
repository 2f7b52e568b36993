"""The expert bot: determinized Monte Carlo search with rules-of-thumb playouts.

Why determinized Monte Carlo rather than information-set MCTS: a Canasta hand is
long (a hundred decisions or more) and most of them are forced or obvious, so a
tree over them would be shallow and wide and spend its budget on moves that do
not matter.  What matters is a handful of choices per turn (draw or take, which
card to discard, go out or keep building); for each of those we sample the
hidden cards many times, consistently with everything the seat knows, and play
each candidate out to the end of the hand with the rules-of-thumb policy.
Candidates are compared on the same samples (common random numbers), so the
differences between them are measured far more precisely than their values.

The sampler never looks at hidden cards: it pools every card the seat cannot
see (the other hands and the stock), keeps in each hand the cards known to be
there from taken packs (perfect memory of public events), and deals the rest at
random, respecting hand sizes and the fact that red threes are never held after
a first turn.  The value of an action is the expected point difference of the
hand (our side's score minus theirs), with its standard error.

Where the variant says so (``Variant.playout_turns``: every variant but Samba; 8 turns in classic), the
expert's and the default hint's playouts stop two rounds after the move and
the rest of the hand is estimated by :func:`~canasta_tutor.bots.evaluation.evaluate`,
a linear fit of the final margin of rules-of-thumb self-play.  The estimate
targets the same quantity as a full playout, at about a third of the cost and
with far less noise in the paired differences, so the search affords more deals.
The puzzles' verification search (``sample_values`` without ``turns``) still
plays every hand to its end.

The cut-off search also *couples* the draws of its playouts (:func:`playout` with
``orders``): on each sampled deal every seat gets its own random order of the stock,
and draws from it.  Two candidates played out on the same deal then hand each seat the
same cards, even when one of them takes the pack and the other draws, which in a
shared stock would shift every later draw.  Each draw is still a uniformly random card
of the stock, so the values estimate the same thing; their paired differences are less
noisy.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Sequence

from ..engine.cards import CARD_KIND, NUM_KINDS, RED_THREE, shuffle
from ..engine.italian import can_go_out_for
from ..engine.observer import Observation, observe_compact
from ..engine.scoring import SideScore
from ..engine.state import DRAW, GAME_OVER, HAND_OVER, State
from .evaluation import evaluate
from .rules_of_thumb import decide, discard_scores, take_cost
from .samba_policy import samba_candidates
from .sampling import sample_hidden, state_from_observation


#: samples each candidate still in a race gets in a round, at the least
RACE_MIN_ROUND = 8
#: the expert's samples per searched decision in Samba, at most (a Samba playout lists Samba's legal
#: actions, with their look-ahead of the rest of the turn, at every step)
SAMBA_ITERATIONS = 10
#: the expert's samples per candidate of a searched decision (its race shares that many playouts
#: per candidate among them, :meth:`ExpertBot._choose`): with playouts to the end of the hand, and where the variant
#: cuts them off (``Variant.playout_turns``; such a playout costs about a third of a full one)
EXPERT_ITERATIONS = 24
EXPERT_CUT_ITERATIONS = 48


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` whose hidden cards (other hands, stock) are re-dealt at random,
    consistent with what ``seat`` knows.  Uses only the pool of unseen cards, never where
    they really are."""
    s = state.copy()
    others = [o for o in range(len(s.hands)) if o != seat]
    pool: list[int] = []
    for o in others:
        for cards in s.hands[o]:
            pool.extend(cards)
    pool.extend(s.stock)
    pool.sort()  # forget where the cards were
    shuffle(rng, pool)
    by_kind: list[list[int]] = [[] for _ in range(NUM_KINDS)]
    for c in pool:
        by_kind[CARD_KIND[c]].append(c)
    new_hands: dict[int, list[list[int]]] = {}
    for o in others:
        h: list[list[int]] = [[] for _ in range(NUM_KINDS)]
        kn = s.known[o]
        for k in range(NUM_KINDS):
            for _ in range(min(kn[k], len(by_kind[k]))):
                h[k].append(by_kind[k].pop())
        new_hands[o] = h
    rest = [c for k in range(NUM_KINDS) for c in by_kind[k]]
    shuffle(rng, rest)
    reds = [c for c in rest if CARD_KIND[c] == RED_THREE]
    plain = [c for c in rest if CARD_KIND[c] != RED_THREE]
    for o in others:
        h = new_hands[o]
        need = s.hand_size[o] - sum(len(k) for k in h)
        for _ in range(need):
            if reds and not s.first_turn_done[o] and rng.random() < len(reds) / (len(reds) + len(plain)):
                c = reds.pop()
            else:
                c = plain.pop()
            h[CARD_KIND[c]].append(c)
        s.hands[o] = h
    stock = plain + reds
    shuffle(rng, stock)
    s.stock = stock
    return s


def _asker_can_go_out(s: State) -> bool:
    asker = s.turn
    counts = [len(k) for k in s.hands[asker]]
    return can_go_out_for(s.variant, counts, s.meld_summary(s.sides[asker]), s.options, allow_discard=s.asked == 2)


def determinize_consistent(state: State, seat: int, rng: random.Random, tries: int = 300) -> State | None:
    """Like :func:`determinize`, but when the player to move asked "may I go out?" (a public
    act that tells the table they are able to go out), only hands that can go out are drawn.
    None if no such deal was found in ``tries`` attempts."""
    needs_out = state.phase == "answer" and state.turn != seat
    for _ in range(tries):
        det = determinize(state, seat, rng)
        if not needs_out or _asker_can_go_out(det):
            return det
    return None


def rot_policy(state: State, seat: int) -> tuple:
    """The rules-of-thumb policy on a state, reading only the seat's observation."""
    return decide(observe_compact(state, seat))[0]


def margin(sides: Sequence[SideScore], side: int) -> float:
    """Our side's score less the other side's (with more than two sides, less their mean)."""
    if len(sides) == 2:
        return float(sides[side].total - sides[1 - side].total)
    others = [s.total for i, s in enumerate(sides) if i != side]
    return sides[side].total - sum(others) / len(others)


def draw_orders(state: State, rng: random.Random) -> list[list[int]]:
    """One random order of the stock's cards for each seat, for :func:`playout`'s coupled draws."""
    orders = []
    for _ in range(len(state.hand_size)):
        order = state.stock[:]
        shuffle(rng, order)
        orders.append(order)
    return orders


def _stack_draw(state: State, order: list[int]) -> None:
    """Put on top of the stock the cards the seat drawing now takes under coupled draws: the first
    cards of its own ``order`` still in the stock, the first of them on top, up to its ``draw_n``-th
    card that is not a red three (a red three drawn is laid down and replaced, R-RED-2)."""
    if state.stock_fixed >= 0:  # cards a position named on top are drawn as named
        return
    stock = state.stock
    inside = set(stock)
    top: list[int] = []
    kept = 0
    for c in order:
        if c in inside:
            top.append(c)
            kept += CARD_KIND[c] != RED_THREE
            if kept == state.draw_n:
                break
    top.reverse()  # the stock's last card is drawn first
    if stock[-len(top):] != top:
        chosen = set(top)
        state.stock = [c for c in stock if c not in chosen] + top


def _apply(state: State, action: tuple, orders: list[list[int]] | None) -> None:
    """Play ``action`` (legal), its draw coupled when there are ``orders`` (:func:`playout`)."""
    if orders is not None and action[0] == "draw":
        actor = state.actor
        assert actor is not None  # a draw is somebody's
        _stack_draw(state, orders[actor])
    state.apply_unchecked(action)


def playout(state: State, seat: int, turns: int | None = None, orders: list[list[int]] | None = None) -> float:
    """Play the hand out with the rules-of-thumb policy; our side's margin (:func:`margin`).

    With ``turns``, stop at the start of the ``turns``-th turn after this one (if the hand has not
    ended by then) and return the learned estimate of the margin the hand would end with
    (:func:`~canasta_tutor.bots.evaluation.evaluate`): a cut-off playout.

    With ``orders`` (:func:`draw_orders`, one order of the stock's cards per seat), draws are
    *coupled*: a seat drawing from the stock takes the first cards of its own order that are still
    there.  The orders are random and apart from the rest of the deal, so whatever was played
    before, the next card a seat draws is a uniformly random card of those left in the stock, as in
    plain play.  But when two candidates are played out on the same deal and orders, a seat that draws
    draws the same cards in both, even where the other move made someone take the pack instead of
    drawing (which shifts every later draw of a shared stock by a turn)."""
    passed = 0
    last = state.turn
    while state.phase not in (HAND_OVER, GAME_OVER):
        if turns is not None and state.turn != last:
            passed += 1
            last = state.turn
            if passed >= turns and state.phase == DRAW:
                return evaluate(state, state.sides[seat])
        actor = state.actor
        assert actor is not None  # the game is not over
        legal = state.legal_actions()
        if len(legal) == 1:  # forced: the rules of thumb play it without looking
            _apply(state, legal[0], orders)
            continue
        if not legal:  # a sampled hand inconsistent with a commitment: score it as it stands
            return margin(state.score_hand().sides, state.sides[seat])
        _apply(state, decide(observe_compact(state, actor, legal))[0], orders)
    return margin(state.hand_results[-1].sides, state.sides[seat])


@dataclass
class Estimate:
    """The searched value of one candidate action."""

    action: tuple
    mean: float
    stderr: float
    samples: int
    diff_stderr: float = 0.0  # standard error of the difference to the best candidate
    #: the best candidate's value less this one's, on the sampled deals both were played on
    gap: float = 0.0


def candidate_actions(state: State, seat: int, wide: bool = False) -> list[tuple]:
    """The actions worth searching: all when few, else the rules-of-thumb choice and its
    strongest alternatives.  ``wide`` keeps more (for hints)."""
    legal = state.legal_actions()
    obs = observe_compact(state, seat, legal)
    if state.variant.numbered_melds:  # numbered melds (Samba) and their verbs have their own list
        return samba_candidates(obs, wide)
    choice = decide(obs)[0]
    if len(legal) <= (8 if wide else 5):
        return [choice] + [a for a in legal if a != choice]
    cands = [choice]
    discards = [a for a in legal if a[0] == "discard"]
    if discards:
        scores = discard_scores(obs)
        discards.sort(key=lambda a: (scores.get(a[1], 0.0), a[1]))
        cands += discards[: (5 if wide else 3)]
    takes = [a for a in legal if a[0] == "take"]
    takes.sort(key=take_cost)
    cands += takes[:3]
    for a in legal:
        if a[0] in ("draw", "ask", "pass", "yes", "no"):
            cands.append(a)
    melds = [a for a in legal if a[0] in ("meld", "add")]
    if melds:
        from .rules_of_thumb import meld_points

        melds.sort(key=meld_points, reverse=True)
        cands += melds[: (4 if wide else 2)]
    seen = []
    for a in cands:
        if a not in seen:
            seen.append(a)
    return seen


def sample_values(state: State, seat: int, candidates: list[tuple], iterations: int, seed: int,
                  max_seconds: float | None = None, turns: int | None = None) -> list[list[float]]:
    """Playout values of each candidate on ``iterations`` shared samples of the hidden cards
    (fewer if ``max_seconds`` runs out); playouts cut off after ``turns`` turns if given (:func:`playout`)."""
    return sample_line_values(state, seat, [(a,) for a in candidates], iterations, seed, max_seconds, turns)


def sample_line_values(state: State, seat: int, lines: list[tuple[tuple, ...]], iterations: int, seed: int,
                       max_seconds: float | None = None, turns: int | None = None) -> list[list[float]]:
    """Playout values of each line (actions played one after another, then the hand played
    out, or cut off after ``turns`` turns) on ``iterations`` shared samples of the hidden cards
    (fewer if ``max_seconds`` runs out).  A single action is a line of one.  With ``turns``, the
    draws are coupled (:func:`playout`, one :func:`draw_orders` per deal)."""
    rng = random.Random(seed)
    values: list[list[float]] = [[] for _ in lines]
    start = time.perf_counter()
    for it in range(iterations):
        det = sample_hidden(state, seat, rng)
        if det is None:
            break
        orders = draw_orders(det, rng) if turns is not None else None
        for i, line in enumerate(lines):
            s = det.copy()
            for a in line:
                _apply(s, a, orders)
            values[i].append(playout(s, seat, turns, orders))
        if max_seconds is not None and it >= 3 and time.perf_counter() - start > max_seconds:
            break
    return values


def sample_values_from(state: State, seat: int, candidates: list[tuple], first: int, stop: int,
                       seed: int) -> list[list[float]]:
    """Whole-hand playout values of each candidate on the sampled deals ``first`` to ``stop - 1`` of the
    stream ``seed``: the values :func:`sample_values` (``stop`` deals, no cut-off) gives them after its first
    ``first`` deals, which are drawn here but not played.  So a search can go on where it stopped, and play a
    candidate it left aside on the deals it missed (the puzzles' sequential search).  Fewer values when the
    stream runs out of deals that fit the turn, as :func:`sample_values` has."""
    rng = random.Random(seed)
    values: list[list[float]] = [[] for _ in candidates]
    for it in range(stop):
        det = sample_hidden(state, seat, rng)
        if det is None:
            break
        if it < first:
            continue
        for i, a in enumerate(candidates):
            s = det.copy()
            _apply(s, a, None)
            values[i].append(playout(s, seat))
    return values


def _mean_se(vals: list[float]) -> tuple[float, float]:
    n = len(vals)
    if n == 0:
        return 0.0, 0.0
    m = sum(vals) / n
    if n == 1:
        return m, 0.0
    return m, math.sqrt(sum((x - m) ** 2 for x in vals) / (n - 1) / n)


def summarize(candidates: list[tuple], values: list[list[float]]) -> list[Estimate]:
    """Estimates sorted best first; ``diff_stderr`` and ``gap`` compare each with the best on
    the sampled deals both were played on.

    Candidates played on more deals rank first (a race, :func:`race_values`, plays its
    survivors on more deals than the candidates it dropped), then by value.  The values are
    played on the same deals in the same order, so a candidate's deals are the first ones of
    every candidate played on more."""
    est = []
    for a, vals in zip(candidates, values, strict=True):
        m, se = _mean_se(vals)
        est.append(Estimate(a, m, se, len(vals)))
    order = sorted(range(len(est)), key=lambda i: (-est[i].samples, -est[i].mean, i))
    best = order[0]
    for i in order[1:]:
        n = len(values[i])
        if n == len(values[best]):
            est[i].diff_stderr = _mean_se([x - y for x, y in zip(values[best], values[i], strict=True)])[1]
            est[i].gap = est[best].mean - est[i].mean
        else:
            est[i].gap, est[i].diff_stderr = _mean_se([x - y for x, y in zip(values[best][:n], values[i], strict=True)])
    return [est[i] for i in order]


def _play_deal(state: State, seat: int, rng: random.Random, candidates: list[tuple], alive: list[int],
               values: list[list[float]], turns: int | None) -> bool:
    """Sample one deal of the hidden cards and play each candidate of ``alive`` out on it, appending its value
    to ``values``; with ``turns``, cut-off playouts with coupled draws.  False when no deal fits the turn."""
    det = sample_hidden(state, seat, rng)
    if det is None:
        return False
    orders = draw_orders(det, rng) if turns is not None else None
    for i in alive:
        s = det.copy()
        _apply(s, candidates[i], orders)
        values[i].append(playout(s, seat, turns, orders))
    return True


def race_values(state: State, seat: int, candidates: list[tuple], playouts: int, seed: int,
                max_seconds: float | None = None, min_round: int = RACE_MIN_ROUND,
                turns: int | None = None, keep_first: bool = False,
                drop_z: float | None = None, keep: int | None = None) -> list[list[float]]:
    """Playout values of each candidate, by successive halving on shared samples of the hidden cards.

    The race runs ``ceil(log2(k))`` rounds for ``k`` candidates.  Each round shares
    ``playouts / rounds`` playouts among the candidates still in the race (at least
    ``min_round`` samples each) and plays them all on the same new sampled deals; after every
    round but the last, the better half by value stays in.  So the budget goes where the choice
    is made: with 8 candidates and 240 playouts the last two are compared on 70 shared deals
    where an even split gives each 30.  Deterministic for a seed (``max_seconds`` aside, which
    ends the race early on the deals played so far).  A candidate's list holds its values on
    the first deals, in order.  ``turns``: cut-off playouts (:func:`playout`).  ``keep_first``:
    the first candidate stays in every round and the others are halved (the expert's race,
    where the first is the rules-of-thumb choice that a challenger must beat).  With ``turns``,
    the draws are coupled (:func:`playout`, one :func:`draw_orders` per deal).

    With ``drop_z``, the race is run by elimination instead (:func:`_drop_race`, the hint's), never
    dropping the candidate of index ``keep``."""
    if drop_z is not None:
        return _drop_race(state, seat, candidates, playouts, seed, max_seconds, min_round, turns, drop_z, keep)
    k = len(candidates)
    rounds = max(1, math.ceil(math.log2(k))) if k > 1 else 1
    rng = random.Random(seed)
    values: list[list[float]] = [[] for _ in candidates]
    alive = list(range(k))
    start = time.perf_counter()
    played = 0
    for r in range(rounds):
        for _ in range(max(min_round, playouts // (rounds * len(alive)))):
            if not _play_deal(state, seat, rng, candidates, alive, values, turns):
                return values
            played += 1
            if max_seconds is not None and played >= 4 and time.perf_counter() - start > max_seconds:
                return values
        if r < rounds - 1:
            kept = [0] if keep_first else []
            rest = [i for i in alive if i not in kept]
            ranked = sorted(rest, key=lambda i: (-sum(values[i]) / len(values[i]), i))
            alive = kept + sorted(ranked[: (len(rest) + 1) // 2])
    return values


def _trails(best: list[float], other: list[float], z: float) -> bool:
    """Whether ``other`` trails ``best`` (values on the same deals) by more than ``z`` paired standard errors."""
    m, se = _mean_se([x - y for x, y in zip(best, other, strict=True)])
    return m > z * se


#: a race by elimination looks first once every candidate has been played on this share of the budget
DROP_FIRST_SHARE = 4


def _drop_race(state: State, seat: int, candidates: list[tuple], playouts: int, seed: int,
               max_seconds: float | None, step: int, turns: int | None, drop_z: float,
               keep: int | None = None) -> list[list[float]]:
    """:func:`race_values` by elimination: every candidate still in is played on the same new sampled deals,
    ``step`` deals at a time; after each step, a candidate that trails the leader (the best mean) by more
    than ``drop_z`` standard errors of their paired difference is dropped.  The race ends when one
    candidate is left or the next deal would spend more than ``playouts`` playouts.  So a clear choice costs
    little, and a close one gets the whole budget, most of it on the moves that are still in.

    Looks start after two steps, but until each candidate has been played on ``first = playouts /
    (DROP_FIRST_SHARE * k)`` deals a move must trail by ``drop_z * sqrt(first / deals)`` standard errors
    to be dropped: only a move far behind goes that early.  On a few deals the paired difference of two
    moves is often 0 on nearly every deal and its standard error says little; and as ``first`` scales
    with the budget, a long race (the benchmark's oracle) drops a move on no fewer deals than a short one
    would at the same lead.  Deterministic for a seed (``max_seconds`` aside).

    ``keep`` (an index) is a move never dropped, for grading it: unless it leads, the race goes on to the
    end of the budget, so its gap to the best is measured on as many deals as the best's, and as precisely
    as the budget allows (a race that stopped once the move was clearly behind would leave a wide interval,
    and the grade, which counts a loss only beyond one standard error, would go easy on a clear mistake)."""
    k = len(candidates)
    rng = random.Random(seed)
    values: list[list[float]] = [[] for _ in candidates]
    alive = list(range(k))
    first = max(2 * step, playouts // (DROP_FIRST_SHARE * k))
    start = time.perf_counter()
    played = deals = 0
    while len(alive) > 1 and played + len(alive) <= playouts:
        for _ in range(step):
            if played + len(alive) > playouts:  # never more than the budget
                break
            if not _play_deal(state, seat, rng, candidates, alive, values, turns):
                return values
            played += len(alive)
            deals += 1
            if max_seconds is not None and deals >= 4 and time.perf_counter() - start > max_seconds:
                return values
        if deals >= 2 * step:
            z = drop_z * max(1.0, math.sqrt(first / deals))  # stricter before the first full look
            lead = max(alive, key=lambda i: (sum(values[i]), -i))
            alive = [i for i in alive if i == lead or i == keep or not _trails(values[lead], values[i], z)]
    return values


def search(state: State, seat: int, candidates: list[tuple], iterations: int, seed: int,
           max_seconds: float | None = None, turns: int | None = None) -> list[Estimate]:
    """Evaluate candidates on shared samples of the hidden cards; sorted best first."""
    return summarize(candidates, sample_values(state, seat, candidates, iterations, seed, max_seconds, turns))


def race(state: State, seat: int, candidates: list[tuple], playouts: int, seed: int,
         max_seconds: float | None = None, min_round: int = RACE_MIN_ROUND, turns: int | None = None,
         drop_z: float | None = None, keep: int | None = None) -> list[Estimate]:
    """Evaluate candidates by :func:`race_values` with a budget of ``playouts``; sorted best first."""
    return summarize(candidates, race_values(state, seat, candidates, playouts, seed, max_seconds, min_round, turns,
                                             drop_z=drop_z, keep=keep))


def pick(candidates: list[tuple], values: list[list[float]], z: float) -> tuple:
    """The first candidate (the rules-of-thumb choice) unless another beats it by more than
    ``z`` paired standard errors: search overrules the heuristics only when it is sure.
    Only candidates played on as many deals as the first can overrule it (a race,
    ``race_values(keep_first=True)``, drops the others on fewer deals)."""
    best_i, best_gain = 0, 0.0
    for i in range(1, len(candidates)):
        if len(values[i]) != len(values[0]):
            continue
        m, se = _mean_se([x - y for x, y in zip(values[i], values[0], strict=True)])
        if m > z * se and m > best_gain:
            best_i, best_gain = i, m
    return candidates[best_i]


class ExpertBot:
    """Callable policy ``bot(observation) -> action``, deterministic for a given seed.

    ``iterations`` playouts per candidate of a searched decision (default ``EXPERT_ITERATIONS``,
    or ``EXPERT_CUT_ITERATIONS`` in a variant whose playouts are cut off), shared out by a race
    that keeps the rules-of-thumb choice in (Samba: the same samples for every candidate);
    decisions with a single sensible candidate are left to the rules of thumb.
    """

    name = "expert"

    def __init__(self, iterations: int | None = None, seed: int = 0, max_seconds: float | None = None,
                 search_melds: bool = True, z: float = 1.0) -> None:
        self.z = z
        self.iterations = iterations
        self.seed = seed
        self.max_seconds = max_seconds
        self.search_melds = search_melds

    def __call__(self, obs: Observation) -> tuple:
        state = state_from_observation(obs)
        return self.act(state, obs.seat)

    def act(self, state: State, seat: int) -> tuple:
        """Decide on a state, reading only what ``seat`` may know (the search re-deals hidden cards)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.variant.numbered_melds:  # numbered melds (Samba): their own table and search
            return self._samba_act(state, seat)
        if state.phase == "meld":
            obs = observe_compact(state, seat, legal)
            choice = decide(obs)[0]
            if choice[0] in ("meld", "add"):
                # meld as the rules of thumb say, or stop here and discard: search the two
                discards = [a for a in legal if a[0] == "discard"]
                if not discards or not self.search_melds:
                    return choice
                scores = discard_scores(obs)
                cands = [choice, min(discards, key=lambda a: (scores.get(a[1], 0.0), a[1]))]
                if ("ask",) in legal:
                    cands.append(("ask",))
                return self._choose(state, seat, cands)
        cands = candidate_actions(state, seat)
        if len(cands) == 1:
            return cands[0]
        return self._choose(state, seat, cands)

    def _choose(self, state: State, seat: int, cands: list[tuple], iterations: int | None = None,
                even: bool = False) -> tuple:
        """``pick`` on ``n`` playouts per candidate: raced, so the challengers are halved each round
        and the rules-of-thumb choice meets the best of them on the most deals, or split ``even``ly."""
        seed = hash((self.seed, len(state.history), seat)) & 0xFFFFFFFF
        turns = state.variant.playout_turns
        n = iterations or self.iterations or (EXPERT_CUT_ITERATIONS if turns else EXPERT_ITERATIONS)
        if even:
            values = sample_values(state, seat, cands, n, seed, self.max_seconds, turns)
        else:
            values = race_values(state, seat, cands, n * len(cands), seed, self.max_seconds,
                                 min_round=1, turns=turns, keep_first=True)
        return pick(cands, values, self.z)

    def _samba_act(self, state: State, seat: int) -> tuple:
        """Samba: the same search over Samba's candidates (:func:`samba_candidates`), on at most
        ``SAMBA_ITERATIONS`` samples, since a Samba playout costs many classic ones; split evenly,
        as so few are too few to halve."""
        cands = candidate_actions(state, seat)
        if len(cands) == 1:
            return cands[0]
        return self._choose(state, seat, cands, min(self.iterations or EXPERT_ITERATIONS, SAMBA_ITERATIONS),
                            even=True)

    def state_policy(self, state: State, seat: int) -> tuple:
        """For fast matches: decide straight from a state (the search only uses public
        facts and the seat's own hand; hidden cards are re-dealt before any playout)."""
        return self.act(state, seat)


__all__ = ["ExpertBot", "determinize", "search", "race", "race_values", "sample_values", "sample_line_values",
           "candidate_actions", "playout", "draw_orders", "state_from_observation", "Estimate", "rot_policy"]
