"""A state as plain data, and back: how a state crosses into the search's compiled copy.

The search's compiled copy (:mod:`canasta_tutor.bots.native`) holds its own classes: its ``State`` is not the pure
package's ``State``, nor its ``Variant`` the pure ``Variant``, so an object of one cannot be handed to the
other.  What crosses between the two is plain data only (None, booleans, numbers, strings, and lists, tuples
and dicts of them), made by :func:`to_plain` on one side and read by :func:`from_plain` on the other.  Each
side runs its own copy of this module, which builds its own classes.

A class instance becomes a tagged tuple ``(TAG, module, class name, fields)``: the module is named relative to
the package, so the copy finds its own class of that name.  A registered variant comes back as the registered
object itself (the engine compares variants with ``is``).

>>> from canasta_tutor import Game
>>> state = Game(variant="samba").new_initial_state(seed=2)
>>> back = from_plain(to_plain(state))
>>> type(back).__name__, back.variant is state.variant, back.legal_actions() == state.legal_actions()
('SambaState', True, True)
>>> from_plain(to_plain(state)).hands == state.hands and to_plain(state) == to_plain(back)
True
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from ..engine.variants import VARIANTS

#: marks a tuple that stands for an object of a class (never the first item of an action)
TAG = "\x00obj"
#: the package this copy of the module belongs to (``canasta_tutor``, or the compiled copy's package): two
#: levels up from ``bots.transfer``
_PACKAGE = __name__.rsplit(".", 2)[0]
_ATOMS = (type(None), bool, int, float, str)


def _fields(obj: Any) -> list[str]:
    """The names that make up ``obj``: a dataclass's fields given to its constructor, else every slot."""
    if dataclasses.is_dataclass(obj):
        return [f.name for f in dataclasses.fields(obj) if f.init]
    names: list[str] = []
    for cls in type(obj).__mro__:
        for name in cls.__dict__.get("__slots__", ()):
            if name not in names:
                names.append(name)
    return names


def to_plain(value: Any) -> Any:
    """``value`` as plain data: atoms as they are, containers copied, objects of the package's classes as
    tagged tuples.  Raises TypeError on anything else (a function, an object of another package)."""
    if isinstance(value, _ATOMS):
        return value
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(to_plain(v) for v in value)
    if isinstance(value, dict):
        return {to_plain(k): to_plain(v) for k, v in value.items()}
    cls = type(value)
    module = cls.__module__
    if module != _PACKAGE and not module.startswith(_PACKAGE + "."):
        raise TypeError(f"{cls.__module__}.{cls.__qualname__} cannot cross as plain data")
    fields = tuple((name, to_plain(getattr(value, name))) for name in _fields(value) if hasattr(value, name))
    return (TAG, module[len(_PACKAGE):], cls.__qualname__, fields)


#: registered variants by their plain form, read once
_REGISTERED: dict[Any, Any] = {}


def _registered(variant: Any) -> Any:
    """The registered variant equal to ``variant``, or ``variant`` itself."""
    if not _REGISTERED:
        for v in VARIANTS.values():
            _REGISTERED[to_plain(v)] = v
    return _REGISTERED.get(to_plain(variant), variant)


def from_plain(value: Any) -> Any:
    """The object :func:`to_plain` made ``value`` from, built of this package's classes."""
    if isinstance(value, list):
        return [from_plain(v) for v in value]
    if isinstance(value, dict):
        return {from_plain(k): from_plain(v) for k, v in value.items()}
    if not isinstance(value, tuple):
        return value
    if len(value) != 4 or value[0] != TAG:
        return tuple(from_plain(v) for v in value)
    _, module, name, fields = value
    if name == "Variant" and value in _REGISTERED:  # the common case, without building it
        return _REGISTERED[value]
    cls: Any = getattr(importlib.import_module(_PACKAGE + module), name)
    attrs = {k: from_plain(v) for k, v in fields}
    if hasattr(cls, "__dataclass_fields__"):  # built by its constructor (a frozen one cannot be set)
        made = cls(**attrs)
        return _registered(made) if name == "Variant" else made
    try:
        obj = cls.__new__(cls)
    except TypeError:
        # a compiled class's __new__ runs its __init__, which needs the arguments of a class without defaults:
        # such a class (a Samba meld) is made from its fields, which are its arguments
        return cls(**attrs)
    for k, v in attrs.items():
        setattr(obj, k, v)
    return obj


__all__ = ["to_plain", "from_plain", "TAG"]
