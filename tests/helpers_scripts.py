"""Load a benchmark script (``benchmarks/NAME.py``) as a module, for tests of its helpers.

A plain module (not a conftest) so the test files can import it by name:
``from helpers_scripts import benchmark_script``.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@cache
def benchmark_script(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` loaded once (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module
