"""A simulated class: bots of several strengths play real lesson levels and puzzles into a store.

A teacher can try the class report before a real class, and the tests and the
benchmark use it.  Every simulated student is a bot with a profile:

- ``beginner``: moves of the random bot, often tries a move the engine refuses,
  often asks for a hint, rarely knows the lesson's answer;
- ``steady``: moves of the rules-of-thumb bot, sometimes refused, knows half the answers;
- ``strong``: moves of the hint (the expert's search at a few samples), rarely refused,
  knows most answers.

"Knowing the answer" means playing the next move of the level's solution line (or the
puzzle's answer); otherwise the student plays the bot's move.  A refused move is a
real try against the engine (a discard before drawing, a take without the pair, a
meld below the minimum ...): the store gets the engine's rule and reason.  A wrong
puzzle answer is stored with the hint's reason (the cost its detectors find).  Items
are lesson levels (:mod:`..lessons`) and puzzles (:mod:`..puzzles`) in course order;
each item has one seed for the whole class, as in an assignment.  Times are simulated
(weekly sessions from a fixed date), so the same seed gives the same store.

>>> import tempfile
>>> course = tempfile.mkdtemp()
>>> summary = simulate(course, students=2, items=3, seed=1, progress=False)
>>> summary.students, summary.items, summary.attempts >= 6
(2, 3, True)
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

from ...notation.actions import Action, format_action
from ...engine.cards import CARD_KIND, DEUCE, JOKER, NUM_KINDS, RED_THREE
from ...engine.errors import CanastaError
from ...engine.state import SEATS, State
from ..lessons.model import Level
from ..lessons.runner import OPEN, PASSED, LevelRun
from ..atomicfile import write_atomic
from ..progress import Attempt, ProgressStore, course_path
from ..puzzles.library import Puzzle, load_library
from ..puzzles.rating import Rating, solve
from ..puzzles.themes import THEMES

START = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)  # the first session (a Monday)
ITEMS_PER_SESSION = 10
HINT_SAMPLES = 6  # the hint bot's samples per decision: weak on purpose, and quick
MAX_STEPS = 40  # learner tries per attempt before the simulated student gives up


class SimulationError(CanastaError, ValueError):
    """A simulation that cannot be run as asked (more items than the course has, ...)."""


@dataclass(frozen=True)
class Profile:
    """How a simulated student plays."""

    bot: str  # random, rules-of-thumb or hint
    knows: float  # chance of playing the answer's next move
    slip: float  # chance of trying a move the engine refuses before each move
    hint: float  # chance of asking for a hint before each move (while hints remain)
    retries: int  # further attempts after a failed one
    think: tuple[int, int]  # seconds per try, low and high


PROFILES: dict[str, Profile] = {
    "beginner": Profile("random", 0.3, 0.30, 0.30, 1, (20, 90)),
    "steady": Profile("rules-of-thumb", 0.6, 0.12, 0.15, 2, (10, 60)),
    "strong": Profile("hint", 0.85, 0.04, 0.05, 1, (5, 40)),
}


@dataclass(frozen=True)
class Item:
    """One item of the simulated class plan: a lesson level or a puzzle."""

    kind: str  # lesson or puzzle
    lesson: str  # the lesson's id, or "puzzles"
    level: str  # the level's id, or the puzzle's
    themes: tuple[str, ...]
    level_obj: Level | None = None
    puzzle: Puzzle | None = None


@dataclass
class Summary:
    """What :func:`simulate` wrote."""

    path: Path
    students: int
    items: int
    attempts: int
    skipped: int  # attempts already in the store (the same seed simulated before)


def plan(items: int, seed: int) -> list[Item]:
    """``items`` items, three lesson levels to two puzzles, spread over the course in its order."""
    from ..lessons.player import load_course

    levels = [lv for lesson in load_course() for lv in lesson.levels]
    puzzles = sorted(load_library(), key=lambda p: (p.rating, p.id))
    if items < 1 or items > len(levels) + len(puzzles):
        raise SimulationError(f"--items must lie between 1 and {len(levels) + len(puzzles)} (the course's "
                              f"{len(levels)} lesson levels and {len(puzzles)} puzzles), not {items}")
    n_puzzles = min(len(puzzles), items * 2 // 5)
    n_levels = items - n_puzzles
    if n_levels > len(levels):
        n_levels, n_puzzles = len(levels), items - len(levels)
    rng = random.Random(f"plan:{seed}")
    chosen_levels = sorted(rng.sample(range(len(levels)), n_levels))
    chosen_puzzles = sorted(rng.sample(range(len(puzzles)), n_puzzles))
    out = [(i / max(1, n_levels), Item("lesson", levels[i].lesson_id, levels[i].id, (levels[i].lesson_id,),
                                        level_obj=levels[i])) for i in chosen_levels]
    out = [(k / max(1, n_levels), item) for k, (_, item) in enumerate(out)]
    out += [((k + 0.5) / max(1, n_puzzles), Item("puzzle", "puzzles", puzzles[i].id, tuple(puzzles[i].themes),
                                                  puzzle=puzzles[i])) for k, i in enumerate(chosen_puzzles)]
    return [item for _, item in sorted(out, key=lambda t: t[0])]


# ------------------------------------------------------------------ moves
def tempting_refusals(state: State, seat: int) -> list[tuple[Action, str, str]]:
    """Moves a learner might try here that the engine refuses: (action, rule, reason)."""
    hand = [len(k) for k in state.hands[seat]]
    tries: list[Action] = [("draw",)]
    top = CARD_KIND[state.pile[-1]] if state.pile else None
    if top is not None and top not in (DEUCE, JOKER):
        tries += [("take", top, 1, 0, 0), ("take", top, 1, 1 if hand[JOKER] else 0, 1 if not hand[JOKER] else 0),
                  ("take", top, 0, 0, 0)]
    for k in range(NUM_KINDS):
        if hand[k] and k not in (DEUCE, JOKER, RED_THREE):
            tries += [("discard", k), ("meld", k, min(hand[k], 2), 0, 0), ("add", k, k)]
            if hand[DEUCE]:
                tries.append(("meld", k, 1, 0, min(hand[DEUCE], 2)))
    out = []
    for a in tries:
        err = state.explain(a)
        if err is not None and err.rule:
            out.append((a, err.rule, err.reason))
    return out


class Chooser:
    """A simulated student's bot: its move at a state (the hint bot's moves are cached by position)."""

    def __init__(self, bot: str, seed: int) -> None:
        from ...bots import make_state_policy

        self.bot = bot
        self.seed = seed
        self._policy: Callable[[State, int], tuple] | None = (
            None if bot == "hint" else make_state_policy(bot, seed))

    def __call__(self, state: State, seat: int, cache: dict[str, Action]) -> Action:
        if self._policy is not None:
            return self._policy(state, seat)
        from ...hint import hint
        from ...engine.observer import observe
        from ...notation.position import format_position

        key = format_position(state, SEATS[seat])
        if key not in cache:
            cache[key] = hint(observe(state, SEATS[seat]), samples=HINT_SAMPLES, seed=self.seed).best
        return cache[key]


@dataclass
class _Clock:
    now: datetime

    def spend(self, rng: random.Random, think: tuple[int, int]) -> None:
        self.now += timedelta(seconds=rng.randint(*think))

    def stamp(self) -> str:
        return self.now.isoformat(timespec="seconds")


def _uid(*parts: object) -> str:
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:32]


def play_level(item: Item, seed: int, prof: Profile, knows: float, rng: random.Random, chooser: Chooser,
               clock: _Clock, cache: dict[str, Action]) -> tuple[LevelRun, dict[int, str], dict[int, str]]:
    """One attempt at a lesson level; returns the run, the engine's reasons for refused moves and
    the hint's reasons against wrong moves, by index in the run's log."""
    level = item.level_obj
    assert level is not None
    run = LevelRun(level, seed=seed, hint_fn=None)
    reasons: dict[int, str] = {}
    wrongs: dict[int, str] = {}
    accepted: list[str] = []
    steps = 0
    while run.status == OPEN and steps < MAX_STEPS and run.learner_to_act():
        steps += 1
        clock.spend(rng, prof.think)
        if level.hints and run.hints_used < len(level.hints) and rng.random() < prof.hint:
            run.next_hint()
            knows = min(1.0, knows + 0.2)
        if rng.random() < prof.slip:
            wrong = tempting_refusals(run.state, run.seat_no)
            if wrong:
                action, _, _ = wrong[rng.randrange(len(wrong))]
                n = len(run.log)
                result = run.play(format_action(action))
                reasons[n] = result.reason
                continue
        nxt = [line[len(accepted)] for line in run.solutions if line[:len(accepted)] == accepted
               and len(line) > len(accepted)]
        if nxt and rng.random() < knows:
            text = nxt[0]
        else:
            action = chooser(run.state, run.seat_no, cache)
            if action[0] not in level.allow:
                allowed = [a for a in run.state.legal_actions() if a[0] in level.allow]
                action = allowed[rng.randrange(len(allowed))] if allowed and rng.random() < 0.7 else action
            text = format_action(action)
        n = len(run.log)
        result = run.play(text)
        if result.accepted:
            accepted.append(result.notation)
            if result.wrong:  # legal, but the level can no longer be passed: the hint's reason
                wrongs[n] = run.wrong_note
        elif result.reason:
            reasons[n] = result.reason
    return run, reasons, wrongs


def play_puzzle(item: Item, prof: Profile, knows: float, rng: random.Random, chooser: Chooser, clock: _Clock,
                cache: dict[str, Action]) -> tuple[bool, int, list[dict[str, str]]]:
    """One attempt at a puzzle: (solved, hints, actions)."""
    p = item.puzzle
    assert p is not None
    state = p.state()
    seat = state.actor
    assert seat is not None
    actions: list[dict[str, str]] = []
    hints = 0
    clock.spend(rng, prof.think)
    if p.themes and rng.random() < prof.hint:
        hints = 1
        actions.append({"kind": "hint", "text": f"Think about this: {THEMES[p.themes[0]][0]}."})
        knows = min(1.0, knows + 0.25)
    if rng.random() < prof.slip:
        wrong = tempting_refusals(state, seat)
        if wrong:
            action, rule, reason = wrong[rng.randrange(len(wrong))]
            actions.append({"kind": "refused", "text": format_action(action), "rule": rule, "reason": reason})
            clock.spend(rng, prof.think)
    action = p.answers()[0] if rng.random() < knows else chooser(state, seat, cache)
    if p.is_correct(action):
        actions.append({"kind": "action", "text": format_action(action)})
        return True, hints, actions
    rule, reason = why_wrong(p, action)
    actions.append({"kind": "wrong", "text": format_action(action), "rule": rule, "reason": reason})
    return False, hints, actions


def why_wrong(p: Puzzle, action: Action) -> tuple[str, str]:
    """The reason against a legal but wrong puzzle answer, in words: the first cost the hint's
    detectors find (with its rule number, if a rule is the reason), else the answer and the puzzle's
    note (no search figures: a teacher reads these in the report)."""
    from ...hint.detectors import BAD, move_facts
    from ...engine.observer import observe

    state = p.state()
    assert state.actor is not None
    facts = [f for f in move_facts(observe(state, SEATS[state.actor]), action, state) if f.kind == BAD]
    if facts:
        return facts[0].rule or "", facts[0].text
    v = p.verification
    if v.forced:
        return "", f"The only legal move is {p.solution[0]}."
    return "", f"The answer is {p.solution[0]}." + (f" {p.note}" if p.note else "")


# ------------------------------------------------------------------ the class
def _student(n: int) -> str:
    return f"s{n:02d}" if n < 100 else f"s{n:04d}"


def simulate(course: str | Path, students: int = 30, items: int = 50, seed: int = 0, class_name: str | None = None,
             progress: bool = True, complete: float = 0.7) -> Summary:
    """Fill the course's store with a simulated class; the same arguments give the same attempts.

    Each student works through the first part of the plan: between ``complete`` and all of it,
    so a report made now shows a class still at work.  A store that already holds these
    attempts (same seed) is left as it is."""
    from tqdm.auto import tqdm

    if students < 1:
        raise SimulationError(f"--students must be at least 1, not {students}")
    path = course_path(course)
    items_plan = plan(items, seed)
    names = [_student(i + 1) for i in range(students)]
    profiles = list(PROFILES)
    rng0 = random.Random(f"class:{seed}")
    kinds = [profiles[i % len(profiles)] for i in range(students)]
    rng0.shuffle(kinds)
    item_seed = {i: rng0.randrange(1000) for i in range(len(items_plan))}
    cache: dict[tuple[int, str], dict[str, Action]] = {}
    written = skipped = 0
    with ProgressStore(path) as store:
        cls = class_name or Path(course).resolve().name or "class"
        store.add_class(cls)
        for name, kind in zip(names, kinds, strict=True):
            store.add_learner(name, f"Student {name[1:]} ({kind})")
        store.add_to_class(cls, *names)
        have = {r[0] for r in store.conn.execute("SELECT uid FROM attempts")}
        with tqdm(total=students * len(items_plan), desc="students x items", disable=not progress) as bar:
            for s_no, (name, kind) in enumerate(zip(names, kinds, strict=True)):
                prof = PROFILES[kind]
                rng = random.Random(f"student:{seed}:{name}")
                reach = len(items_plan) if rng.random() < 0.5 else max(1, round(len(items_plan) * rng.uniform(
                    complete, 1.0)))
                chooser = Chooser(prof.bot, seed + s_no)
                rating = Rating()
                batch: list[Attempt] = []
                clock = _Clock(START)
                for i, item in enumerate(items_plan[:reach]):
                    session = START + timedelta(days=7 * (i // ITEMS_PER_SESSION), minutes=rng.randint(0, 20))
                    if session > clock.now:
                        clock.now = session
                    clock.spend(rng, (20, 120))  # reading the item
                    knows = min(1.0, max(0.0, prof.knows + rng.uniform(-0.15, 0.15)))
                    for a_no in range(prof.retries + 1):
                        uid = _uid("simulate", seed, name, i, item.lesson, item.level, a_no)
                        attempt, rating = _attempt(item, item_seed[i], prof, knows, rng, chooser, clock,
                                                   cache.setdefault((i, prof.bot), {}), name, rating)
                        attempt.uid = uid
                        attempt.assignment = f"week-{i // ITEMS_PER_SESSION + 1}"
                        if uid in have:
                            skipped += 1
                        else:
                            batch.append(attempt)
                        if attempt.status == PASSED:
                            break
                        knows = min(1.0, knows + 0.1)  # they learn a little from a failure
                        clock.spend(rng, (30, 120))
                    bar.update(1)
                written += store.record_many(batch)
                bar.update(len(items_plan) - reach)
    return Summary(path, students, len(items_plan), written, skipped)


def _attempt(item: Item, seed: int, prof: Profile, knows: float, rng: random.Random, chooser: Chooser,
             clock: _Clock, cache: dict[str, Action], name: str, rating: Rating) -> tuple[Attempt, Rating]:
    started = clock.stamp()
    if item.kind == "lesson":
        run, reasons, wrongs = play_level(item, seed, prof, knows, rng, chooser, clock, cache)
        attempt = run.attempt(name)
        if run.status == OPEN:  # gave up: the level counts as failed
            attempt.status = "failed"
        for n, why in reasons.items():
            attempt.actions[n] = dict(attempt.actions[n], reason=why)
        for n, why in wrongs.items():
            attempt.actions[n] = dict(attempt.actions[n], kind="wrong", reason=why)
        attempt.themes = list(item.themes)
    else:
        p = item.puzzle
        assert p is not None
        solved, hints, actions = play_puzzle(item, prof, knows, rng, chooser, clock, cache)
        after, _ = solve(rating, Rating(p.rating, p.rd), solved)
        attempt = Attempt(name, "puzzles", p.id, "passed" if solved else "failed", stars=(3 - hints) if solved else 0,
                          seed=0, tries=sum(1 for a in actions if a["kind"] != "hint"), hints=hints, actions=actions,
                          kind="puzzle", rating_before=round(rating.rating, 1), rating_after=round(after.rating, 1),
                          themes=list(item.themes))
        rating = after
    attempt.started, attempt.finished = started, clock.stamp()
    return attempt, rating


# ------------------------------------------------------------------ the demo class
#: a simulated class kept as text (one attempt per line, JSON), so that the teacher notebook shows
#: the same report however the lessons, puzzles or bots change; :func:`write_demo` remakes it
DEMO = Path(__file__).with_name("demo-class.jsonl")
DEMO_ARGS = {"students": 12, "items": 16, "seed": 7}
_FIELDS = ("learner", "lesson", "level", "status", "stars", "seed", "tries", "par", "hints", "actions", "kind",
           "started", "finished", "rating_before", "rating_after", "themes", "assignment", "uid")


def write_demo(path: Path = DEMO) -> int:
    """Simulate the demo class (:data:`DEMO_ARGS`) and write its attempts to ``path``; returns how many."""
    import json
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        course = Path(tmp) / "demo-class"
        simulate(course, DEMO_ARGS["students"], DEMO_ARGS["items"], DEMO_ARGS["seed"], progress=False)
        with ProgressStore(course_path(course)) as store:
            names = store.display_names()
            rows = [{**{k: a[k] for k in _FIELDS}, "display_name": names[a["learner"]],
                     "actions": [x for x in a["actions"] if x["kind"] != "reply"]}  # the report reads no replies
                    for a in store.attempts()]
    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
    write_atomic(path, text)
    return len(rows)


def load_demo(course: str | Path, class_name: str = "demo-class") -> Summary:
    """Fill the course's store with the demo class (attempts already there are skipped)."""
    import json

    rows = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines() if line.strip()]
    with ProgressStore(course_path(course)) as store:
        have = {r[0] for r in store.conn.execute("SELECT uid FROM attempts")}
        for name, shown in sorted({(r["learner"], r["display_name"]) for r in rows}):
            store.add_learner(name, shown)
        store.add_to_class(class_name, *sorted({r["learner"] for r in rows}))
        new = [Attempt(**{k: r[k] for k in _FIELDS}) for r in rows if r["uid"] not in have]
        written = store.record_many(new)
        path = store.path
    items = len({(r["lesson"], r["level"]) for r in rows})
    return Summary(path, len({r["learner"] for r in rows}), items, written, len(rows) - written)


__all__ = ["simulate", "write_demo", "load_demo", "DEMO", "plan", "Summary", "Profile", "PROFILES", "Item",
           "SimulationError", "tempting_refusals", "why_wrong"]
