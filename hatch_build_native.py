"""The wheel's build hook: compile the search's copy (canasta_tutor/bots/native.py) into the wheel.

``python -m build`` (or ``pip wheel``) runs this hook for the wheel, after hatch has read the sources.  It
compiles the copy with mypyc, as ``make`` does, and adds the extensions to the wheel, which is then tagged for
this Python and platform (``cp311-cp311-linux_x86_64``, say): a user who installs it gets the compiled search.
Where compiling fails (no C compiler), or ``CANASTA_TUTOR_PURE_WHEEL=1`` asks for it, the wheel is the
pure-Python one (``py3-none-any``), with a warning: the same hints, about half as fast (README, "Install").

The copy is compiled in a scratch folder holding a copy of the package's sources, never in the tree being
built (a work tree's own copy, which ``make native`` keeps, is left alone).  An editable install (``pip install
-e``, what ``make`` runs) compiles nothing here.  This hook is one of several: it composes with any other build
hook of the project.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PURE_ENV = "CANASTA_TUTOR_PURE_WHEEL"


def _native(root: Path) -> Any:
    """canasta_tutor/bots/native.py, loaded from the sources being built (it imports nothing of the package)."""
    path = root / "canasta_tutor" / "bots" / "native.py"
    spec = importlib.util.spec_from_file_location("_canasta_tutor_native", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses and annotations look themselves up there)
    spec.loader.exec_module(module)
    return module


class NativeBuildHook(BuildHookInterface):
    """Compiles the search's copy into a wheel (see the module docstring)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get(PURE_ENV, "") not in ("", "0"):
            self.app.display_warning(f"{PURE_ENV} is set: a pure-Python wheel (the search runs in plain Python)")
            return
        self.scratch = Path(tempfile.mkdtemp(prefix="canasta-tutor-native-"))
        package = self.scratch / "canasta_tutor"
        shutil.copytree(Path(self.root) / "canasta_tutor", package,
                        ignore=shutil.ignore_patterns("_fast", "__pycache__", "*.so", "*.pyc"))
        native = _native(self.scratch)
        self.app.display_info("compiling the search's copy with mypyc (canasta_tutor/bots/native.py) ...")
        try:
            files = native.build(root=package)
        except Exception as e:  # noqa: BLE001 - any failure gives the pure wheel, which works everywhere
            self.app.display_warning(f"the search could not be compiled, so this wheel is pure Python (the same "
                                     f"hints, slower): {type(e).__name__}: {str(e)[-2000:]}")
            return
        for rel in files:
            build_data["force_include"][str(self.scratch / rel)] = rel
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"the wheel carries the compiled search: {len(files)} files in canasta_tutor/_fast")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "scratch", None)
        if scratch is not None:  # the wheel is written: the compiled files are in it
            shutil.rmtree(scratch, ignore_errors=True)
