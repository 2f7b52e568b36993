"""The search's compiled copy: the engine and the search compiled with mypyc, beside the pure package.

The hint's search spends its time in playouts: the rules of the engine (:mod:`canasta_tutor.engine.state`) and
the rules-of-thumb policy, run thousands of times per hint.  ``make`` (and the wheel's build hook,
``hatch_build.py``) compiles those modules with mypyc (the compiler that ships with mypy) into C
extensions, two to three times as fast.  They are compiled as a *copy*, under the package
``canasta_tutor._fast`` (built, never committed), so that

- the engine everyone imports stays plain Python: readable, documented (compiled functions lose their
  docstrings) and open to a test's monkeypatching;
- the compiled copy runs the very same source, so the search gives the same values, deal by deal, as
  the pure one: ``tests/test_native.py`` holds the two to that, in every variant;
- where the copy is not built (no C compiler), cannot be loaded, or a source changed since it was built,
  the search runs in plain Python, with a warning in the last two cases, and gives the same hints, only
  slower.

**What is copied.**  The copy holds the import closure of :data:`ROOTS` (:func:`closure`): every module of
the package that :mod:`canasta_tutor.bots.entry` imports at module level, and those they import, found by reading
the sources with :mod:`ast`.  Nothing is listed by hand, so a module that the engine starts to import, or
one moved to another folder, joins the copy by itself.  Only :data:`SHARED` modules (the typed errors: an
error raised in the copy is caught by the pure package's ``except``) and any module a function imports
lazily from outside the copy are taken from the pure package.  A state's text and HTML are the pure
package's: the functions it registered (:mod:`canasta_tutor.engine.render`) are handed to the copy's engine
when the copy is loaded.

**How imports are rewritten.**  :func:`rewrite` parses each module with :mod:`ast` and rewrites every import
of a module of the package as an absolute import: of the copy for a module it holds, of the pure package
otherwise.  The rest of the text (and its line numbers) stays as written.

**What crosses.**  The pure package calls the copy only through :mod:`canasta_tutor.bots.entry`, with plain data
(:mod:`canasta_tutor.bots.transfer`): the copy builds its own states, variants and options from it and answers with
playout values, actions or a report's fields.  No object of one side reaches the other, so every variant,
Samba included, searches on the copy.

**When it is stale.**  :func:`fingerprint` hashes the source of every module the copy holds or imports (so a
rename in ``observer`` marks it stale), this file, and the Python it was built for.  :func:`engine` compares
it with the one written at build time before loading anything.

    .venv/bin/python -m canasta_tutor.bots.native build     # compile (a minute or two)
    .venv/bin/python -m canasta_tutor.bots.native build --if-stale   # what `make` runs: only if not built
    .venv/bin/python -m canasta_tutor.bots.native status    # built and up to date?
    .venv/bin/python -m canasta_tutor.bots.native modules   # what the copy holds and what it imports

Set ``CANASTA_TUTOR_PURE=1`` to run the search in plain Python although the copy is built.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import warnings
from pathlib import Path
from types import ModuleType
from collections.abc import Collection
from typing import Any

#: the modules the pure package calls the copy through (dotted names under ``canasta_tutor``)
ROOTS = ("bots.entry",)
#: modules the copy takes from the pure package although it imports them at module level: the typed errors,
#: so that an error the copy raises is the one the pure package catches (a leaf: it imports no module of the
#: package, which :func:`closure` checks)
SHARED = ("engine.errors",)
#: a module whose source holds a line starting with this is copied but left as Python, not compiled (the
#: line says why: a feature that compiled classes lack); it still shares the copy's classes
INTERPRETED = "# compiled copy: interpreted"
#: the package the copy is built as
PACKAGE = "canasta_tutor._fast"
NAME = "canasta_tutor"
ROOT = Path(__file__).resolve().parent.parent  # the package (this file is in its bots/)
FAST_DIR = ROOT / "_fast"
STAMP = FAST_DIR / "SOURCES.json"
#: set to 1 to run the search in plain Python
PURE_ENV = "CANASTA_TUTOR_PURE"
#: the engine that runs, as :func:`engine_name` says it
COMPILED, PYTHON = "compiled", "python"


# ------------------------------------------------------------------ the import closure
def _path(module: str, root: Path = ROOT) -> Path | None:
    """The source of ``module`` (dotted, under the package): ``a/b.py`` or ``a/b/__init__.py``."""
    base = root.joinpath(*module.split(".")) if module else root
    if base.with_suffix(".py").is_file() and module:
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def _is_package(module: str, root: Path = ROOT) -> bool:
    path = _path(module, root)
    return path is not None and path.name == "__init__.py"


def _targets(node: ast.ImportFrom, module: str, root: Path = ROOT) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """The modules of the package that ``node`` (in ``module``) imports, each with the names it takes from
    it as ``(name, asname)``; [] for an import from outside the package.  ``from . import x`` imports the
    module ``x`` where there is one: its entry is ``[("", "x")]``, the module itself bound as a name."""
    if node.level:
        here = module.split(".")
        package = here if _is_package(module, root) else here[:-1]
        if node.level - 1 > len(package):
            raise ValueError(f"{module}: an import above the package: line {node.lineno}")
        base = package[: len(package) - (node.level - 1)]
        target = ".".join([*base, node.module] if node.module else base)
    elif node.module == NAME or (node.module or "").startswith(NAME + "."):
        target = (node.module or "")[len(NAME) + 1:]
    else:
        return []
    out: dict[str, list[tuple[str, str | None]]] = {}
    for alias in node.names:
        sub = f"{target}.{alias.name}" if target else alias.name
        if alias.name != "*" and _is_package(target, root) and _path(sub, root) is not None:
            out.setdefault(sub, []).append(("", alias.asname or alias.name))
        else:
            out.setdefault(target, []).append((alias.name, alias.asname))
    return list(out.items())


def _imports(module: str, root: Path = ROOT) -> tuple[set[str], set[str]]:
    """The modules of the package that ``module`` imports at module level, and those it imports inside a
    function or class (lazily)."""
    path = _path(module, root)
    if path is None:
        raise ValueError(f"{module}: no such module in {NAME}")
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    top: set[str] = set()
    lazy: set[str] = set()

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name == NAME or alias.name.startswith(NAME + "."):
                        raise ValueError(f"{module}: line {child.lineno}: `import {alias.name}` cannot be "
                                         "rewritten for the compiled copy; write `from … import …`")
            elif isinstance(child, ast.ImportFrom):
                for target, names in _targets(child, module, root):
                    if target and _is_package(target, root) and any(name for name, _ in names):
                        # the copy's packages are empty: such a name would come from the pure package
                        raise ValueError(f"{module}: line {child.lineno}: a name from the package "
                                         f"{NAME}.{target}'s __init__ cannot be copied; import it from its module")
                    (lazy if nested else top).add(target)
            visit(child, nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                                      ast.Lambda)))

    visit(tree, False)
    return top, lazy


def closure(roots: tuple[str, ...] = ROOTS, root: Path = ROOT) -> tuple[list[str], list[str]]:
    """The modules the copy holds (the module-level import closure of ``roots``, less :data:`SHARED` and the
    packages' ``__init__``, which the copy replaces with empty ones), and the pure modules it imports (the
    shared ones and those imported lazily from outside the copy); each sorted, as dotted names.

    >>> held, pure = closure()
    >>> "engine.state" in held and "bots.expert" in held and "engine.observer" in held, "engine.errors" in held
    (True, False)
    >>> pure
    ['engine.errors']
    """
    held: set[str] = set()
    lazy: set[str] = set()
    todo = list(roots)
    while todo:
        m = todo.pop()
        if m in held:
            continue
        held.add(m)
        top, late = _imports(m, root)
        lazy |= late
        todo += [t for t in top if t not in SHARED and not _is_package(t, root)]
    for s in SHARED:
        top, late = _imports(s, root)
        if top or late:
            raise ValueError(f"{s} is shared with the compiled copy, so it may import no module of {NAME}")
    pure = {t for t in lazy if t not in held and not _is_package(t, root)} | set(SHARED)
    return sorted(held), sorted(pure)


# ------------------------------------------------------------------ the rewrite
def _absolute(target: str, held: set[str]) -> str:
    return ".".join(p for p in (PACKAGE if target in held else NAME, target) if p)


def rewrite(source: str, module: str, held: Collection[str], root: Path = ROOT) -> str:
    """``source`` of ``module`` for the copy: each import of a module of the package, read with :mod:`ast`,
    becomes an absolute import, of the copy where ``held`` holds the module, else of the pure package.  The
    other lines are kept as written, and so are the line numbers.

    >>> src = ("from ..engine.observer import Observation\\nfrom .rules_of_thumb import (decide,\\n"
    ...        "    take_cost)\\nx = 1\\n")
    >>> print(rewrite(src, "bots.expert", {"bots.expert", "bots.rules_of_thumb"}), end="")
    from canasta_tutor.engine.observer import Observation
    from canasta_tutor._fast.bots.rules_of_thumb import decide, take_cost
    <BLANKLINE>
    x = 1
    """
    held = set(held)
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    edits: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        targets = _targets(node, module, root)
        if not targets:
            continue
        parts = []
        for target, aliases in targets:
            full = _absolute(target, held)
            for name, asname in aliases:
                if not name:  # the module itself, bound as a name
                    package, _, leaf = full.rpartition(".")
                    parts.append(f"from {package} import {leaf}" + (f" as {asname}" if asname != leaf else ""))
            names = ", ".join(n + (f" as {a}" if a else "") for n, a in aliases if n)
            if names:
                parts.append(f"from {full} import {names}")
        assert node.end_lineno is not None and node.end_col_offset is not None
        start = starts[node.lineno - 1] + len(lines[node.lineno - 1].encode()[:node.col_offset].decode())
        end = starts[node.end_lineno - 1] + len(lines[node.end_lineno - 1].encode()[:node.end_col_offset].decode())
        edits.append((start, end, "; ".join(parts) + "\n" * (node.end_lineno - node.lineno)))
    out = source
    for start, end, text in sorted(edits, reverse=True):
        out = out[:start] + text + out[end:]
    return out


def compiled(held: list[str], root: Path = ROOT) -> list[str]:
    """The modules of ``held`` that are compiled: all but those marked :data:`INTERPRETED`."""
    return [m for m in held if not any(line.startswith(INTERPRETED) for line in
                                       _path(m, root).read_text(encoding="utf-8").splitlines())]  # type: ignore[union-attr]


# ------------------------------------------------------------------ fingerprint and build
def fingerprint(root: Path = ROOT) -> dict[str, str]:
    """What the copy is built from: the source of each module it holds and of each pure module it imports,
    this file, and the Python ABI it is built for (the extensions carry mypyc's runtime, so they do not depend
    on the mypy installed)."""
    held, pure = closure(ROOTS, root)
    parts = {m: hashlib.sha256(_path(m, root).read_bytes()).hexdigest()  # type: ignore[union-attr]
             for m in [*held, *pure]}
    parts["(native)"] = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    parts["(python)"] = sys.implementation.cache_tag  # the ABI, not the patch release: a wheel serves 3.11.x
    parts["(soabi)"] = str(sysconfig.get_config_var("SOABI"))
    return parts


def status() -> str:
    """``"built"``, ``"missing"`` (never built) or ``"stale"`` (a source changed since)."""
    if not STAMP.exists():
        return "missing"
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
        return "built" if stamp == fingerprint() else "stale"
    except (OSError, ValueError, SyntaxError):
        return "stale"


_SETUP = """
import os, sys
from setuptools import setup
from mypyc.build import mypycify
paths = sys.argv[sys.argv.index("--") + 1:]
del sys.argv[sys.argv.index("--"):]
config, target = sys.argv.pop(1), sys.argv.pop(1)
modules = mypycify(["--config-file", config] + paths, opt_level="3", multi_file=True, group_name="{group}",
                   target_dir=target)
for ext in modules:  # a group's C files include its header, which mypyc writes under the group's package
    ext.include_dirs.append(os.path.join(target, *"{group}".split(".")[:-1]))
setup(name="canasta-tutor-fast", packages=[], py_modules=[], ext_modules=modules)
"""


def build(verbose: bool = False, root: Path = ROOT) -> list[str]:
    """Copy the closure (:func:`closure`) into ``_fast`` beside the package at ``root`` (imports rewritten)
    and compile it in place; the extensions' paths, relative to the folder holding the package."""
    fast = root / "_fast"
    if fast.exists():
        shutil.rmtree(fast)
    held, _ = closure(ROOTS, root)
    note = '"""Built by canasta_tutor/bots/native.py from the package\'s own modules: do not edit."""\n'
    for m in held:
        parts = m.split(".")
        for i in range(len(parts)):
            d = fast.joinpath(*parts[:i])
            d.mkdir(parents=True, exist_ok=True)
            if not (d / "__init__.py").exists():
                (d / "__init__.py").write_text(note, encoding="utf-8")
        src = _path(m, root).read_text(encoding="utf-8")  # type: ignore[union-attr]
        fast.joinpath(*parts).with_suffix(".py").write_text(rewrite(src, m, held, root), encoding="utf-8")
    with tempfile.TemporaryDirectory() as work:
        config = Path(work) / "mypy.ini"
        # the copy hands its states to the pure functions that format them as text (a state's __str__ and
        # _repr_html_), which read them field by field: to mypy a compiled State is not the pure one they name
        cache = root.parent / "build" / "native-mypy-cache"  # mypy's own cache, kept for the next build
        config.write_text(f"[mypy]\npython_version = 3.11\ndisable_error_code = arg-type\ncache_dir = {cache}\n"
                          "[mypy-tqdm.*]\nignore_missing_imports = True\n",
                          encoding="utf-8")
        setup = Path(work) / "setup.py"
        setup.write_text(_SETUP.replace("{group}", f"{PACKAGE}.core"), encoding="utf-8")
        paths = [str(Path(NAME, "_fast", *m.split(".")).with_suffix(".py")) for m in compiled(held, root)]
        cmd = [sys.executable, str(setup), str(config), str(Path("build", "native")), "build_ext", "--inplace",
               f"--build-temp={Path(work) / 'temp'}", f"--parallel={os.cpu_count() or 1}", "--", *paths]
        done = subprocess.run(cmd, cwd=root.parent, capture_output=not verbose, text=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(fast, ignore_errors=True)
        raise RuntimeError(f"compiling the search failed:\n{(done.stdout or '')[-3000:]}{(done.stderr or '')[-3000:]}")
    for m in compiled(held, root):  # the sources stay only as what was compiled: the extensions are imported
        fast.joinpath(*m.split(".")).with_suffix(".py").unlink()
    (fast / "SOURCES.json").write_text(json.dumps(fingerprint(root), indent=1), encoding="utf-8")
    return sorted(str(p.relative_to(root.parent)) for p in fast.rglob("*") if p.is_file())


# ------------------------------------------------------------------ loading
class CompiledEngine:
    """The search's compiled copy as the pure package calls it: the same functions as
    :mod:`canasta_tutor.bots.expert` takes pure states, which cross as plain data
    (:mod:`canasta_tutor.bots.entry`)."""

    name = COMPILED

    def __init__(self, entry: ModuleType) -> None:
        self.entry = entry

    def module(self, name: str) -> ModuleType:
        """The copy's module ``name`` (dotted, under the package), for benchmarks."""
        return importlib.import_module(f"{PACKAGE}.{name}")

    def state(self, state: Any) -> Any:
        """A pure state rebuilt as the copy's own (for benchmarks that time the copy's functions)."""
        from .transfer import to_plain

        return self.module("bots.transfer").from_plain(to_plain(state))

    def race_values(self, state: Any, *args: Any, **kw: Any) -> list[list[float]]:
        from .transfer import to_plain

        return self.entry.race_values(to_plain(state), *args, **kw)

    def sample_values(self, state: Any, *args: Any, **kw: Any) -> list[list[float]]:
        from .transfer import to_plain

        return self.entry.sample_values(to_plain(state), *args, **kw)

    def sample_line_values(self, state: Any, *args: Any, **kw: Any) -> list[list[float]]:
        from .transfer import to_plain

        return self.entry.sample_line_values(to_plain(state), *args, **kw)

    def sample_values_from(self, state: Any, *args: Any, **kw: Any) -> list[list[float]]:
        from .transfer import to_plain

        return self.entry.sample_values_from(to_plain(state), *args, **kw)

    def expert_act(self, state: Any, seat: int, bot: Any) -> tuple[Any, ...]:
        """``bot`` (an :class:`~canasta_tutor.bots.expert.ExpertBot`)'s choice, searched on the copy."""
        from .transfer import to_plain

        return self.entry.expert_act(to_plain(state), seat, bot.iterations, bot.seed,
                                     bot.max_seconds, bot.search_melds, bot.z)

    def rot_act(self, state: Any, seat: int) -> tuple[Any, ...]:
        """The rules of thumb's choice, on the copy."""
        from .transfer import to_plain

        return self.entry.rot_act(to_plain(state), seat)

    def run_selfplay(self, hands: int, seed: int, check: bool = True, progress: bool = False,
                     options: Any = None, variant: Any = "classic") -> Any:
        """:func:`canasta_tutor.bots.selfplay.run_selfplay` on the copy; the pure package's report."""
        from ..engine.options import RuleOptions
        from .transfer import from_plain, to_plain
        from ..engine.variants import get_variant

        plain = self.entry.selfplay(hands, seed, check, progress, to_plain(options or RuleOptions()),
                                    to_plain(get_variant(variant)))
        report = from_plain(plain)
        report.engine = COMPILED
        return report


#: the copy as loaded, once per process (the modules a process has imported do not change either)
_loaded: dict[str, CompiledEngine | None] = {}


def _warn(text: str) -> None:
    warnings.warn(f"the compiled search {text}: the search runs in plain Python (the same results, slower)",
                  RuntimeWarning, stacklevel=3)


def _self_check(compiled: CompiledEngine) -> None:
    """A state of each kind crosses and comes back to the same choice (a copy built from other classes fails)."""
    from .expert import rot_policy
    from ..engine.game import Game

    for variant in ("classic", "samba"):
        state = Game(variant=variant).new_initial_state(seed=1)
        state.apply(state.legal_actions()[0])
        seat = state.actor
        assert seat is not None
        if compiled.rot_act(state, seat) != rot_policy(state, seat):
            raise RuntimeError(f"the copy chose otherwise than the pure package in {variant}")


def _share_rendering() -> None:
    """The copy's engine shows its states and actions with the functions the pure package registered (the
    notation's position and action text: :mod:`canasta_tutor.engine.render`)."""
    from ..engine import render

    importlib.import_module(f"{PACKAGE}.engine.render").register(**render.hooks())


def engine() -> CompiledEngine | None:
    """The compiled copy, or None where the search runs in plain Python: ``CANASTA_TUTOR_PURE`` set, the copy
    not built, out of date (warned once), or failing to load or to pass its self-check (warned once)."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    if "engine" not in _loaded:
        _loaded["engine"] = None
        state = status()
        if state == "stale":
            _warn("is out of date (a source changed since it was built; `make native` builds it again)")
        elif state == "built":
            try:
                compiled = CompiledEngine(importlib.import_module(f"{PACKAGE}.bots.entry"))
                _share_rendering()
                _self_check(compiled)
                _loaded["engine"] = compiled
            except Exception as e:  # noqa: BLE001 - any failure to load means the pure search
                _warn(f"could not be loaded ({type(e).__name__}: {e})")
    return _loaded["engine"]


def engine_name() -> str:
    """``"compiled"`` where the search runs on the copy in this process, else ``"python"``."""
    return COMPILED if engine() is not None else PYTHON


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["build"]:
        if "--if-stale" in args and status() == "built":
            print(f"{PACKAGE}: built and up to date")
            return 0
        build(verbose="-v" in args)
        print(f"compiled {len(closure()[0])} modules into {PACKAGE}: {status()}")
        return 0
    if args[:1] == ["status"]:
        print(status())
        return 0 if status() == "built" else 1
    if args[:1] == ["modules"]:
        held, pure = closure()
        print("compiled:", " ".join(compiled(held)))
        print("copied as Python:", " ".join(sorted(set(held) - set(compiled(held)))))
        print("from the pure package:", " ".join(pure))
        return 0
    print("usage: python -m canasta_tutor.bots.native build [--if-stale] [-v] | status | modules", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
