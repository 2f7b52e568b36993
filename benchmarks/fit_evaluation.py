"""Fit the cut-off playouts' evaluation from rules-of-thumb self-play (writes the weights; prints the fit).

    .venv/bin/python benchmarks/fit_evaluation.py                 # 6000 hands, seeds 100000...
    .venv/bin/python benchmarks/fit_evaluation.py --hands 500 --dry-run
    .venv/bin/python benchmarks/fit_evaluation.py --variant three-handed   # that variant's weights

Plays a variant's hands (classic by default) with the rules-of-thumb policy (the search's playout
policy) from seeded deals.  At the start of every turn it records the facts of
:func:`canasta_tutor.bots.evaluation.features` for both sides, and pairs them
with the margin the hand ended with (with three sides: the side's score less
the others' mean).  A least-squares fit with numpy (a small ridge term keeps
rare facts tame) gives the weights that the variant's file holds
(``canasta_tutor/bots/evaluation_weights.json`` for classic; see
:func:`canasta_tutor.bots.evaluation.weights_file`).  The seeds start far
from the ones the benchmarks and tests deal, so the fit never saw their hands.

It prints how much of the final margin's spread the estimate explains, on
hands held out of the fit, by the number of turns left: the search's cut-off
playouts gain where the estimate is sharp.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_tutor.bots.evaluation import FEATURES, features, weights_file  # noqa: E402
from canasta_tutor.bots.expert import margin, rot_policy  # noqa: E402
from canasta_tutor.engine.game import Game  # noqa: E402
from canasta_tutor.engine.state import DRAW, GAME_OVER, HAND_OVER  # noqa: E402

FIRST_SEED = 100_000


def hand_rows(seed: int, variant: str = "classic") -> tuple[list[list[float]], list[float], list[int]]:
    """One self-played hand: features at each turn's start (every side), the final margins, turns left."""
    state = Game(variant=variant).new_initial_state(seed=seed)
    n_sides = state.variant.n_sides
    starts: list[list[list[float]]] = []
    last_turn = -1
    turns: list[int] = []
    while state.phase not in (HAND_OVER, GAME_OVER):
        if state.phase == DRAW and (state.turn != last_turn or not starts):
            starts.append([features(state, side) for side in range(n_sides)])
            last_turn = state.turn
        state.apply_unchecked(rot_policy(state, state.actor))
    sides = state.hand_results[-1].sides
    margins = [margin(sides, side) for side in range(n_sides)]
    xs: list[list[float]] = []
    ys: list[float] = []
    n = len(starts)
    for i, rows in enumerate(starts):
        xs += rows
        ys += margins
        turns += [n - i] * n_sides
    return xs, ys, turns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=FIRST_SEED)
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--variant", default="classic", help="the variant to fit (the classic game by default)")
    ap.add_argument("--dry-run", action="store_true", help="print the fit, do not write the weights")
    args = ap.parse_args()
    try:
        from tqdm.auto import tqdm
        seeds = tqdm(range(args.seed, args.seed + args.hands), desc="hands", unit="hand")
    except ImportError:  # pragma: no cover - tqdm comes with the lab extras
        seeds = range(args.seed, args.seed + args.hands)
    xs: list[list[float]] = []
    ys: list[float] = []
    left: list[int] = []
    hand_of: list[int] = []
    for s in seeds:
        x, y, t = hand_rows(s, args.variant)
        xs += x
        ys += y
        left += t
        hand_of += [s] * len(y)
    X = np.asarray(xs)
    y = np.asarray(ys)
    held = np.asarray(hand_of) % 5 == 0  # every fifth hand is held out to judge the fit
    A = np.hstack([np.ones((len(X), 1)), X])
    train = ~held
    scale = A[train].std(axis=0)
    scale[scale == 0] = 1.0
    As = A / scale
    reg = args.ridge * np.eye(A.shape[1])
    reg[0, 0] = 0.0
    coef = np.linalg.solve(As[train].T @ As[train] + reg, As[train].T @ y[train]) / scale
    pred = A @ coef
    turns_left = np.asarray(left)
    print(f"{args.variant}: hands {args.hands} (seeds {args.seed}..{args.seed + args.hands - 1}), rows {len(y)}, "
          f"held out {int(held.sum())}")
    print("turns left   rows   spread of margin   spread left after the estimate   share explained")
    for lo, hi in ((1, 4), (5, 8), (9, 16), (17, 32), (33, 999)):
        sel = held & (turns_left >= lo) & (turns_left <= hi)
        if sel.sum() < 10:
            continue
        sd, rsd = float(y[sel].std()), float((y[sel] - pred[sel]).std())
        print(f"{lo:>4}-{hi:<6}{int(sel.sum()):>7}{sd:>18.1f}{rsd:>32.1f}{1 - rsd ** 2 / sd ** 2:>18.3f}")
    sd, rsd = float(y[held].std()), float((y[held] - pred[held]).std())
    print(f"all held out: spread {sd:.1f}, left {rsd:.1f}, explained {1 - rsd ** 2 / sd ** 2:.3f}")
    for name, w in zip(FEATURES, coef[1:], strict=True):
        print(f"  {name:<28}{w:>10.3f}")
    if not args.dry_run:
        data = {"fitted_by": "benchmarks/fit_evaluation.py", "variant": args.variant, "hands": args.hands,
                "first_seed": args.seed,
                "ridge": args.ridge, "held_out_explained": round(1 - rsd ** 2 / sd ** 2, 4),
                "features": list(FEATURES), "intercept": round(float(coef[0]), 6),
                "weights": [round(float(w), 6) if math.isfinite(w) else 0.0 for w in coef[1:]]}
        path = weights_file(args.variant)
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path.name}")


if __name__ == "__main__":
    main()
