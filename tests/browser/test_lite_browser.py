"""The course in a browser tab (issue 37, docs/lite.md): the static JupyterLite site of ``make lite``, served
from ``python -m http.server`` on 127.0.0.1 and opened in Debian's Chromium, with no Jupyter server and no
request leaving the machine:

- the first lesson's first level, played by clicks (Draw, the 4, Discard), passes with its stars;
- after a reload (a new kernel), the level's stars are still there: kept in the browser's drive, where the
  file browser lists the store's copy; downloaded from the file browser, that file imports on a desktop
  (``canasta-tutor progress import``) with the level's stars;
- at the card table, a hint comes, and its move says that in-browser hints are lighter.

The site is built first when its inputs changed (``lite/build.py``, skipped otherwise), so this test is
marked ``slow``.  Screenshots: ``tests/browser/artifacts/lite-*.png``; the times measured are printed.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from canasta_tutor.tutor.progress import ProgressStore

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parent.parent.parent
SITE = REPO / "build" / "lite"
KERNEL_MS = 180_000  # a cold start on a busy machine: Pyodide, then the packages


@pytest.fixture(scope="module")
def lite_site(artifacts_dir):
    """``build/lite`` (built when its inputs changed), served on a free port of 127.0.0.1; its base URL."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    log = artifacts_dir / "lite-build.log"
    with log.open("w") as out:
        done = subprocess.run([sys.executable, str(REPO / "lite" / "build.py")], stdout=out, stderr=subprocess.STDOUT,
                              env=env, cwd=REPO)
    assert done.returncode == 0, log.read_text()[-3000:]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d",
                               str(SITE)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/jupyter-lite.json", timeout=5):
                break
        except OSError:
            if time.monotonic() > deadline:
                server.kill()
                raise
            time.sleep(0.2)
    yield base
    server.terminate()
    server.wait(10)


def _no_remote(page, base: str) -> list[str]:
    """Every request the page makes stays on the site (none leaves for a CDN or an index)."""
    elsewhere: list[str] = []
    page.on("request", lambda r: None if r.url.startswith((base, "data:", "blob:")) else elsewhere.append(r.url))
    return elsewhere


def _open(page, base: str, path: str) -> float:
    """Open a notebook in JupyterLite's lab, wait for its kernel, run every cell; seconds to the kernel."""
    start = time.monotonic()
    page.goto(f"{base}/lab/index.html?path={path}")
    page.wait_for_function("window.jupyterapp !== undefined", timeout=KERNEL_MS)
    page.wait_for_function(
        """() => { const w = window.jupyterapp.shell.currentWidget;
                   const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
                   return k && k.status === 'idle'; }""", timeout=KERNEL_MS, polling=250)
    ready = time.monotonic() - start
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    return ready


def test_a_lesson_level_by_clicks_its_star_kept_over_a_reload_and_a_hint(page, lite_site, artifacts_dir):
    page.set_default_timeout(KERNEL_MS)
    elsewhere = _no_remote(page, lite_site)

    kernel_s = _open(page, lite_site, "lessons/01-cards.ipynb")
    root = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .cl-root")
    expect(root).to_have_count(1, timeout=KERNEL_MS)
    expect(root).to_have_attribute("data-level", "a-turn")
    expect(root.locator(".cl-levels button[data-index='0']")).to_contain_text("·")
    start = time.monotonic()
    root.locator('button[data-intent="press"][data-button="draw"]').click()
    expect(root.locator(".cl-feedback li")).to_have_count(1)
    first_click_s = time.monotonic() - start
    root.locator('.ct-seat-bottom .ct-hand .ct-card[data-card="4C"]').first.click()
    root.locator('button[data-intent="press"][data-button="discard"]').click()
    expect(root).to_have_attribute("data-status", "passed")
    stars = root.locator(".cl-stars").first.get_attribute("data-stars")
    assert stars and int(stars) > 0
    expect(root.locator(".cl-levels button[data-index='0']")).to_contain_text("★" * int(stars))
    page.screenshot(path=str(artifacts_dir / "lite-1-level-passed.png"))

    # a reload: a new kernel, whose store is brought back from the browser's drive
    page.reload()
    _open(page, lite_site, "lessons/01-cards.ipynb")
    root = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .cl-root")
    expect(root).to_have_count(1, timeout=KERNEL_MS)
    expect(root.locator(".cl-levels button[data-index='0']")).to_contain_text("★" * int(stars))
    # the store's copy is a file of the site's drive, kept by the browser: the file browser lists it at the top
    kept = page.evaluate("""async () => {
        const m = await window.jupyterapp.serviceManager.contents.get('canasta-tutor-progress.sqlite3',
                                                                      { content: false });
        return { name: m.name, size: m.size };
    }""")
    assert kept["name"] == "canasta-tutor-progress.sqlite3" and kept["size"] > 0, kept
    # exported from the file browser (right-click, Download), it imports on a desktop with its star
    page.evaluate("window.jupyterapp.commands.execute('filebrowser:go-to-path', { path: '/' })")
    item = page.locator('.jp-DirListing-item[title*="canasta-tutor-progress.sqlite3"]').first
    item.click(button="right")
    with page.expect_download() as download:
        page.locator('.lm-Menu-item[data-command="filebrowser:download"]').click()
    exported = artifacts_dir / "lite-exported-progress.sqlite3"
    download.value.save_as(exported)
    desktop = artifacts_dir / "lite-desktop-progress.sqlite3"
    desktop.unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-m", "canasta_tutor", "progress", "import", str(exported), "--store",
                           str(desktop), "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["added"] >= 1
    with ProgressStore(desktop, read_only=True) as store:
        assert store.stars_for("learner")[("cards", "a-turn")] == int(stars)
    page.screenshot(path=str(artifacts_dir / "lite-2-after-reload.png"))

    # the table: a hint, whose move says that in-browser hints are lighter
    _open(page, lite_site, "play.ipynb")
    table = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output .ct-root").first
    expect(table).to_be_visible(timeout=KERNEL_MS)
    hint_button = table.locator('.ct-btn[data-intent="hint"]')
    expect(hint_button).to_have_attribute("aria-disabled", "false", timeout=60_000)
    stages = table.locator(".ct-hint .ct-hint-stage")
    start = time.monotonic()
    hint_button.click()
    expect(stages).to_have_count(1, timeout=60_000)
    hint_s = time.monotonic() - start
    hint_button.click()
    expect(stages).to_have_count(2)
    expect(stages.nth(1)).to_contain_text("In the browser this hint is lighter")
    page.screenshot(path=str(artifacts_dir / "lite-3-hint.png"))
    assert elsewhere == []
    print(f"\nlite: kernel ready {kernel_s:.1f} s after opening the lesson; first click answered in "
          f"{first_click_s:.2f} s; a hint at the table in {hint_s:.2f} s (load average {os.getloadavg()[0]:.1f})")
