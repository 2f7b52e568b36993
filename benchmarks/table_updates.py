"""How big one table view update is, and how long Python takes from an intent to the new view.

Whole hands are played through :class:`canasta_tutor.ui.table.CanastaTable` with no
browser: the learner's moves (the rules-of-thumb bot's choice) are sent as the
browser would send them (``select`` then a button, each carrying the view's
``rev``), and the bots are stepped one action at a time as the widget paces them.
Every synced view is measured as the JSON the widget sends (bytes, UTF-8); every
intent is timed from ``handle`` to the new view set on the trait.

    .venv/bin/python benchmarks/table_updates.py --seeds 11 2 5 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_tutor.bots import RulesOfThumbBot  # noqa: E402
from canasta_tutor.engine.cards import CARD_KIND, DEUCE, JOKER  # noqa: E402
from canasta_tutor.engine.observer import observe  # noqa: E402
from canasta_tutor.tutor.view import kind_token  # noqa: E402
from canasta_tutor.ui.table import CanastaTable  # noqa: E402


class Measured(CanastaTable):
    sizes: list[int]

    def _sync(self) -> None:
        super()._sync()
        self.sizes.append(len(json.dumps(self.view, ensure_ascii=False).encode("utf-8")))


def intents(t: CanastaTable, action: tuple) -> list[dict]:
    verb = action[0]
    kinds: list[int] = []
    if verb in ("meld", "take"):
        k, n, j, d = action[1:]
        kinds = [k] * n + [JOKER] * j + [DEUCE] * d
    elif verb == "add":
        kinds = [action[2]]
    elif verb == "discard":
        kinds = [action[1]]
    hand = [CARD_KIND[c] for c in t.session.hand_cards()]
    idx: list[int] = []
    for k in kinds:
        idx.append(next(i for i, hk in enumerate(hand) if hk == k and i not in idx))
    button = {"pass": "draw", "deal": "new_hand"}.get(verb, verb)
    out: list[dict] = [{"intent": "select", "indices": sorted(idx)}] if kinds else []
    msg: dict = {"intent": button}
    if verb == "add":
        msg["to"] = kind_token(action[1])
    return out + [msg]


def run(seed: int) -> tuple[list[int], list[float], list[float], list[float]]:
    t = Measured.__new__(Measured)
    t.sizes = []
    Measured.__init__(t, seed=seed, bot_delay=1.0)  # no event loop: nothing is scheduled
    learner = RulesOfThumbBot()
    intent_ms: list[float] = []
    button_ms: list[float] = []
    bot_ms: list[float] = []
    for _ in range(5000):
        s = t.session
        if s.state.phase in ("hand_over", "game_over"):
            break
        if s.bot_to_move():
            start = time.perf_counter()
            s.step_bots(1)
            t._sync()
            bot_ms.append((time.perf_counter() - start) * 1000)
            continue
        for msg in intents(t, learner(observe(s.state, s.me))):
            msg["rev"] = t.view["rev"]
            start = time.perf_counter()
            t.session.handle(msg)  # the widget's handle without running the bots at once
            t._sync()
            intent_ms.append((time.perf_counter() - start) * 1000)
            if msg["intent"] != "select":
                button_ms.append(intent_ms[-1])
    return t.sizes, intent_ms, button_ms, bot_ms


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[11, 2, 5, 7, 19])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sizes: list[int] = []
    intent_ms: list[float] = []
    button_ms: list[float] = []
    bot_ms: list[float] = []
    for seed in args.seeds:
        a, b, c, d = run(seed)
        sizes += a
        intent_ms += b
        button_ms += c
        bot_ms += d
    out = {
        "hands": len(args.seeds), "updates": len(sizes),
        "bytes_median": int(statistics.median(sizes)), "bytes_max": max(sizes),
        "intents": len(intent_ms), "intent_to_view_ms_median": round(statistics.median(intent_ms), 2),
        "intent_to_view_ms_p95": round(sorted(intent_ms)[int(0.95 * (len(intent_ms) - 1))], 2),
        "button_to_view_ms_median": round(statistics.median(button_ms), 2),
        "button_to_view_ms_max": round(max(button_ms), 2),
        "bot_step_to_view_ms_median": round(statistics.median(bot_ms), 2),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:28} {v}")


if __name__ == "__main__":
    main()
