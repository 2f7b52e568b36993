"""No private name is imported across packages: a check of the package's sources, run by ``make lint``.

A name that starts with one underscore (``_meld_points``, say) belongs to its module and to the modules of the same
package, which change with it; a module of another package that imports it depends on a detail its owner may
change without a word.  import-linter checks which modules import which, not the names they take, so this
check reads every ``from … import …`` of the package (those inside functions too) with :mod:`ast`.

    python tests/private_names.py [PACKAGE_DIR]     # exit 1 and one line per import found
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = "canasta_tutor"


def _module(path: Path, root: Path) -> tuple[str, bool]:
    """The dotted name of the module at ``path`` (under the package at ``root``) and whether it is a package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join([PACKAGE, *parts]), is_package


def _target(node: ast.ImportFrom, module: str, is_package: bool) -> str | None:
    """The absolute module ``node`` imports from, or None for a module outside the package."""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        base = package[: len(package) - (node.level - 1)]
        return ".".join([*base, node.module] if node.module else base)
    name = node.module or ""
    return name if name == PACKAGE or name.startswith(PACKAGE + ".") else None


def _package_of(module: str, is_package: bool) -> str:
    return module if is_package else module.rpartition(".")[0]


def private_imports(root: Path) -> list[str]:
    """One line per private name imported from a module of another package, as ``file:line: ...``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if "_fast" in path.relative_to(root).parts:
            continue
        module, is_package = _module(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            target = _target(node, module, is_package)
            if target is None:
                continue
            target_path = root.joinpath(*target.split(".")[1:])
            target_is_package = (target_path / "__init__.py").is_file()
            if _package_of(target, target_is_package) == _package_of(module, is_package):
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path}:{node.lineno}: {module} imports the private name {alias.name} "
                                 f"from {target}, another package")
    return found


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / PACKAGE
    found = private_imports(root)
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} private names imported across packages")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
