"""A soak of the rules engine with the rules-of-thumb bot at every seat (a script that prints figures, not a test).

``canasta-tutor selfplay`` soaks the engine with random players, who seldom finish what a variant asks before
going out (Pennies from Heaven's four kinds of canasta: random play never goes out).  Here every seat plays
the rules-of-thumb policy (the search's playout policy), through the checked :meth:`State.apply`, so the paths
of a purposeful game run too: canastas completed, packets taken up, going out.  After every action the
invariants are checked (:func:`~canasta_tutor.engine.invariants.check_invariants`) and the seat to act must
have a legal action.  Each hand is a fresh deal (seed 0, 1, 2, ...).  Prints the hands, the actions, how many
hands a player went out, the canastas made by kind, the violations and the process CPU time.

    .venv/bin/python benchmarks/rules_soak.py --variant pennies --hands 1000
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_tutor.bots.expert import rot_policy  # noqa: E402
from canasta_tutor.engine.cards import DEUCE  # noqa: E402
from canasta_tutor.engine.game import Game  # noqa: E402
from canasta_tutor.engine.invariants import check_invariants  # noqa: E402
from canasta_tutor.engine.pennies_melds import canasta_kind  # noqa: E402
from canasta_tutor.engine.state import GAME_OVER, HAND_OVER  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="the first hand's seed")
    args = parser.parse_args()
    violations = out = actions = 0
    kinds: collections.Counter[str] = collections.Counter()
    cpu = time.process_time()
    for seed in range(args.seed, args.seed + args.hands):
        state = Game(variant=args.variant).new_initial_state(seed=seed)
        while state.phase not in (HAND_OVER, GAME_OVER):
            actor = state.actor
            assert actor is not None
            state.apply(rot_policy(state, actor))
            actions += 1
            problems = check_invariants(state)
            if not problems and state.phase not in (HAND_OVER, GAME_OVER) and not state.legal_actions():
                problems = ["no legal action"]
            if problems:
                violations += 1
                print(f"seed {seed}: {problems[0]}")
                break
        out += state.went_out is not None
        for side in range(state.variant.n_sides):
            for k, m in state.melds[side].items():
                if state.variant.four_kinds:
                    name = canasta_kind(k, len(m[0]), len(m[1]))
                elif len(m[0]) + len(m[1]) >= 7:
                    name = "deuces" if k == DEUCE else "mixed" if m[1] else "natural"
                else:
                    name = None
                if name is not None:
                    kinds[name] += 1
    print(f"variant {args.variant}, hands {args.hands} (seeds {args.seed}..{args.seed + args.hands - 1})")
    print(f"actions {actions}, went out {out}, canastas {dict(sorted(kinds.items()))}")
    print(f"invariant violations {violations}, CPU {time.process_time() - cpu:.1f} s")


if __name__ == "__main__":
    main()
