"""Golden explanations: hand-written teaching positions and the hint's full explanation of each.

Each ``tests/golden/hints/*.txt`` is a position in the project's notation whose header
comments name the detectors that must fire on the hint's move (``# fires:``) and some
that must stay silent (``# silent:``).  The hint is computed with a fixed sample count
and seed, so it repeats exactly; its stages, verdict, principles and rules are checked
against the ``.golden`` file beside the position.  After a deliberate change to the
search or the wording, regenerate with ``UPDATE_GOLDEN=1 pytest tests/test_hint_golden.py``
and read every changed explanation as a teacher before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from canasta_tutor.hint import hint
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import parse_position

HERE = Path(__file__).resolve().parent / "golden" / "hints"
FILES = sorted(HERE.glob("*.txt"))
SAMPLES, SEED = 48, 0


def _header(text: str, key: str) -> set[str]:
    for line in text.splitlines():
        if line.startswith(f"# {key}:"):
            return set(line.split(":", 1)[1].split())
    return set()


def render(path: Path) -> tuple[str, set[str]]:
    text = path.read_text()
    state = parse_position(text)
    h = hint(observe(state, state.actor), samples=SAMPLES, seed=SEED)
    nudge, move, full = h.stages()
    out = [f"verdict: {h.verdict}", f"nudge: {nudge}", f"move: {move}", f"principles: {' '.join(h.principles)}",
           f"rules: {' '.join(h.rules)}", "explanation:", full, ""]
    return "\n".join(out), {f.id for f in h.facts}


def test_at_least_25_teaching_positions():
    assert len(FILES) >= 25


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_explanation(path):
    got, fired = render(path)
    text = path.read_text()
    fires, silent = _header(text, "fires"), _header(text, "silent")
    assert fires, "each teaching position names the detectors that must fire"
    assert fires <= fired, f"did not fire: {fires - fired}"
    assert not silent & fired, f"fired but must not: {silent & fired}"
    golden = path.with_suffix(".golden")
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(got)
    assert golden.exists(), f"no golden file {golden.name}: run with UPDATE_GOLDEN=1 and read it"
    assert got == golden.read_text()
    assert "±" not in got  # numbers stay in the details
    nudge = got.splitlines()[1]
    assert "R-" not in nudge and "P-" not in nudge and not any(ch.isdigit() for ch in nudge)


#: The fact IDs the detectors give; each must fire in some teaching position and stay silent in another.
FACT_IDS = {"frozen-pack", "pair-needed", "top-blocks", "one-card-pile", "stock-empty", "initial-minimum", "pack-size",
            "goes-out", "concealed", "concealed-chance", "canasta", "ask-binds", "partner-hand", "answer-points",
            "stop-three", "freezes", "safe-discard", "keeps-pairs", "could-go-out", "opponent-short",
            "wild-for-minimum"}


def test_every_detector_fires_and_stays_silent_somewhere():
    fires: set[str] = set()
    silent: set[str] = set()
    for p in FILES:
        t = p.read_text()
        fires |= _header(t, "fires")
        silent |= _header(t, "silent")
    assert FACT_IDS <= fires, FACT_IDS - fires
    assert FACT_IDS <= silent, FACT_IDS - silent
