"""How long does the browser build take to open a lesson, and to answer a click? (a script that prints figures)

    .venv/bin/python benchmarks/lite_load.py                 # three cold loads of lesson 1
    .venv/bin/python benchmarks/lite_load.py --runs 5 --json

Serves ``build/lite/`` (``make lite``) from ``python -m http.server`` on 127.0.0.1 and, in a fresh Chromium
profile each run (nothing cached: a cold load), opens the first lesson's notebook in JupyterLite's lab and
times, from the start of the navigation: the lab's shell, the kernel ready (Pyodide and every package
loaded), and the lesson's widget shown after running the notebook; and adds up the size of the site's files
that the page and its kernel's worker asked for until then.  Then it plays the first level by clicks
(Draw, the 4, Discard) and times each click until the widget shows its answer.  Wall-clock times are
measured here; the CPU time of Chromium's processes (its renderers, where the kernel's worker runs, and the
rest) over the cold load is read from the operating system, since on a busy machine the wall clock also
counts waiting for a core.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
KERNEL_IDLE = """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.status === 'idle'; }"""
ROOT_SEL = ".jp-NotebookPanel:not(.lm-mod-hidden) .cl-root"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _chromium_cpu() -> float:
    """CPU seconds (user and system) of every Chromium process under this one."""
    total = 0.0
    for p in psutil.Process().children(recursive=True):
        try:
            if "chrom" in p.name():
                t = p.cpu_times()
                total += t.user + t.system
        except psutil.Error:
            continue
    return total


def one_run(pw: Any, base: str, site: Path) -> dict[str, Any]:
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    try:
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.set_default_timeout(240_000)
        fetched: set[str] = set()
        page.on("request", lambda r: fetched.add(r.url.split("?")[0].split("#")[0]))
        cpu = _chromium_cpu()
        t0 = time.perf_counter()
        page.goto(f"{base}/lab/index.html?path=lessons/01-cards.ipynb")
        page.wait_for_function("window.jupyterapp !== undefined")
        page.wait_for_selector(".jp-Cell")
        shell = time.perf_counter() - t0
        page.wait_for_function(KERNEL_IDLE, polling=100)
        kernel = time.perf_counter() - t0
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        root = page.locator(ROOT_SEL)
        root.wait_for()
        widget = time.perf_counter() - t0
        cpu_load = _chromium_cpu() - cpu
        files = {site / u[len(base) + 1:] for u in fetched if u.startswith(base + "/")}
        loaded = sum(f.stat().st_size for f in files if f.is_file())
        clicks = []
        for step in ('button[data-intent="press"][data-button="draw"]',
                     '.ct-seat-bottom .ct-hand .ct-card[data-card="4C"]',
                     'button[data-intent="press"][data-button="discard"]'):
            before = root.inner_html()
            t = time.perf_counter()
            root.locator(step).first.click()
            page.wait_for_function("([sel, html]) => { const r = document.querySelector(sel); "
                                   "return r && r.innerHTML !== html; }", arg=[ROOT_SEL, before], polling=10)
            clicks.append(time.perf_counter() - t)
        if root.get_attribute("data-status") != "passed":
            raise SystemExit("the level did not pass: the clicks did not play it")
        return {"shell_s": shell, "kernel_s": kernel, "widget_s": widget, "chromium_cpu_s": cpu_load,
                "fetched_mib": loaded / 2**20, "files_fetched": len(files),
                "click_ms": [1000 * c for c in clicks]}
    finally:
        browser.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--site", type=Path, default=ROOT / "build" / "lite")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    from playwright.sync_api import sync_playwright

    if not (args.site / "jupyter-lite.json").is_file():
        raise SystemExit(f"no site at {args.site}: run `make lite` first")
    size = sum(f.stat().st_size for f in args.site.rglob("*") if f.is_file())
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d",
                               str(args.site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    load_before = psutil.getloadavg()[0]
    try:
        time.sleep(1.0)
        with sync_playwright() as pw:
            runs = [one_run(pw, f"http://127.0.0.1:{port}", args.site) for _ in range(args.runs)]
    finally:
        server.terminate()
        server.wait()

    def med(key: str) -> float:
        return round(statistics.median(r[key] for r in runs), 2)

    clicks = [c for r in runs for c in r["click_ms"]]
    result = {"runs": args.runs, "site_mib": round(size / 2**20, 1),
              "files": sum(1 for f in args.site.rglob("*") if f.is_file()),
              "median_shell_s": med("shell_s"), "median_kernel_s": med("kernel_s"), "median_widget_s": med("widget_s"),
              "median_chromium_cpu_s": med("chromium_cpu_s"), "median_fetched_mib": med("fetched_mib"),
              "click_ms_median": round(statistics.median(clicks)),
              "click_ms_max": round(max(clicks)), "load_average": [round(load_before, 1),
                                                                    round(psutil.getloadavg()[0], 1)],
              "each": runs}
    if args.json:
        print(json.dumps(result))
        return
    print(f"site {result['site_mib']} MiB in {result['files']} files; {args.runs} cold loads of lesson 1 "
          f"(load average {result['load_average'][0]} before, {result['load_average'][1]} after)")
    print(f"  median: lab shell {result['median_shell_s']} s, kernel ready {result['median_kernel_s']} s, lesson "
          f"widget {result['median_widget_s']} s; Chromium's CPU over the load {result['median_chromium_cpu_s']} s; "
          f"{result['median_fetched_mib']} MiB fetched")
    print(f"  a click in the level, until the widget answers: median {result['click_ms_median']} ms, "
          f"max {result['click_ms_max']} ms ({len(clicks)} clicks)")


if __name__ == "__main__":
    main()
