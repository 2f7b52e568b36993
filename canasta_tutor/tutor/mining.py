"""Mining puzzles from seeded self-play.

Each game (seed ``seed + g``) plays its first hand with the expert bot at every seat.  At
every decision with more than one legal move (draw, meld and answer phases), a short
screening search (:data:`SCREEN_SAMPLES` sampled deals) looks for a clear best move; a
position that passes the screen is verified in full (:func:`.puzzles.complete`, at least
2000 sampled deals) and kept only when it passes the only-move rule.  Forced positions
never reach the screen, and near-duplicates (same solver hand, same pile top and pile
size, same melds on the table) are dropped.

The screen only saves time: every kept puzzle carries the full verification block, which
``canasta-tutor puzzles verify`` recomputes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..actions import format_action
from ..errors import CanastaError
from ..game import Game
from ..observer import observe
from ..position import format_position
from ..state import DRAW, GAME_OVER, HAND_OVER, MELD, SEATS, State
from .puzzles import MARGIN, MIN_SAMPLES, Z95, Puzzle, complete, format_puzzle, parse_puzzles, problems

SCREEN_SAMPLES = 60
SCREEN_MARGIN = MARGIN  # the screen asks for the full margin already
MAX_PLIES = 400


@dataclass
class MineResult:
    """What one game gave: puzzle records (text), positions screened, CPU seconds."""

    seed: int
    records: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    decisions: int = 0
    screened: int = 0
    verified: int = 0
    cpu: float = 0.0


def _key(state: State, seat: int) -> str:
    """Near-duplicate key: the solver's hand, the pile's top and size, the melds."""
    text = format_position(state, seat)
    keep = [ln for ln in text.splitlines() if ln.startswith((f"{SEATS[seat]}:", "melds", "turn:"))]
    top = state.pile[-1] if state.pile else -1
    return "|".join(keep) + f"|{top}|{len(state.pile)}"


def _record(state: State, seat: int, seed: int, ply: int, solution: str) -> str:
    lines = [ln for ln in format_position(state, seat).splitlines()
             if ln.strip() and ln != "canasta-tutor position" and not ln.startswith(("seed:", "deal:"))]
    return "\n".join([f"puzzle: m{seed}-{ply}", f"source: mined seed={seed} deal={state.deal_no} ply={ply}",
                      "objective: hand", f"solution: {solution}", "accept:", "themes:", "rating: 1500 350",
                      "position:"] + ["  " + ln for ln in lines] + ["verification:", "  forced: yes",
                                                                   "  engine: draft"]) + "\n"


def mine_game(seed: int, samples: int = MIN_SAMPLES, screen: int = SCREEN_SAMPLES,
              iterations: int = 24) -> MineResult:
    """Puzzles from the first hand of the game with ``seed``, played by the expert bot."""
    from ..bots import make_state_policy
    from ..hint import analyse

    start = time.process_time()
    out = MineResult(seed)
    policy = make_state_policy("expert", seed=seed, iterations=iterations)
    state = Game().new_initial_state(seed)
    seen: set[str] = set()
    ply = 0
    while state.phase not in (HAND_OVER, GAME_OVER) and ply < MAX_PLIES:
        seat = state.actor
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) > 1 and state.phase in (DRAW, MELD):
            out.decisions += 1
            key = _key(state, seat)
            if key not in seen:
                seen.add(key)
                _, est = analyse(observe(state, seat), samples=screen, seed=seed * 1000 + ply)
                gap = est[0].mean - est[1].mean if len(est) > 1 else 0.0
                if len(est) > 1 and gap >= SCREEN_MARGIN and gap - Z95 * est[1].diff_stderr > 0:
                    out.screened += 1
                    kept = _verify(state, seat, seed, ply, format_action(est[0].action), samples)
                    if kept is not None:
                        out.records.append(format_puzzle(kept))
                        out.keys.append(key)
                        out.verified += 1
        state.apply(policy(state, seat))
        ply += 1
    out.cpu = time.process_time() - start
    return out


def _verify(state: State, seat: int, seed: int, ply: int, solution: str, samples: int) -> Puzzle | None:
    try:
        draft = parse_puzzles(_record(state, seat, seed, ply, solution), f"m{seed}-{ply}")[0]
    except CanastaError:  # a position the solver's view cannot state (e.g. an answer to an ask)
        return None
    done = complete(draft, samples, seed=1)
    return None if problems(done, done.verification) else done


__all__ = ["mine_game", "MineResult", "SCREEN_SAMPLES"]
