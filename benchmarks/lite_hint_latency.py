"""How long does a hint take in the browser build? (a script that prints figures)

    .venv/bin/python benchmarks/lite_hint_latency.py --positions 4          # a quick look
    .venv/bin/python benchmarks/lite_hint_latency.py --positions 20 --shares 1,0.5,0.25 --json

Serves ``build/lite/`` (``make lite``) from ``python -m http.server`` on 127.0.0.1, loads the site's own
Pyodide runtime and wheels in Debian's Chromium (headless, as the browser tests run it), and times
``hint(obs, seed=0)`` there, the hint the table shows, on positions from seeded rules-of-thumb self-play
(``hint_accuracy.py``'s, taken in turn from its four phases), at each share of the variant's race in
``--shares`` (``canasta_tutor.hint.budget.BROWSER_SHARE``; the site uses the module's value).  Pyodide
runs in the page itself here, not in JupyterLite's kernel worker: the same interpreter and search.

For each share it prints p50, p95 and the maximum of the wall-clock time measured in the page
(``performance.now``), and of the CPU time of Chromium's renderer processes over the same hint (read from
the operating system), since on a busy machine the wall clock also counts waiting for a core.  It also
checks that the browser's move is the hint's in this process for the same position text at the same budget
(the text is what crosses to the browser: it leaves out the cards the seat has seen others take, so the
hint from it may differ from the hint from the self-play's own state), and prints
the time the runtime and the packages took to load.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psutil  # noqa: E402
from hint_accuracy import draw_positions, quantile  # noqa: E402

from canasta_tutor.notation.actions import format_action  # noqa: E402
from canasta_tutor.hint import _SEARCHES, budget, hint  # noqa: E402
from canasta_tutor.engine.observer import observe  # noqa: E402
from canasta_tutor.notation.position import format_position, parse_position  # noqa: E402
from canasta_tutor.engine.variants import get_variant  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

LOAD = """async () => {
  const t0 = performance.now();
  const { loadPyodide } = await import('/static/pyodide/pyodide.mjs');
  const py = await loadPyodide({ indexURL: '/static/pyodide/' });
  await py.loadPackage(['canasta-tutor']);
  await py.runPythonAsync(`
import json, time
from canasta_tutor.notation.actions import format_action
from canasta_tutor.hint import _SEARCHES, budget, hint
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import parse_position

def one(text, share):
    budget.BROWSER_SHARE = share
    _SEARCHES.clear()  # the hint keeps its searches: each share searches afresh
    state = parse_position(text)
    obs = observe(state, state.actor)
    t = time.perf_counter()
    h = hint(obs, seed=0)
    return json.dumps({"ms": 1000 * (time.perf_counter() - t), "move": format_action(h.best),
                       "in_browser": budget.IN_BROWSER})
`);
  window.py = py;
  return performance.now() - t0;
}"""

ONE = """async ([text, share]) => {
  const t = performance.now();
  const out = JSON.parse(window.py.globals.get('one')(text, share));
  out.page_ms = performance.now() - t;
  return out;
}"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _renderer_cpu() -> float:
    """CPU seconds (user and system) of this process tree's Chromium renderers."""
    total = 0.0
    for p in psutil.Process().children(recursive=True):
        try:
            if "--type=renderer" in " ".join(p.cmdline()):
                t = p.cpu_times()
                total += t.user + t.system
        except psutil.Error:
            continue
    return total


def _here(text: str, share: float) -> str:
    """The hint's move in this process for the same position text, at ``share`` of the race (as the browser)."""
    saved = budget.IN_BROWSER, budget.BROWSER_SHARE
    budget.IN_BROWSER, budget.BROWSER_SHARE = True, share
    try:
        _SEARCHES.clear()
        state = parse_position(text)
        return format_action(hint(observe(state, state.actor), seed=0).best)
    finally:
        budget.IN_BROWSER, budget.BROWSER_SHARE = saved
        _SEARCHES.clear()


def summary(values: list[float]) -> dict[str, float]:
    return {"p50": round(quantile(values, 50)), "p95": round(quantile(values, 95)), "max": round(max(values))}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--site", type=Path, default=ROOT / "build" / "lite")
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--seed", type=int, default=1, help="seed of the self-play that gives the positions")
    p.add_argument("--shares", default="0.25", help="shares of the variant's race to time, comma separated")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    from playwright.sync_api import sync_playwright

    if not (args.site / "static" / "pyodide" / "pyodide.mjs").is_file():
        raise SystemExit(f"no site at {args.site}: run `make lite` first")
    shares = [float(x) for x in args.shares.split(",") if x.strip()]
    positions = draw_positions(args.positions, args.seed)
    texts = [format_position(s) for _, s in positions]
    full = get_variant("classic").hint_playouts or 1600
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d",
                               str(args.site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    result: dict[str, Any] = {"positions": len(texts), "seed": args.seed, "load_average": list(psutil.getloadavg())}
    try:
        time.sleep(1.0)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page()
            page.on("console", lambda m: print(f"browser: {m.text}", file=sys.stderr) if m.type == "error" else None)
            page.goto(f"http://127.0.0.1:{port}/static/pyodide/package.json")
            cpu0 = _renderer_cpu()
            result["load_ms"] = round(page.evaluate(LOAD))
            result["load_renderer_cpu_ms"] = round(1000 * (_renderer_cpu() - cpu0))
            result["by_share"] = {}
            for share in shares:
                walls, cpus, same = [], [], 0
                for text in texts:
                    c = _renderer_cpu()
                    out = page.evaluate(ONE, [text, share])
                    cpus.append(1000 * (_renderer_cpu() - c))
                    walls.append(out["ms"])
                    same += _here(text, share) == out["move"]
                result["in_browser"] = out["in_browser"]
                result["by_share"][str(share)] = {"playouts": max(2, round(full * share)), "wall_ms": summary(walls),
                                                  "renderer_cpu_ms": summary(cpus), "same_move_as_here": same,
                                                  "over_3s": sum(w > 3000 for w in walls)}
            browser.close()
    finally:
        server.terminate()
        server.wait()
    result["load_average_after"] = list(psutil.getloadavg())
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['positions']} positions (seed {args.seed}); Pyodide and the packages loaded in "
          f"{result['load_ms']} ms (renderer CPU {result['load_renderer_cpu_ms']} ms); load average "
          f"{result['load_average'][0]:.1f} before, {result['load_average_after'][0]:.1f} after")
    for share, v in result["by_share"].items():
        print(f"  share {share} ({v['playouts']} playouts): wall p50 {v['wall_ms']['p50']} ms, p95 "
              f"{v['wall_ms']['p95']} ms, max {v['wall_ms']['max']} ms; renderer CPU p50 "
              f"{v['renderer_cpu_ms']['p50']} ms, p95 {v['renderer_cpu_ms']['p95']} ms; over 3 s: "
              f"{v['over_3s']}; same move as here: {v['same_move_as_here']} of {result['positions']}")


if __name__ == "__main__":
    main()
