"""The search's compiled copy: the engine and the search compiled with mypyc, beside the pure package.

The hint's search spends its time in playouts: the rules of the engine (:mod:`canasta_tutor.state`) and
the rules-of-thumb policy, run thousands of times per hint.  ``make`` compiles those modules with mypyc
(the compiler that ships with mypy) into C extensions, about twice as fast.  They are compiled as a
*copy*, under the package ``canasta_tutor._fast`` (built, never committed), so that

- the engine everyone imports stays plain Python: readable, documented (compiled functions lose their
  docstrings) and open to a test's monkeypatching;
- the compiled copy runs the very same source, so the search gives the same values, deal by deal, as
  the pure one: ``tests/test_native.py`` holds the two to that;
- where the copy is not built (no C compiler, an installed wheel), or a source changed since it was
  built, the search runs in plain Python, with a warning in the second case, and gives the same hints,
  only slower.

The copy holds :data:`MODULES`: every module the search's playouts run, and those they import for the
states they make.  Their imports of other modules of the package are rewritten to the pure ones (the
rule options, the variants, the observation), which the compiled code then shares with the pure engine.

    .venv/bin/python -m canasta_tutor.native build     # compile (about a minute)
    .venv/bin/python -m canasta_tutor.native build --if-stale   # what `make` runs: only if not built
    .venv/bin/python -m canasta_tutor.native status    # built and up to date?

Set ``CANASTA_TUTOR_PURE=1`` to run the search in plain Python although the copy is built.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import warnings
from pathlib import Path
from types import ModuleType

#: the modules compiled, as paths under ``canasta_tutor/`` without ``.py``
MODULES = (
    "cards", "feasibility", "italian", "state", "samba_turn", "samba", "hidden",
    "bots/samba_policy", "bots/rules_of_thumb", "bots/evaluation", "bots/sampling", "bots/expert",
)
#: the package the copy is built as
PACKAGE = "canasta_tutor._fast"
ROOT = Path(__file__).resolve().parent
FAST_DIR = ROOT / "_fast"
STAMP = FAST_DIR / "SOURCES.json"
#: set to 1 to run the search in plain Python
PURE_ENV = "CANASTA_TUTOR_PURE"

_FROM = re.compile(r"^(?P<indent>\s*)from (?P<dots>\.+)(?P<name>[\w.]*) import ")


def rewrite(source: str, module: str) -> str:
    """``source`` of ``module`` (a path of :data:`MODULES`) for the copy: relative imports of modules
    outside the copy become absolute imports of the pure package; those inside stay relative, so they
    find the copy.

    >>> rewrite("from ..observer import Observation\\nfrom .rules_of_thumb import decide\\n", "bots/expert")
    'from canasta_tutor.observer import Observation\\nfrom .rules_of_thumb import decide\\n'
    >>> rewrite("    from .position import format_position\\n", "state")
    '    from canasta_tutor.position import format_position\\n'
    """
    package = module.split("/")[:-1]  # the module's package, under canasta_tutor
    copied = {m.replace("/", ".") for m in MODULES}
    out = []
    for line in source.splitlines(keepends=True):
        m = _FROM.match(line)
        if m:
            up = len(m["dots"]) - 1
            if up > len(package):
                raise ValueError(f"{module}: an import above the package: {line.strip()!r}")
            base = package[: len(package) - up]
            target = ".".join([*base, m["name"]] if m["name"] else base)
            if not m["name"] or target not in copied:  # a package, or a module outside the copy
                line = f"{m['indent']}from canasta_tutor{'.' + target if target else ''} import {line[m.end():]}"
        out.append(line)
    return "".join(out)


def _fingerprint() -> dict[str, str]:
    """What the copy was built from: each module's source, this file and the Python it was built for (the
    extensions carry mypyc's runtime, so they do not depend on the mypy installed)."""
    parts = {m: hashlib.sha256((ROOT / f"{m}.py").read_bytes()).hexdigest() for m in MODULES}
    parts["native"] = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    parts["python"] = sys.version
    parts["soabi"] = str(sysconfig.get_config_var("SOABI"))
    return parts


def status() -> str:
    """``"built"``, ``"missing"`` (never built) or ``"stale"`` (a source changed since)."""
    if not STAMP.exists():
        return "missing"
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "stale"
    return "built" if stamp == _fingerprint() else "stale"


_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
paths = sys.argv[sys.argv.index("--") + 1:]
del sys.argv[sys.argv.index("--"):]
setup(name="canasta-tutor-fast", packages=[], py_modules=[],
      ext_modules=mypycify(["--config-file", sys.argv.pop(1)] + paths, opt_level="3", group_name="{group}"))
"""


def build(verbose: bool = False) -> None:
    """Copy :data:`MODULES` into ``canasta_tutor/_fast`` (imports rewritten) and compile them in place."""
    if FAST_DIR.exists():
        shutil.rmtree(FAST_DIR)
    work = ROOT.parent / "build" / "native"
    work.mkdir(parents=True, exist_ok=True)
    note = '"""Built by canasta_tutor/native.py from the package\'s own modules: do not edit."""\n'
    for pkg in {str(Path(m).parent) for m in MODULES}:
        d = FAST_DIR / pkg
        d.mkdir(parents=True, exist_ok=True)
        (d / "__init__.py").write_text(note, encoding="utf-8")
    for m in MODULES:
        text = (ROOT / f"{m}.py").read_text(encoding="utf-8")
        (FAST_DIR / f"{m}.py").write_text(rewrite(text, m), encoding="utf-8")
    config = work / "mypy.ini"
    # the copy hands its states to pure functions (the observation, the position text), which read them
    # field by field: to mypy a compiled State is not the pure one it names
    config.write_text("[mypy]\npython_version = 3.11\ndisable_error_code = arg-type\n", encoding="utf-8")
    setup = work / "setup.py"
    setup.write_text(_SETUP.replace("{group}", f"{PACKAGE}.core"), encoding="utf-8")
    paths = [str(Path("canasta_tutor") / "_fast" / f"{m}.py") for m in MODULES]
    cmd = [sys.executable, str(setup), str(config), "build_ext", "--inplace", "--", *paths]
    done = subprocess.run(cmd, cwd=ROOT.parent, capture_output=not verbose, text=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(FAST_DIR, ignore_errors=True)
        raise RuntimeError(f"compiling the search failed:\n{(done.stdout or '')[-3000:]}{(done.stderr or '')[-3000:]}")
    for m in MODULES:  # the sources stay only as what was compiled: the extensions are imported
        (FAST_DIR / f"{m}.py").unlink()
    STAMP.write_text(json.dumps(_fingerprint(), indent=1), encoding="utf-8")


#: the copy's state, read once per process (the pure modules a process has imported do not change either)
_seen: dict[str, str] = {}


def fast_expert() -> ModuleType | None:
    """The compiled :mod:`canasta_tutor.bots.expert` (its copy), or None where the search runs in plain
    Python: the copy not built, out of date (warned once), or ``CANASTA_TUTOR_PURE`` set."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    if "status" not in _seen:
        _seen["status"] = status()
        if _seen["status"] == "stale":
            warnings.warn("the compiled search is out of date (a source changed since `make` built it): "
                          "the search runs in plain Python until it is rebuilt", RuntimeWarning, stacklevel=2)
    if _seen["status"] != "built":
        return None
    return importlib.import_module(f"{PACKAGE}.bots.expert")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["build"]:
        if "--if-stale" in args and status() == "built":
            print(f"{PACKAGE}: built and up to date")
            return 0
        build(verbose="-v" in args)
        print(f"compiled {len(MODULES)} modules into {PACKAGE}: {status()}")
        return 0
    if args[:1] == ["status"]:
        print(status())
        return 0 if status() == "built" else 1
    print("usage: python -m canasta_tutor.native build [--if-stale] [-v] | status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
