"""The entry points of the search's compiled copy: plain data in, plain data out.

:mod:`canasta_tutor.bots.native` compiles this module and everything it imports into a copy of the package
(``canasta_tutor._fast``); the pure package calls the copy only through the functions here.  Their states,
options and variants arrive as plain data (:func:`~canasta_tutor.bots.transfer.to_plain`) and are rebuilt from the
copy's own classes (:func:`~canasta_tutor.bots.transfer.from_plain`); what they return is plain too: playout
values, an action, a self-play report's fields.  So no object of one side ever reaches the other, and every
variant, Samba included, runs on the copy.

The functions run the same code in the pure package, where they are a round trip through plain data:

>>> from canasta_tutor import Game
>>> from canasta_tutor.bots.transfer import to_plain
>>> state = Game().new_initial_state(seed=4)
>>> rot_act(to_plain(state), state.actor) == rot_policy(state, state.actor)
True
"""

from __future__ import annotations

from typing import Any

from .expert import ExpertBot, race_values as _race_values, rot_policy
from .expert import sample_line_values as _sample_line_values
from .expert import sample_values_from as _sample_values_from
from .selfplay import run_selfplay
from ..engine.state import Action
from .transfer import from_plain, to_plain


def race_values(state: Any, seat: int, candidates: list[Action], playouts: int, seed: int,
                max_seconds: float | None = None, min_round: int = 8, turns: int | None = None,
                keep_first: bool = False, drop_z: float | None = None, keep: int | None = None) -> list[list[float]]:
    """:func:`canasta_tutor.bots.expert.race_values` on the state ``state`` stands for."""
    return _race_values(from_plain(state), seat, candidates, playouts, seed, max_seconds, min_round, turns,
                        keep_first, drop_z, keep)


def sample_line_values(state: Any, seat: int, lines: list[tuple[Action, ...]], iterations: int, seed: int,
                       max_seconds: float | None = None, turns: int | None = None) -> list[list[float]]:
    """:func:`canasta_tutor.bots.expert.sample_line_values` on the state ``state`` stands for."""
    return _sample_line_values(from_plain(state), seat, lines, iterations, seed, max_seconds, turns)


def sample_values(state: Any, seat: int, candidates: list[Action], iterations: int, seed: int,
                  max_seconds: float | None = None, turns: int | None = None) -> list[list[float]]:
    """:func:`canasta_tutor.bots.expert.sample_values` on the state ``state`` stands for."""
    return sample_line_values(state, seat, [(a,) for a in candidates], iterations, seed, max_seconds, turns)


def sample_values_from(state: Any, seat: int, candidates: list[Action], first: int, stop: int,
                       seed: int) -> list[list[float]]:
    """:func:`canasta_tutor.bots.expert.sample_values_from` on the state ``state`` stands for."""
    return _sample_values_from(from_plain(state), seat, candidates, first, stop, seed)


def expert_act(state: Any, seat: int, iterations: int | None, seed: int, max_seconds: float | None,
               search_melds: bool, z: float) -> Action:
    """The expert's choice (:meth:`canasta_tutor.bots.expert.ExpertBot.act`) on the state ``state`` stands for."""
    bot = ExpertBot(iterations=iterations, seed=seed, max_seconds=max_seconds, search_melds=search_melds, z=z)
    return bot.act(from_plain(state), seat)


def rot_act(state: Any, seat: int) -> Action:
    """The rules of thumb's choice (:func:`canasta_tutor.bots.expert.rot_policy`) on the state ``state`` stands for."""
    return rot_policy(from_plain(state), seat)


def selfplay(hands: int, seed: int, check: bool, progress: bool, options: Any, variant: Any) -> Any:
    """:func:`canasta_tutor.bots.selfplay.run_selfplay`; its report as plain data."""
    report = run_selfplay(hands, seed, check=check, progress=progress, options=from_plain(options),
                          variant=from_plain(variant))
    return to_plain(report)


__all__ = ["race_values", "sample_values", "sample_line_values", "expert_act", "rot_act", "selfplay"]
