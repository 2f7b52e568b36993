"""The ``canasta-tutor`` command: deal, legal actions, play, replay, self-play, hint, match.

Plain text by default; ``--json`` prints one JSON object to stdout for machines.
Exit codes: 0 success; 1 an illegal action (``play``), a record whose result
line disagrees (``replay``) or invariant violations (``selfplay``); 2 bad input
of any kind, reported as one line ``canasta-tutor: error: ...`` on stderr.
Input files are read within limits (see :mod:`canasta_tutor.notation.textinput`), numbers
on the command line are range-checked, and a closed pipe (``| head``) ends the
command quietly.

Every subcommand is registered through the one list :data:`SUBCOMMANDS`; what they share (the parser, the
output) is in :mod:`.output`.

>>> main(["deal", "--seed", "3"])  # doctest: +ELLIPSIS
canasta-tutor position
seed: 3
...
0
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from typing import Any, Callable, Sequence

from ..notation.actions import format_action, parse_action
from . import classes, lesson, progress, puzzles, review
from .args import COUNT, SCORE, SEED, WORKERS, UsageError, ranged
from .output import PROG, Parser, emit, emit_error, note, wants_json
from ..engine.errors import CanastaError, IllegalActionError, NotationError
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..engine.state import State
from ..engine.variants import CLASSIC, VARIANTS, UnknownVariantError, Variant, get_variant



def _read(path: str) -> str:
    from ..notation.position import MAX_LINE_CHARS, MAX_POSITION_CHARS
    from ..notation.textinput import read_text

    return read_text(path, max_line=MAX_LINE_CHARS, max_chars=MAX_POSITION_CHARS)


def _source(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _load_position(path: str) -> State:
    from ..notation.position import parse_position

    try:
        return parse_position(_read(path))
    except NotationError as e:
        raise (e if e.source else e.in_file(_source(path))) from None


_VARIANT_HELP = f"the game played: {', '.join(VARIANTS)} (default classic)"


def _format_position(state: State) -> str:
    from ..notation.position import format_position

    return format_position(state)


def _options(text: str | None) -> RuleOptions:
    return RuleOptions.parse(text or "")


# ----------------------------------------------------------------- commands
def _variant(name: str) -> Variant:
    try:
        return get_variant(name)
    except UnknownVariantError as e:
        raise UsageError(str(e)) from None


def _totals(text: str | None, variant: Variant, ns: int, ew: int) -> tuple[int, ...]:
    """The sides' totals before the deal: ``--totals`` (one number per side, comma-separated), else
    ``--score-ns`` and ``--score-ew`` (classic; for a variant of two sides, its first and second side)."""
    if text is None:
        if variant.n_sides != 2 and (ns or ew):
            raise UsageError(f"{variant.name} has {variant.n_sides} sides: give --totals with one number each "
                             f"({', '.join(variant.side_names)})")
        return (ns, ew) if variant.n_sides == 2 else (0,) * variant.n_sides
    words = [w.strip() for w in text.split(",")]
    if len(words) != variant.n_sides:
        raise UsageError(f"--totals {text[:60]!r}: give {variant.n_sides} numbers, one per side "
                         f"({', '.join(variant.side_names)})")
    return tuple(SCORE(w) for w in words)


def cmd_deal(args: argparse.Namespace) -> int:
    variant = _variant(args.variant)
    game = Game(_options(args.options), variant)
    state = game.new_initial_state(args.seed, totals=_totals(args.totals, variant, args.score_ns, args.score_ew))
    text = _format_position(state)
    emit(args, {"position": text, "seed": args.seed, "options": state.options.format(), "variant": variant.name,
                 "totals": list(state.totals), "actor": state.current_seat, "phase": state.phase},
          text.rstrip("\n"))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    state = _load_position(args.file)
    actions = [format_action(a) for a in state.legal_actions()]
    emit(args, {"actor": state.current_seat, "phase": state.phase, "actions": actions}, "\n".join(actions))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    state = _load_position(args.file)
    parsed = [(text, parse_action(text)) for text in args.actions]  # all shapes first: exit 2 on any
    for text, action in parsed:
        try:
            state.apply(action)
        except IllegalActionError as e:
            emit_error(wants_json(args), {"error": e.reason, "rule": e.rule, "action": text,
                                          "canonical": format_action(action)},
                       f"illegal action {text!r}: {e.reason} [{e.rule}]")
            return 1
    position = _format_position(state)
    emit(args, {"position": position, "actor": state.current_seat, "phase": state.phase,
                 "actions": [format_action(a) for a in (p[1] for p in parsed)]}, position.rstrip("\n"))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from ..notation.record import replay_file

    record, state = replay_file(args.record, check_result=False)
    names = record.variant.side_names  # every side of the variant, in its order (NS EW; N S; E S W; NS EW PQ)

    def by_side(values: Sequence[int], sign: bool = False) -> str:
        return " ".join(f"{n} {v:+d}" if sign else f"{n} {v}" for n, v in zip(names, values, strict=True))

    hands = []
    lines = []
    running = list(record.totals)
    for i, r in enumerate(state.hand_results, start=1):
        scores = [side.total for side in r.sides]
        running = [t + x for t, x in zip(running, scores, strict=True)]
        hands.append({"hand": i, "went_out": r.went_out, "concealed": r.concealed,
                      "scores": dict(zip(names, scores, strict=True)),
                      "totals": dict(zip(names, running, strict=True))})
        out = f"{r.went_out} went out{' concealed' if r.concealed else ''}" if r.went_out else "no one out"
        lines.append(f"hand {i}: {by_side(scores, sign=True)}  ({out}; totals {by_side(running)})")
    winner = None if state.winner is None else names[state.winner]
    ok = record.result is None or tuple(record.result) == tuple(state.totals)
    lines.append(f"totals: {by_side(state.totals)}")
    lines.append(f"winner: {winner}" if winner else f"game not over (phase {state.phase})")
    if record.result is not None:
        lines.append("result line: " + ("matches" if ok else f"DISAGREES (it says {by_side(record.result)})"))
    emit(args, {"totals": dict(zip(names, state.totals, strict=True)), "hands": hands, "winner": winner,
                 "phase": state.phase, "actions": len(record.actions), "result_ok": ok,
                 "result": None if record.result is None else list(record.result)},
          "\n".join(lines))
    if not ok:
        assert record.result is not None
        note(f"{PROG}: result line {record.result_line} disagrees: the record says {by_side(record.result)}, "
             f"the actions give {by_side(state.totals)}")
        return 1
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    from ..bots import native
    from ..bots.selfplay import run_selfplay

    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    fast = native.engine() if args.engine != native.PYTHON else None
    if args.engine == native.COMPILED and fast is None:
        why = f"{native.PURE_ENV} is set" if os.environ.get(native.PURE_ENV, "") not in ("", "0") else \
            f"the search's compiled copy is {native.status()} (`make native` builds it)"
        raise UsageError(f"--engine compiled: {why}; leave --engine out to run in plain Python")
    play = run_selfplay if fast is None else fast.run_selfplay
    report = play(args.hands, args.seed, check=not args.no_check, progress=progress,
                  options=_options(args.options), variant=_variant(args.variant))
    emit(args, report.to_dict(), report.format())
    return 1 if report.violations else 0


def cmd_hint(args: argparse.Namespace) -> int:
    from ..hint import hint
    from ..engine.observer import observe

    state = _load_position(args.file)
    if state.actor is None:
        raise UsageError("the game is over: there is nothing to hint")
    h = hint(observe(state, state.actor), samples=args.samples, seed=args.seed, budget=args.budget)
    data = h.to_dict()
    data["seat"] = state.variant.seats[state.actor]
    emit(args, data, h.text())
    return 0


def _hint_samples_help() -> str:
    """``hint --samples``'s help, with the budget the default hint really uses (each variant's own; a test
    holds it to :func:`canasta_tutor.hint.race_budget` and ``DROP_Z``)."""
    others = ", ".join(f"{v.name} {v.hint_playouts}" for v in VARIANTS.values()
                       if v.hint_playouts is not None and v is not CLASSIC)
    return ("sampled deals for every candidate move, each hand played to its end (default: a race of "
            f"{CLASSIC.hint_playouts} playouts in classic ({others}), each cut off after "
            f"{CLASSIC.playout_turns} turns and scored by an estimate, in which a move drops out once it trails "
            "the leader by more than 2.5 standard errors of their paired difference; Samba's by halving, to "
            "the end of the hand); the same file, samples and seed always give the same hint")


def cmd_match(args: argparse.Namespace) -> int:
    from ..bots import BOT_NAMES, make_state_policy
    from ..bots.match import run_match

    for name in (args.bot_a, args.bot_b):
        if name not in BOT_NAMES:
            raise UsageError(f"unknown bot {name!r}: choose one of {', '.join(BOT_NAMES)}")
    a = make_state_policy(args.bot_a, seed=args.seed, iterations=args.iterations, budget=args.budget)
    b = make_state_policy(args.bot_b, seed=args.seed + 1, iterations=args.iterations, budget=args.budget)
    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    variant = _variant(args.variant)
    report = run_match(a, b, args.deals, args.seed, progress=progress, workers=args.workers, variant=variant)
    data = {"bot_a": args.bot_a, "bot_b": args.bot_b, **report.to_dict()}
    if variant is not CLASSIC:
        data["variant"] = variant.name
    lo, hi = report.margin_ci95
    text = (f"{args.bot_a} vs {args.bot_b}: {report.deals} duplicate deals ({report.hands} hands)\n"
            f"deals won by {args.bot_a}: {report.a_wins} of {report.deals}, ties {report.ties}: "
            f"share {report.a_win_share:.1%}\n"
            f"mean margin per deal: {report.margin_mean:+.1f} points (95% interval {lo:+.1f} to {hi:+.1f})\n"
            f"speed: {data['hands_per_s']} hands/s over {report.seconds:.1f} s")
    emit(args, data, text)
    return 0


# ------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    """The argument parser (subcommands deal, legal, play, replay, selfplay, hint, match)."""
    def flags(default: object) -> Parser:
        # separate parsers: argparse shares action objects with the parsers built from a parent
        f = Parser(add_help=False)
        f.add_argument("--json", action="store_true", default=default, help="print one JSON object to stdout")
        f.add_argument("--compact", action="store_true", default=default, help="with --json, print it on one line")
        return f

    # top level: defaults False; subcommands: SUPPRESS, so --json works before or after the subcommand
    p = Parser(prog=PROG, parents=[flags(False)],
                description="Classic partnership Canasta: rules engine and tutor on the command line.")
    p.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    common = flags(argparse.SUPPRESS)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True

    for add in SUBCOMMANDS:
        add(sub, common)
    return p


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add this module's own subcommands: deal, legal, play, replay, selfplay, hint and match."""
    d = sub.add_parser("deal", parents=[common], help="print the position right after a seeded deal")
    d.add_argument("--seed", type=SEED, default=0, help="the game's seed (default 0)")
    d.add_argument("--score-ns", type=SCORE, default=0, metavar="N", help="NS total before the deal")
    d.add_argument("--score-ew", type=SCORE, default=0, metavar="N", help="EW total before the deal")
    d.add_argument("--options", default="", help='rule options, e.g. "black_three=stops wild_limit=half"')
    d.add_argument("--variant", default="classic", metavar="NAME", help=_VARIANT_HELP)
    d.add_argument("--totals", default=None, metavar="N,N,...",
                   help="every side's total before the deal, comma-separated (for variants of three sides)")
    d.set_defaults(func=cmd_deal)

    lg = sub.add_parser("legal", parents=[common], help="list the legal actions in a position file")
    lg.add_argument("file", metavar="FILE", help="position file, or - for stdin")
    lg.set_defaults(func=cmd_legal)

    pl = sub.add_parser("play", parents=[common], help="apply actions to a position and print the result")
    pl.add_argument("file", metavar="FILE", help="position file, or - for stdin")
    pl.add_argument("actions", metavar="ACTION", nargs="+", help="an action, quoted: 'meld K K K'")
    pl.set_defaults(func=cmd_play)

    rp = sub.add_parser("replay", parents=[common], help="replay a game record and print the scores")
    rp.add_argument("record", metavar="RECORD", help="record file, or - for stdin")
    rp.set_defaults(func=cmd_replay)

    sp = sub.add_parser("selfplay", parents=[common], help="random self-play: speed and invariant checks")
    sp.add_argument("--hands", type=ranged(int, 0, 10_000_000), default=100, help="hands to play (default 100)")
    sp.add_argument("--seed", type=SEED, default=0, help="seed of the first game and of the random players")
    sp.add_argument("--no-check", action="store_true", help="skip the invariant checks (for speed)")
    sp.add_argument("--options", default="", help="rule options")
    sp.add_argument("--variant", default="classic", metavar="NAME", help=_VARIANT_HELP)
    sp.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bar on stderr (default: when stderr is a terminal)")
    sp.add_argument("--engine", choices=("auto", "compiled", "python"), default="auto",
                    help="the engine that plays: the search's compiled copy where it is built (auto, the default), "
                    "or plain Python; the report says which ran")
    sp.set_defaults(func=cmd_selfplay)

    h = sub.add_parser("hint", parents=[common], help="the best move for the seat to act, and why")
    h.add_argument("file", metavar="FILE", help="position file, or - for stdin")
    h.add_argument("--samples", type=ranged(int, 1, 100_000), default=None, metavar="N",
                   help=_hint_samples_help())
    h.add_argument("--budget", type=ranged(float, 0, 600, low_open=True), default=None, metavar="SECONDS",
                   help="search until this wall-clock time runs out (then the hint depends on the machine)")
    h.add_argument("--seed", type=SEED, default=0, help="seed of the search (default 0)")
    h.set_defaults(func=cmd_hint)

    m = sub.add_parser("match", parents=[common], help="a duplicate match between two bots")
    m.add_argument("bot_a", metavar="BOT_A", help="random, rules-of-thumb or expert")
    m.add_argument("bot_b", metavar="BOT_B", help="random, rules-of-thumb or expert")
    m.add_argument("--deals", type=COUNT, default=100,
                   help="deals, each played twice (default 100)")
    m.add_argument("--seed", type=ranged(int, 0, 2**62), default=0, help="seed of the first deal (default 0)")
    m.add_argument("--budget", type=ranged(float, 0, 60, low_open=True), default=None, metavar="SECONDS",
                   help="the expert's time cap per decision (default: none, a fixed number of samples)")
    m.add_argument("--iterations", type=ranged(int, 1, 100_000), default=None,
                   help="the expert's samples per decision (default: 48 where the variant cuts its playouts off, "
                        "as all but Samba do; Samba: 10)")
    m.add_argument("--workers", type=WORKERS, default=1, help="processes to use (default 1; at most four per "
                   "processor)")
    m.add_argument("--variant", default="classic", metavar="NAME", help=_VARIANT_HELP)
    m.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    m.set_defaults(func=cmd_match)


#: Every subcommand, the one list (this module's own first, then the other modules'): each is called as
#: ``add(subparsers, common)`` by :func:`build_parser`, where ``common`` is the parent parser holding ``--json``
#: and ``--compact``.  It adds its parser (of the class :class:`~.output.Parser`) and sets ``func`` (``args -> exit
#: code``) with ``set_defaults``.
SUBCOMMANDS: tuple[Callable[[Any, argparse.ArgumentParser], None], ...] = (
    register,  # deal, legal, play, replay, selfplay, hint, match
    lesson.register,  # lesson and course
    puzzles.register,  # puzzles
    classes.register,  # class (the teacher's tools)
    progress.register,  # progress import (the store the browser keeps: docs/lite.md)
    review.register,  # review (a game record's decisions graded; the review queue)
)


def _version() -> str:
    from .. import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = sys.stdout
    watched = _Watched(out)
    sys.stdout = watched  # a failing write to stdout is told from other errors
    try:
        return _main(argv, watched)
    finally:
        if sys.stdout is watched:
            sys.stdout = out


def _main(argv: Sequence[str] | None, watched: "_Watched") -> int:
    parser = build_parser()
    json_wanted = "--json" in (sys.argv[1:] if argv is None else argv)
    try:
        try:
            args = parser.parse_args(argv)
            code = int(args.func(args))
            sys.stdout.flush()
            return code
        except SystemExit as e:  # --help, --version, or argparse bailing out some other way
            sys.stdout.flush()
            return int(e.code or 0) if isinstance(e.code, int) or e.code is None else 2
        except KeyboardInterrupt:
            note(f"{PROG}: interrupted")
            return 130
        except BrokenPipeError:
            raise
        except RecursionError:
            message = "the input is nested too deeply"
        except (UsageError, CanastaError, OSError, ValueError, UnicodeDecodeError, OverflowError,
                MemoryError, sqlite3.Error) as e:
            if watched.failed is not None:
                # the output itself cannot be written (`> /dev/full`, a full disk): say so on stderr only
                _silence_stdout()
                note(f"{PROG}: error: cannot write the output: {watched.failed.strerror or watched.failed}")
                return 2
            message = _one_line(e)
        emit_error(json_wanted, {"error": message}, f"{PROG}: error: {message}")
        return 2
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, as a pipe close is not an error
        _silence_stdout()
        return 0


class _Watched:
    """Standard output, noting the first error a write or flush meets (other than a closed pipe)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.failed: OSError | None = None

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except OSError as e:
            self._note(e)
            raise

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as e:
            self._note(e)
            raise

    def _note(self, e: OSError) -> None:
        if self.failed is None and not isinstance(e, BrokenPipeError):
            self.failed = e

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout is not a real file (tests): nothing to silence
        pass


def _one_line(e: BaseException) -> str:
    if isinstance(e, FileNotFoundError):
        return f"no such file: {e.filename!r}"
    if isinstance(e, IsADirectoryError):
        return f"{e.filename!r} is a directory, not a file"
    if isinstance(e, OSError) and e.filename is not None:
        return f"cannot read {e.filename!r}: {e.strerror}"
    text = str(e) or type(e).__name__
    text = " ".join(text.split())
    return text if len(text) <= 500 else text[:500] + "…"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
