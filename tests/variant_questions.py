"""Lint: no module outside ``canasta_tutor/engine/`` asks which variant it is playing (issue 32).

A layer above the engine reads what differs between variants from the variant's fields
(``numbered_melds``, ``hint_few_deals``, ...) or from the state's own methods (``listed_melds``,
``sequence_suit``, ...), never from the state's class or from a flag that stands for one variant.  This
script reads every module of the package with ``ast`` (so docstrings and comments may name Samba) and
reports each place that names ``SambaState`` or ``FiveState``, reads an attribute ``.sequences``, or
compares a variant's ``name`` or ``rules`` with a string.  ``make lint`` runs it; ``tests/test_layers.py``
checks it finds an offence.  Usage: ``python tests/variant_questions.py [PACKAGE_DIR]``; exit 1 when it finds any.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

#: the names of the classes and flags that stand for one variant's rules
CLASS_NAMES = frozenset({"SambaState", "FiveState"})
FLAG_NAMES = frozenset({"sequences"})
#: folders of the package that may ask: the engine itself, and the compiled copy of it that the build makes
ALLOWED = ("engine", "_fast")


def _names_variant(node: ast.expr) -> bool:
    """Whether an expression reads ``...variant.name`` or ``...variant.rules``."""
    return (isinstance(node, ast.Attribute) and node.attr in ("name", "rules")
            and "variant" in ast.unparse(node.value).lower())


def questions(root: Path) -> list[str]:
    """Every place outside the engine that asks which variant it is, as ``file:line: what``."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in ALLOWED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in sorted(ast.walk(tree), key=lambda n: getattr(n, "lineno", 0)):
            what = None
            if isinstance(node, ast.Name) and node.id in CLASS_NAMES:
                what = f"names {node.id}"
            elif isinstance(node, ast.alias) and node.name in CLASS_NAMES:
                what = f"imports {node.name}"
            elif isinstance(node, ast.Attribute) and (node.attr in CLASS_NAMES or node.attr in FLAG_NAMES):
                what = f"reads .{node.attr}"
            elif isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(_names_variant(s) for s in sides) and any(
                        isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides):
                    what = "compares a variant's name or rules with a string"
            if what is not None:
                found.append(f"{root.name}/{rel}:{getattr(node, 'lineno', 0)}: {what}: ask the variant's fields or "
                             "the state's methods instead (docs/architecture.md, 'A variant')")
    return found


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else Path(__file__).resolve().parent.parent / "canasta_tutor"
    found = questions(root)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
