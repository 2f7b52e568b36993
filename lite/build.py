"""Build the course as a static JupyterLite site: ``make lite`` (``python lite/build.py``), into ``build/lite/``.

Every piece comes from a registry this machine reaches, and the site fetches nothing from elsewhere when a
page loads:

- JupyterLite itself and its Pyodide kernel: the ``jupyterlite-core`` and ``jupyterlite-pyodide-kernel``
  packages of the build's environment (PyPI);
- Pyodide's runtime (the WebAssembly interpreter and Python's standard library): its npm package, pinned in
  ``lite/package.json``, served from the site's ``static/pyodide/``;
- the kernel's Python packages: pure-Python wheels from PyPI (``lite/requirements.txt``, and anywidget,
  ipywidgets and jupyterlab_widgets at the versions of the build's environment), put beside the runtime
  with a lock file of their own (``pyodide-lock.json``: names, files, hashes and dependencies), and loaded
  when the kernel starts;
- canasta-tutor as a pure-Python wheel, built from this tree (``CANASTA_TUTOR_PURE_WHEEL=1``);
- the lab extensions of anywidget, ipywidgets and the Pyodide kernel, from their wheels; the other
  extensions of the build's environment are left out (canasta-tutor's own and nbgrader's need a server);
- the course: the notebooks (the start page, the welcome, the primer and the lessons, the table, the puzzle
  trainer; not the teacher's nor the game review's) and the rule book.

The build is skipped when none of its inputs changed since the last one (a digest of the files and
versions it reads, kept in the output as ``.inputs``); ``--force`` builds anyway.  Downloads are cached in
``build/lite-cache/``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path
from typing import Any

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LITE = ROOT / "lite"
OUT = ROOT / "build" / "lite"
CACHE = ROOT / "build" / "lite-cache"
STAGE = CACHE / "stage"  # the lite dir given to `jupyter lite build` (rebuilt each time)
INPUTS_FILE = ".inputs"

#: the packages whose wheel versions follow the build's environment (their lab extensions are bundled)
FROM_ENV = ("anywidget", "ipywidgets")
#: lab extensions bundled in the site, from these packages' wheels
EXTENSIONS = ("anywidget", "jupyterlab_widgets", "jupyterlite_pyodide_kernel")
#: Pyodide's runtime files served from static/pyodide
RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide.js", "package.json")
#: the kernel's own wheels (in the Pyodide kernel's lab extension): the kernel, piplite, and its stand-ins
KERNEL_WHEELS = ("pyodide_kernel", "piplite", "ipykernel", "widgetsnbextension-4")
#: requirements a wheel declares that the browser's kernel does without: front-end halves (their lab
#: extensions are bundled instead) and what canasta-tutor needs only on a desktop (a Jupyter server, the
#: teacher's tools, progress bars of long command-line runs)
NOT_IN_BROWSER = {"jupyterlab-widgets", "jupyterlab", "notebook", "jupyter-server", "tqdm"}
#: the course's notebooks left out of the site: the teacher's (nbgrader and the class tools need a server), and
#: the game review's (it grades every decision of a hand with the full search, seconds each on a desktop's
#: compiled copy, and keeps its queue in a store of its own opening)
LEFT_OUT = ("teacher.ipynb", "review.ipynb")
#: the notebooks' source folder, and the files beside them that the site shows
NOTEBOOKS = ROOT / "notebooks"


class BuildError(RuntimeError):
    """A step of the build failed: the message says which and why."""


def run(cmd: list[str], **kw: Any) -> None:
    print("+", " ".join(cmd), flush=True)
    done = subprocess.run(cmd, check=False, **kw)
    if done.returncode:
        raise BuildError(f"{cmd[0]} exited with {done.returncode}: {' '.join(cmd)}")


def version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        raise BuildError(f"{dist} is not installed in this environment: run `make install` first") from None


def pinned() -> list[str]:
    lines = (LITE / "requirements.txt").read_text(encoding="utf-8").splitlines()
    reqs = [line.split("#")[0].strip() for line in lines]
    return [r for r in reqs if r] + [f"{d}=={version(d)}" for d in FROM_ENV]


# ------------------------------------------------------------------------------------------------ inputs
def _tree_files() -> list[Path]:
    files: list[Path] = []
    for top in ("canasta_tutor", "widgets", "lessons", "puzzles", "notebooks", "lite"):
        for p in sorted((ROOT / top).rglob("*")):
            rel = p.relative_to(ROOT).parts
            if p.is_file() and not {"__pycache__", "_fast", "node_modules", ".ipynb_checkpoints"} & set(rel) \
                    and not p.name.endswith((".pyc", ".so")) and rel[:3] != ("canasta_tutor", "jupyter_ext",
                                                                              "labextension"):
                files.append(p)
    return files + [ROOT / "seeds" / "rules.md", ROOT / "pyproject.toml"]


def inputs_digest() -> str:
    h = hashlib.sha256()
    for p in _tree_files():
        h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes() + b"\0")
    for dist in ("jupyterlite-core", "jupyterlite-pyodide-kernel", *FROM_ENV):
        h.update(f"{dist}=={version(dist)}\0".encode())
    return h.hexdigest()


# ------------------------------------------------------------------------------------------------ pieces
def pyodide_runtime() -> Path:
    """Pyodide's npm package (lite/package.json), installed in lite/node_modules; checked against the version
    the installed Pyodide kernel was made for."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    want = json.loads((LITE / "package.json").read_text(encoding="utf-8"))["dependencies"]["pyodide"]
    if want != PYODIDE_VERSION:
        raise BuildError(f"lite/package.json pins pyodide {want}, but jupyterlite-pyodide-kernel "
                         f"{version('jupyterlite-pyodide-kernel')} is made for {PYODIDE_VERSION}: pin the same")
    pkg = LITE / "node_modules" / "pyodide"
    have = pkg / "package.json"
    if not have.is_file() or json.loads(have.read_text(encoding="utf-8"))["version"] != want:
        run(["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=LITE)
    return pkg


def wheels(dest: Path) -> list[Path]:
    """The pinned pure-Python wheels, downloaded once into ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    reqs = pinned()
    missing = [r for r in reqs if not _find_wheel(dest, *r.split("=="))]
    if missing:
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--python-version",
             "3.14", "--implementation", "py", "--abi", "none", "--platform", "any", "-d", str(dest), *missing])
    return [w for r in reqs if (w := _find_wheel(dest, *r.split("=="))) is not None]


def _find_wheel(folder: Path, name: str, ver: str) -> Path | None:
    stem = re.sub(r"[-_.]+", "_", name).lower()
    for w in folder.glob("*.whl"):
        n, v = w.name.split("-")[:2]
        if n.lower() == stem and v == ver:
            return w
    return None


def extension_wheels(dest: Path) -> list[Path]:
    """The wheels whose lab extensions the site bundles, at the versions of this environment."""
    dest.mkdir(parents=True, exist_ok=True)
    reqs = [f"{d}=={version(d)}" for d in EXTENSIONS]
    missing = [r for r in reqs if not _find_wheel(dest, *r.split("=="))]
    if missing:
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(dest), *missing])
    return [w for r in reqs if (w := _find_wheel(dest, *r.split("=="))) is not None]


def own_wheel(dest: Path) -> Path:
    """canasta-tutor as a pure-Python wheel, built from this tree."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    env = {**os.environ, "CANASTA_TUTOR_PURE_WHEEL": "1"}
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dest),
         str(ROOT)], env=env)
    found = sorted(dest.glob("canasta_tutor-*-py3-none-any.whl"))
    if len(found) != 1:
        raise BuildError(f"expected one pure-Python canasta-tutor wheel in {dest}, found {[p.name for p in found]}")
    return found[0]


def kernel_wheels() -> list[Path]:
    """The Pyodide kernel's own wheels, from its installed lab extension."""
    pypi = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyterlite" / "pyodide-kernel-extension" \
        / "static" / "pypi"
    found = [w for w in sorted(pypi.glob("*.whl")) if any(w.name.startswith(k + ("" if k.endswith("4") else "-"))
                                                          for k in KERNEL_WHEELS)]
    if len(found) != len(KERNEL_WHEELS):
        raise BuildError(f"the Pyodide kernel's wheels in {pypi}: expected {KERNEL_WHEELS}, found "
                         f"{[w.name for w in found]}")
    return found


# ------------------------------------------------------------------------------------------------ the lock
def _metadata(wheel: Path) -> tuple[Any, list[str]]:
    with zipfile.ZipFile(wheel) as z:
        meta_name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
        meta = Parser().parsestr(z.read(meta_name).decode("utf-8"))
        tops = set()
        for n in z.namelist():
            first = n.split("/")[0]
            if first.endswith((".dist-info", ".data")):
                continue
            if "/" in n and n.endswith("/__init__.py") and n.count("/") == 1:
                tops.add(first)
            elif "/" not in n and n.endswith(".py"):
                tops.add(n[:-3])
        return meta, sorted(tops)


def _browser_env(extra: str = "") -> dict[str, str]:
    env: dict[str, str] = dict(default_environment())
    env.update(sys_platform="emscripten", platform_system="Emscripten", os_name="posix",
               platform_machine="wasm32", python_version="3.14", python_full_version="3.14.2",
               implementation_name="cpython", platform_python_implementation="CPython", extra=extra)
    return env


def lock(runtime: Path, wheel_files: list[Path]) -> dict[str, Any]:
    """pyodide-lock.json for ``wheel_files`` alone (Pyodide's own lists packages this site does not carry),
    with each wheel's dependencies in the browser; every dependency must be one of the wheels."""
    base = json.loads((runtime / "pyodide-lock.json").read_text(encoding="utf-8"))
    packages: dict[str, Any] = {}
    wanted: dict[str, set[str]] = {}
    for w in wheel_files:
        meta, imports = _metadata(w)
        name = canonicalize_name(meta["Name"])
        deps: set[str] = set()
        for spec in meta.get_all("Requires-Dist") or []:
            req = Requirement(spec)
            if req.marker is None or req.marker.evaluate(_browser_env()):
                deps.add(canonicalize_name(req.name))
        wanted[name] = deps - NOT_IN_BROWSER
        packages[name] = {"name": name, "version": meta["Version"], "file_name": w.name, "install_dir": "site",
                          "sha256": hashlib.sha256(w.read_bytes()).hexdigest(), "package_type": "package",
                          "imports": imports, "depends": [], "unvendored_tests": False}
    missing = {f"{n} needs {d}" for n, deps in wanted.items() for d in deps if d not in packages}
    if missing:
        raise BuildError("the browser's packages lack dependencies: " + "; ".join(sorted(missing)) +
                         " (add them to lite/requirements.txt)")
    for n, deps in wanted.items():
        packages[n]["depends"] = sorted(deps)
    return {"info": base["info"], "packages": dict(sorted(packages.items()))}


# ------------------------------------------------------------------------------------------------ the site
def stage(runtime: Path, all_wheels: list[Path]) -> list[str]:
    """The lite dir: static/pyodide (runtime, wheels, lock), jupyter-lite.json; returns the packages to load."""
    shutil.rmtree(STAGE, ignore_errors=True)
    pyo = STAGE / "static" / "pyodide"
    pyo.mkdir(parents=True)
    for f in RUNTIME:
        shutil.copy2(runtime / f, pyo / f)
    for w in all_wheels:
        shutil.copy2(w, pyo / w.name)
    the_lock = lock(runtime, all_wheels)
    (pyo / "pyodide-lock.json").write_text(json.dumps(the_lock, indent=1) + "\n", encoding="utf-8")
    preload = sorted(the_lock["packages"])
    settings = {"@jupyterlite/pyodide-kernel-extension:kernel": {
        "disablePyPIFallback": True,
        "loadPyodideOptions": {"packages": preload, "lockFileURL": "./static/pyodide/pyodide-lock.json"}}}
    config = {"jupyter-lite-schema-version": 0,
              "jupyter-config-data": {"appName": "canasta-tutor", "litePluginSettings": settings,
                                                 "exposeAppInBrowser": True}}
    (STAGE / "jupyter-lite.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return preload


#: a Markdown link to a notebook the site leaves out: its text is kept, the link goes
_LEFT_OUT_LINK = re.compile(r"\[([^\]]+)\]\((?:\./)?(" + "|".join(re.escape(n) for n in LEFT_OUT) + r")\)")


def unlink_left_out(notebook: dict[str, Any]) -> int:
    """Turn the Markdown links of ``notebook`` (nbformat JSON) to a notebook of ``LEFT_OUT`` into their text,
    marked as in the desktop course only, so that the site has no dead link; how many were turned."""
    count = 0
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell["source"]
        text = "".join(source) if isinstance(source, list) else source
        new, n = _LEFT_OUT_LINK.subn(r"\1 (in the desktop course only)", text)
        if n:
            count += n
            cell["source"] = new.splitlines(keepends=True) if isinstance(source, list) else new
    return count


def contents() -> Path:
    """The course's notebooks and the rule book, as the site's files (links to the notebooks it leaves out
    turned into text, :func:`unlink_left_out`)."""
    dest = CACHE / "content"
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(NOTEBOOKS, dest, ignore=shutil.ignore_patterns(".ipynb_checkpoints", *LEFT_OUT))
    for path in sorted(dest.rglob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        if unlink_left_out(notebook):
            path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    shutil.copy2(ROOT / "seeds" / "rules.md", dest / "rules.md")
    return dest


def build(force: bool = False) -> None:
    digest = inputs_digest()
    stamp = OUT / INPUTS_FILE
    if not force and stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest:
        print(f"{OUT.relative_to(ROOT)} is up to date (its inputs have not changed; --force builds anyway)")
        return
    runtime = pyodide_runtime()
    all_wheels = [*wheels(CACHE / "wheels"), *kernel_wheels(), own_wheel(CACHE / "own")]
    stage(runtime, all_wheels)
    ext = extension_wheels(CACHE / "extensions")
    shutil.rmtree(OUT, ignore_errors=True)
    build_config = {"LiteBuildConfig": {"federated_extensions": [str(w) for w in ext], "ignore_sys_prefix": True,
                                        "no_sourcemaps": True, "no_unused_shared_packages": True}}
    (STAGE / "jupyter_lite_config.json").write_text(json.dumps(build_config, indent=2) + "\n", encoding="utf-8")
    run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(STAGE), "--output-dir", str(OUT),
         "--contents", str(contents())], cwd=STAGE)
    check(OUT)
    stamp.write_text(digest + "\n", encoding="utf-8")
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    files = sum(1 for p in OUT.rglob("*") if p.is_file())
    print(f"built {OUT.relative_to(ROOT)}: {size / 2**20:.1f} MiB in {files} files")


def check(out: Path) -> None:
    """The site loads nothing from elsewhere: its configuration names no remote URL."""
    for cfg in out.rglob("jupyter-lite.json"):
        text = cfg.read_text(encoding="utf-8")
        remote = re.findall(r"https?://[^\"']+", text)
        if remote:
            raise BuildError(f"{cfg} names remote URLs: {remote}")
    if not (out / "static" / "pyodide" / "pyodide.mjs").is_file():
        raise BuildError("the site has no static/pyodide/pyodide.mjs")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--force", action="store_true", help="build even when the inputs have not changed")
    args = p.parse_args()
    try:
        build(args.force)
    except BuildError as e:
        print(f"make lite: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
