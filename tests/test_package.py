"""Packaging: one version, and the package declares its type hints (PEP 561)."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import canasta_tutor


def test_installed_version_is_the_package_version() -> None:
    """pyproject.toml reads the version from canasta_tutor/__init__.py; the two never differ."""
    assert importlib.metadata.version("canasta-tutor") == canasta_tutor.__version__


def test_py_typed_marker_ships_in_the_package() -> None:
    assert (Path(canasta_tutor.__file__).parent / "py.typed").is_file()
