"""The review queue: missed lesson levels, puzzles and game mistakes come back when they are due.

Scheduling is FSRS, through the ``fsrs`` package (the scheduler Anki ships), with its default parameters and
learning steps and no fuzzing, so the same answers at the same times always give the same due dates.  Each
item to review is one FSRS card, kept in the progress store (``review_cards``, :mod:`.progress`) as the
card's own JSON.  An item is:

- ``level``: a lesson level (``lesson/level``), which enters the queue when an attempt fails or passes with
  fewer than three stars;
- ``puzzle``: a puzzle (its id), which enters when an attempt is missed (any trainer mode);
- ``mistake``: a decision the game review graded a mistake or a blunder (its uid, :mod:`.review_store`), a
  position whose answer is the hint's best move.

Ratings (:func:`rating_for`): solved at once is **Good**; solved with a hint is **Hard**; missed is **Again**.
Nothing maps to **Easy**: one quick solve of a position says too little to stretch the interval further than
Good does.  A lesson level passed with fewer than three stars counts as solved with help (Hard), with three
stars as Good.

:func:`sync` reads the attempts and mistakes saved since it last ran (a cursor per learner in
``review_sync``) and rates the cards they concern, at the time each attempt finished: an attempt that
qualifies puts its item in the queue, and any later attempt at an item in the queue rates its card (so a level
played again from the lesson notebook counts as its review).  Reading the queue (:func:`queue`, :func:`due`,
:func:`counts`) applies those answers in memory without writing, so the side panel, which only reads, counts
a puzzle missed a moment ago.  A card leaves the queue, ``learned``, when a Good
answer gives it an interval of :data:`LEARNED_DAYS` days or more (Anki calls such a card mature); a later miss
of the same item puts it back.

>>> import os, tempfile
>>> from datetime import datetime, timezone
>>> from .progress import Attempt, ProgressStore
>>> t0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
>>> with ProgressStore(os.path.join(tempfile.mkdtemp(), "p.sqlite3")) as store:
...     _ = store.record(Attempt("s01", "puzzles", "c01", "failed", kind="puzzle", finished=t0.isoformat()))
...     [(c.kind, c.item, str(c.due - t0)) for c in queue(store, "s01", now=t0)]
...     sync(store, "s01", now=t0)
[('puzzle', 'c01', '0:01:00')]
1
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from collections.abc import Iterable, Mapping
from typing import Any

from fsrs import Card, Rating, Scheduler

from .progress import STORE_ERRORS, ProgressStore, store_error

KINDS = ("level", "puzzle", "mistake")
#: a card whose next interval is this many days or more leaves the queue
LEARNED_DAYS = 21


def scheduler() -> Scheduler:
    """FSRS with its default parameters and learning steps, without fuzzing (the same answers, the same dates)."""
    return Scheduler(enable_fuzzing=False)


def rating_for(solved: bool, hints: int = 0) -> Rating:
    """The FSRS rating of an answer: missed is Again, solved with a hint Hard, solved at once Good.

    >>> [rating_for(False).name, rating_for(True, hints=1).name, rating_for(True).name]
    ['Again', 'Hard', 'Good']
    """
    if not solved:
        return Rating.Again
    return Rating.Hard if hints > 0 else Rating.Good


def level_rating(passed: bool, stars: int) -> Rating:
    """The FSRS rating of a lesson level's attempt: failed is Again, passed with three stars Good, with fewer
    (a hint taken, or moves over par) Hard.

    >>> [level_rating(False, 0).name, level_rating(True, 2).name, level_rating(True, 3).name]
    ['Again', 'Hard', 'Good']
    """
    if not passed:
        return Rating.Again
    return Rating.Good if stars >= 3 else Rating.Hard


@dataclass
class ReviewCard:
    """One item in the queue, with its FSRS card."""

    kind: str
    item: str
    card: Card
    reviews: int
    lapses: int
    learned: bool

    @property
    def due(self) -> datetime:
        return self.card.due

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "item": self.item, "due": self.due.isoformat(timespec="seconds"),
                "reviews": self.reviews, "lapses": self.lapses, "learned": self.learned,
                "state": self.card.state.name, "stability": None if self.card.stability is None
                else round(self.card.stability, 2)}


def _utc(when: datetime | None) -> datetime:
    now = when if when is not None else datetime.now(timezone.utc)
    if now.tzinfo is None:
        raise ValueError("the review queue needs a time with its time zone (UTC)")
    return now.astimezone(timezone.utc)


def _iso(when: datetime) -> str:
    return when.astimezone(timezone.utc).isoformat(timespec="seconds")


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"a review card is a {', a '.join(KINDS)}, not {kind[:20]!r}")


Key = tuple[str, str]


def _learner(store: ProgressStore, learner: str) -> int | None:
    row = store.conn.execute("SELECT id FROM learners WHERE name = ?", (learner,)).fetchone()
    return int(row[0]) if row else None


def _cards(store: ProgressStore, lid: int) -> dict[Key, ReviewCard]:
    rows = store.conn.execute("SELECT kind, item, card, reviews, lapses, learned FROM review_cards WHERE "
                              "learner_id = ?", (lid,)).fetchall()
    return {(k, i): ReviewCard(k, i, Card.from_json(c), int(r), int(lp), bool(ld)) for k, i, c, r, lp, ld in rows}


def _apply(cards: dict[Key, ReviewCard], kind: str, item: str, rating: Rating, when: datetime,
           create: bool = True) -> bool:
    """Rate one card in ``cards`` at ``when`` (making it first when ``create``); False when there is none."""
    old = cards.get((kind, item))
    if old is None and not create:
        return False
    # card_id 0, not one from the clock: the same answers give the same store
    card = old.card if old is not None else Card(card_id=0, due=when)
    last = card.last_review
    if last is not None and when < last:  # an answer saved out of order counts at the card's last review
        when = last
    card, _ = scheduler().review_card(card, rating, when)
    learned = rating != Rating.Again and card.due - when >= timedelta(days=LEARNED_DAYS)
    lapses = (old.lapses if old else 0) + (rating == Rating.Again and old is not None)
    cards[(kind, item)] = ReviewCard(kind, item, card, (old.reviews if old else 0) + 1, lapses, learned)
    return True


def _attempt_rating(kind: str, lesson: str, level: str, status: str, stars: int,
                    hints: int) -> tuple[str, str, Rating, bool] | None:
    """(kind, item, rating, enters the queue) for a saved attempt, or None when it says nothing of an item."""
    if status not in ("passed", "failed"):
        return None
    solved = status == "passed"
    if kind == "puzzle":
        return "puzzle", level, rating_for(solved, hints), not solved
    if kind == "lesson":
        rating = level_rating(solved, stars)
        return "level", f"{lesson}/{level}", rating, rating != Rating.Good
    return None  # an assignment's item is graded, not practised


def _when(text: str, fallback: datetime) -> datetime:
    try:
        t = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return fallback
    t = t.astimezone(timezone.utc) if t.tzinfo else t.replace(tzinfo=timezone.utc)
    return min(t, fallback)


def _cursor(store: ProgressStore, lid: int, source: str) -> int:
    row = store.conn.execute("SELECT last_id FROM review_sync WHERE learner_id = ? AND source = ?",
                             (lid, source)).fetchone()
    return int(row[0]) if row else 0


def _plan(store: ProgressStore, lid: int, now: datetime) -> tuple[dict[Key, ReviewCard], set[Key], dict[str, int]]:
    """The learner's cards with the attempts and mistakes saved since the last sync applied, in memory: the
    cards, which of them changed, and the new cursors.  Reads only."""
    cards = _cards(store, lid)
    changed: set[Key] = set()
    last = {"attempts": _cursor(store, lid, "attempts"), "mistakes": _cursor(store, lid, "mistakes")}
    for aid, kind, lesson, level, status, stars, hints, finished in store.conn.execute(
            "SELECT id, kind, lesson, level, status, stars, hints, finished FROM attempts WHERE learner_id = ? "
            "AND id > ? ORDER BY id", (lid, last["attempts"])).fetchall():
        found = _attempt_rating(kind, lesson, level, status, int(stars), int(hints))
        if found is not None:
            k, item, rating, enters = found
            if _apply(cards, k, item, rating, _when(finished, now), create=enters):
                changed.add((k, item))
        last["attempts"] = int(aid)
    for mid, uid, created in store.conn.execute(
            "SELECT id, uid, created FROM review_mistakes WHERE learner_id = ? AND id > ? ORDER BY id",
            (lid, last["mistakes"])).fetchall():
        _apply(cards, "mistake", uid, Rating.Again, _when(created, now))
        changed.add(("mistake", uid))
        last["mistakes"] = int(mid)
    return cards, changed, last


def _write(store: ProgressStore, lid: int, cards: dict[Key, ReviewCard], changed: set[Key],
           cursors: dict[str, int] | None = None) -> None:
    for key in sorted(changed):
        c = cards[key]
        stamp = _iso(c.card.last_review or c.card.due)
        store.conn.execute(
            "INSERT INTO review_cards (learner_id, kind, item, card, due, reviews, lapses, learned, created, "
            "updated) VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (learner_id, kind, item) DO UPDATE SET "
            "card = excluded.card, due = excluded.due, reviews = excluded.reviews, lapses = excluded.lapses, "
            "learned = excluded.learned, updated = excluded.updated",
            (lid, c.kind, c.item, c.card.to_json(), _iso(c.card.due), c.reviews, c.lapses, int(c.learned), stamp,
             stamp))
    for source, last in (cursors or {}).items():
        store.conn.execute("INSERT INTO review_sync (learner_id, source, last_id) VALUES (?,?,?) ON CONFLICT "
                           "(learner_id, source) DO UPDATE SET last_id = excluded.last_id", (lid, source, last))


def sync(store: ProgressStore, learner: str, now: datetime | None = None) -> int:
    """Write the attempts and review mistakes saved since the last sync into the learner's cards (one
    transaction); returns how many cards changed.  Each answer counts at the time its attempt finished (a
    mistake: when it was saved), never later than ``now``.  Reading the queue does not need it
    (:func:`queue` applies them in memory); it keeps the store's cards current."""
    when = _utc(now)
    try:
        with store.transaction():
            lid = store.learner_id(learner)
            cards, changed, cursors = _plan(store, lid, when)
            _write(store, lid, cards, changed, cursors)
    except STORE_ERRORS as e:
        raise store_error(store.path, e) from None
    return len(changed)


def rate(store: ProgressStore, learner: str, kind: str, item: str, rating: Rating,
         now: datetime | None = None) -> ReviewCard:
    """Rate the learner's card for an item at ``now`` (default: the clock), adding the card if new, after the
    answers saved since the last sync: one transaction."""
    _check_kind(kind)
    when = _utc(now)
    try:
        with store.transaction():
            lid = store.learner_id(learner)
            cards, changed, cursors = _plan(store, lid, when)
            _apply(cards, kind, item, rating, when)
            _write(store, lid, cards, changed | {(kind, item)}, cursors)
    except STORE_ERRORS as e:
        raise store_error(store.path, e) from None
    return cards[(kind, item)]


def queue(store: ProgressStore, learner: str, now: datetime | None = None) -> list[ReviewCard]:
    """The learner's cards still in the queue (not learned), the soonest due first, with the answers saved since
    the last sync applied (in memory: reading never writes, so a read-only store works too)."""
    when = _utc(now)
    try:
        lid = _learner(store, learner)
        if lid is None:
            return []
        cards, _, _ = _plan(store, lid, when)
    except STORE_ERRORS as e:
        raise store_error(store.path, e) from None
    return sorted((c for c in cards.values() if not c.learned), key=lambda c: (c.due, c.kind, c.item))


def due(store: ProgressStore, learner: str, now: datetime | None = None) -> list[ReviewCard]:
    """The learner's cards due at ``now`` (default: the clock), the longest due first."""
    when = _utc(now)
    return [c for c in queue(store, learner, when) if c.due <= when]


def card(store: ProgressStore, learner: str, kind: str, item: str) -> ReviewCard | None:
    """The learner's card for one item as the store holds it (learned or not), or None."""
    _check_kind(kind)
    lid = _learner(store, learner)
    return None if lid is None else _cards(store, lid).get((kind, item))


def tally(cards: Iterable[ReviewCard], now: datetime | None = None) -> dict[str, int]:
    """``due``: cards due now; ``overdue``: of those, the ones due before today began (UTC); ``today``: cards due
    before today ends (UTC); ``queued``: all the cards still in the queue (learned cards are not counted)."""
    when = _utc(now)
    today = when.replace(hour=0, minute=0, second=0, microsecond=0)
    left = [c for c in cards if not c.learned]
    return {"due": sum(c.due <= when for c in left), "overdue": sum(c.due < today for c in left),
            "today": sum(c.due < today + timedelta(days=1) for c in left), "queued": len(left)}


def counts(store: ProgressStore, learner: str, now: datetime | None = None) -> dict[str, int]:
    """The learner's queue in figures (see :func:`tally`)."""
    when = _utc(now)
    return tally(queue(store, learner, when), when)


def cards_from_attempts(attempts: Iterable[Mapping[str, Any]], now: datetime | None = None) -> list[ReviewCard]:
    """The cards one learner's attempts (oldest first; ``kind``, ``lesson``, ``level``, ``status``, ``stars``,
    ``hints``, ``finished`` as a datetime or ISO text) give, in memory: the class report's view of a student's
    queue.  Only the levels and puzzles: a game review's mistakes stay in the learner's own store."""
    when = _utc(now)
    cards: dict[Key, ReviewCard] = {}
    for a in attempts:
        found = _attempt_rating(str(a["kind"]), str(a["lesson"]), str(a["level"]), str(a["status"]),
                                int(a["stars"]), int(a["hints"]))
        if found is None:
            continue
        finished = a["finished"]
        at = min(_utc(finished), when) if isinstance(finished, datetime) and finished.tzinfo else \
            _when(str(finished), when)
        k, item, rating, enters = found
        _apply(cards, k, item, rating, at, create=enters)
    return list(cards.values())


__all__ = ["KINDS", "LEARNED_DAYS", "ReviewCard", "card", "cards_from_attempts", "counts", "due", "level_rating",
           "queue", "rate", "rating_for", "scheduler", "sync", "tally"]
