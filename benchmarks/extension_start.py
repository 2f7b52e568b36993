"""The time from a click on the launcher's "Start" card to the start page, in JupyterLab.

Starts JupyterLab (this environment's, with the installed extension) on an empty folder and
drives Debian's chromium with Playwright:

- the **first click**, on the empty folder: the course is placed in ``canasta-tutor/`` by the
  server extension, then the start page opens;
- then ``--repeat`` more clicks, each after a fresh page load (the course is there; the server
  still checks every file against its manifest, as on every first use in a page).

The time runs from the click to the first rendered Markdown cell of ``index.ipynb`` (the
kernel starts after that and is not counted).  Prints each time and the median; nothing is
asserted.  ``tests/browser/test_extension_browser.py`` measures the first click of a pip user's
fresh environment the same way.

    .venv/bin/python benchmarks/extension_start.py --repeat 9
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

CHROMIUM = os.environ.get("CANASTA_CHROMIUM", "/usr/bin/chromium")
CARD = '.jp-LauncherCard[data-category="Canasta Tutor"]:has-text("Start")'
FIRST_CELL = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-MarkdownCell .jp-RenderedMarkdown"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_lab(tmp: Path) -> tuple[subprocess.Popen, str]:
    root = tmp / "root"
    root.mkdir()
    port = _port()
    home = tmp / "home"
    news = home / "lab-settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(home / "lab-settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
           "CANASTA_TUTOR_PROGRESS": str(tmp / "progress.sqlite3")}
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           f"--ServerApp.root_dir={root}", "--IdentityProvider.token=", "--ServerApp.password=",
           "--LabApp.expose_app_in_browser=True", "--allow-root"]
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/api/status", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.25)
    proc.terminate()
    raise SystemExit("JupyterLab did not start within 120 s")


def _click_to_start(page, url: str) -> float:
    page.goto(url + "/lab?reset")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.commands.hasCommand('canasta-tutor:start')")
    card = page.locator(CARD)
    card.scroll_into_view_if_needed()
    page.wait_for_timeout(500)  # let the page settle, so that the click is not queued behind its loading
    t0 = time.monotonic()
    card.click()
    page.locator(FIRST_CELL).first.wait_for(state="visible")
    seconds = time.monotonic() - t0
    page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")  # no kernel left behind
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="clicks after the first one (default 5)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        proc, url = _start_lab(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.set_default_timeout(60_000)
                first = _click_to_start(page, url)
                print(f"first click (places the course): {first:.2f} s")
                again = [_click_to_start(page, url) for _ in range(args.repeat)]
                if again:
                    print("later clicks: " + ", ".join(f"{s:.2f}" for s in again) + " s")
                    print(f"median of the later clicks: {statistics.median(again):.2f} s")
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=15)
    print(f"load average: {os.getloadavg()[0]:.2f} (1 min), cores: {os.cpu_count()}")


if __name__ == "__main__":
    main()
