"""Random self-play: a soak test of the engine and a speed benchmark.

Random players (four in the classic game; as many as a variant seats otherwise)
pick uniformly among :meth:`State.legal_actions` at every decision, game after
game.  With ``check=True`` every state along the way is checked with
:func:`~canasta_tutor.engine.invariants.check_invariants`, and also:

- the legal-action list is non-empty unless the game is over, and lists each
  action once;
- listing the legal actions does not change the state;
- the action chosen from the list passes the checked path's test
  (:meth:`State.explain` returns None for it).

>>> report = run_selfplay(hands=3, seed=5)
>>> report.hands, report.actions > 100
(3, True)
>>> run_selfplay(hands=2, seed=5, variant="six-handed").violations
0
"""

from __future__ import annotations

import random
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from typing import Any

from ..notation.actions import format_action
from ..engine.game import Game
from ..engine.invariants import check_invariants
from ..engine.options import RuleOptions
from ..engine.state import GAME_OVER, HAND_OVER, Action, State
from ..engine.variants import CLASSIC, Variant, get_variant

#: How many violation messages a report keeps.
KEEP_MESSAGES = 10


@dataclass
class SelfplayReport:
    """What a self-play run did, how fast, and what went wrong."""

    hands: int
    actions: int
    games: int
    seconds: float
    hands_per_s: float
    us_per_action: float
    violations: int
    messages: list[str] = field(default_factory=list)
    seed: int = 0
    check: bool = True
    variant: str = "classic"
    #: the engine that played: ``"python"`` (this module) or ``"compiled"`` (the search's compiled copy,
    #: :mod:`canasta_tutor.bots.native`, which runs this same module compiled)
    engine: str = "python"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return asdict(self)

    def format(self) -> str:
        """A few lines for people."""
        lines = [
            f"hands: {self.hands}",
            f"actions: {self.actions}",
            f"games: {self.games} (from seed {self.seed})",
            *([f"variant: {self.variant}"] if self.variant != "classic" else []),
            f"seconds: {self.seconds:.2f}",
            f"hands per second: {self.hands_per_s:.1f}",
            f"microseconds per action: {self.us_per_action:.1f}",
            f"invariant checks: {'on' if self.check else 'off'}",
            f"engine: {self.engine}",
            f"invariant violations: {self.violations}",
        ]
        lines += [f"  {m}" for m in self.messages]
        return "\n".join(lines)


class _Abandon(Exception):
    """Internal: give up the current hand after a violation."""


def _snapshot(s: State) -> tuple[object, ...]:
    """Everything that legal_actions() might disturb, as comparable values."""
    return (
        s.phase, s.turn, s.dealer, s.deal_no, tuple(s.totals), tuple(s.hand_size),
        tuple(tuple(map(len, h)) for h in s.hands), tuple(tuple(k) for k in s.known),
        tuple((k, tuple(m[0]), tuple(m[1])) for side in s.melds for k, m in side.items()),
        tuple(tuple(r) for r in s.red3), tuple(s.pile), s.freeze_at, len(s.stock),
        tuple(s.initial), s.pending, s.shown, s.asked, s.answer, s.must_out, s.melded_turn,
        s.took_pack, tuple(s.first_turn_done), tuple(s.has_melded), s.b3_melded, s.went_out,
        s.concealed, len(s.hand_results), len(s.history), s.stock_emptied,
        tuple(repr(m) for side in getattr(s, "smelds", ()) for m in side),  # Samba's melds
    )


def run_selfplay(hands: int, seed: int, check: bool = True, progress: bool = False,
                 options: RuleOptions | None = None, variant: Variant | str = CLASSIC) -> SelfplayReport:
    """Play ``hands`` hands of random legal actions and report speed and violations.

    Games use seeds ``seed``, ``seed + 1``, ...; a new game starts when one is
    over, or after a violation: the hand is then abandoned (and counted, so a
    run always ends) and one fault is not counted a thousand times.
    Actions are applied with :meth:`State.apply_unchecked`.
    """
    if hands < 0:
        raise ValueError(f"hands must be 0 or more, not {hands}")
    game = Game(options or RuleOptions(), get_variant(variant))
    rng = random.Random(seed)
    choice = rng.choice
    getrandbits = rng.getrandbits
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=hands, unit="hand", file=sys.stderr)
    game_seed = seed
    state = game.new_initial_state(game_seed)
    games = 1
    done = 0
    actions = 0
    violations = 0
    messages: list[str] = []

    def fault(msgs: list[str], action: Action | None) -> None:
        nonlocal violations
        violations += len(msgs)
        where = f"seed {game_seed} deal {state.deal_no} action {len(state.history)}"
        if action is not None:
            try:
                where += f" ({format_action(action)})"
            except Exception:  # pragma: no cover - an unformattable action is itself reported
                where += f" ({action!r})"
        for m in msgs:
            if len(messages) < KEEP_MESSAGES:
                messages.append(f"{where}: {m}")

    start = time.perf_counter()
    bad: list[str] | None
    if check:
        bad = check_invariants(state)
        if bad:
            fault(bad, None)
    while done < hands:
        action: Action | None = None
        bad = None
        try:
            if check:
                before = _snapshot(state)
                legal = state.legal_actions()
                problems = []
                if _snapshot(state) != before:
                    problems.append("listing the legal actions changed the state")
                if not legal:
                    problems.append(f"no legal action in phase {state.phase}")
                elif len(set(legal)) != len(legal):
                    problems.append("an action is listed twice")
                if problems:
                    bad = problems
                    raise _Abandon
                action = choice(legal)
                why = state.explain(action)
                if why is not None:
                    fault([f"legal_actions() lists it, but explain() refuses: {why}"], action)
                state.apply_unchecked(action)
                actions += 1
                bad = check_invariants(state)
            else:
                # the benchmark's lean loop: no checks, to the end of the hand.  The choice is
                # random.choice's own (Random._randbelow_with_getrandbits, the same draws), written
                # out to save two calls per action; the pinned games in tests/test_engine_pin.py
                # hold the two to each other.
                while True:
                    action = None  # a fault while listing names no action
                    legal = state.legal_actions()
                    n = len(legal)
                    if not n:
                        raise IndexError("Cannot choose from an empty sequence")
                    bits = n.bit_length()
                    r = getrandbits(bits)
                    while r >= n:
                        r = getrandbits(bits)
                    action = legal[r]
                    state.apply_unchecked(action)
                    actions += 1
                    phase = state.phase
                    if phase == HAND_OVER or phase == GAME_OVER:
                        break
        except _Abandon:
            pass
        except Exception as e:  # an engine crash is a violation, not the end of the soak
            tb = traceback.extract_tb(e.__traceback__)[-1]
            bad = [f"{type(e).__name__}: {e} at {tb.filename.rsplit('/', 1)[-1]}:{tb.lineno}"]
        if bad:
            # the hand is abandoned (and counted, so a run always ends); play goes on with a new game
            fault(bad, action)
            done += 1
            if bar is not None:
                bar.update(1)
            state = game.new_initial_state(game_seed := game_seed + 1)
            games += 1
            continue
        phase = state.phase
        if phase == HAND_OVER or phase == GAME_OVER:
            done += 1
            if bar is not None:
                bar.update(1)
            if phase == GAME_OVER and done < hands:
                state = game.new_initial_state(game_seed := game_seed + 1)
                games += 1
    seconds = time.perf_counter() - start
    if bar is not None:
        bar.close()
    return SelfplayReport(
        hands=done,
        actions=actions,
        games=games,
        seconds=seconds,
        hands_per_s=done / seconds if seconds > 0 else 0.0,
        us_per_action=seconds / actions * 1e6 if actions else 0.0,
        violations=violations,
        messages=messages,
        seed=seed,
        check=check,
        variant=game.variant.name,
    )


__all__ = ["run_selfplay", "SelfplayReport"]
