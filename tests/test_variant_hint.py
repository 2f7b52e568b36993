"""The hint's facts in every variant, over seeded hands: no fact cites a rule the variant replaces, every rule
cited is in the rule book, and the sentences read right (an 8, an ace; 1 card).  Samba's own facts have
their tests in ``test_samba_hint.py``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from canasta_tutor.notation.actions import format_action
from canasta_tutor.bots.rules_of_thumb import decide
from canasta_tutor.engine.cards import a_kind
from canasta_tutor.engine.game import Game
from canasta_tutor.hint.detectors import move_facts
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import parse_position

RULEBOOK = Path(__file__).resolve().parent.parent / "seeds" / "rules.md"

#: the classic rules each variant replaces, as the rule book says ("replaces", "in place of")
REPLACED = {
    "two-handed": {"R-OUT-1", "R-CONC-1"},  # two canastas to go out (R-TWO-5)
    "three-handed": set(),  # one canasta is still enough (R-THREE-2)
    "six-handed": {"R-OUT-1", "R-CONC-1", "R-RED-4"},  # R-SIX-4, R-SIX-5
    "italian": {"R-OUT-1", "R-CONC-1", "R-RED-4", "R-SCORE-1", "R-PACK-2"},  # R-ITAL-8, -9; always frozen
    # R-SAMBA-6, -7, -9: the pair and the meld of the pack, two canastas, no concealed bonus
    "samba": {"R-PACK-4", "R-PACK-2", "R-OUT-1", "R-CONC-1", "R-CONC-3", "R-SCORE-1"},
}
#: what a sentence must never say: "a 8", "a ace", "1 cards"
MISREAD = re.compile(r"\ba (8|ace)\b|\b1 cards\b")
#: per variant: the seeds swept, every how many decisions, the facts the sweep must reach, and the rule that
#: going out cites (None: the sweep meets no go-out)
SWEEPS = {
    "two-handed": (range(1, 7), 3, {"goes-out", "keeps-pairs", "safe-discard"}, "R-TWO-5"),
    "three-handed": (range(1, 7), 3, {"goes-out", "keeps-pairs", "safe-discard"}, "R-OUT-1"),
    "six-handed": (range(1, 7), 3, {"goes-out", "keeps-pairs", "safe-discard"}, "R-SIX-4"),
    # Italian Canasta's pile is always frozen (R-ITAL-4): no discard is safe from a take with a meld
    "italian": (range(1, 7), 3, {"goes-out", "keeps-pairs"}, "R-ITAL-8"),
    "samba": ((4, 11), 5, {"safe-discard", "initial-minimum"}, None),
}


def _sweep(variant: str, seeds: Iterable[int], every: int) -> dict[str, set[str]]:
    """Every fact of every legal move at every ``every``-th decision of seeded rules-of-thumb hands: its id and
    the rules it cites."""
    found: dict[str, set[str]] = {}
    for seed in seeds:
        state = Game(variant=variant).new_initial_state(seed=seed)
        step = 0
        while state.deal_no < 1 and state.phase not in ("hand_over", "game_over"):
            assert state.actor is not None
            obs = observe(state, state.actor)
            if step % every == 0:
                for action in obs.legal_actions:
                    for f in move_facts(obs, action):
                        cited = set(re.findall(r"R-[A-Z]+-\d+", f.text)) | ({f.rule} if f.rule else set())
                        where = (variant, seed, step, format_action(action), f.text)
                        assert not MISREAD.search(f.text), where
                        assert not cited & REPLACED[variant], where
                        found.setdefault(f.id, set()).update(cited)
            state.apply(decide(obs)[0])
            step += 1
    return found


@pytest.mark.parametrize("variant", sorted(SWEEPS))
def test_no_replaced_rule_is_cited(variant: str) -> None:
    seeds, every, reached, out_rule = SWEEPS[variant]
    book = set(re.findall(r"\*\*(R-[A-Z]+-\d+)\*\*", RULEBOOK.read_text()))
    found = _sweep(variant, seeds, every)
    cited = set().union(*found.values())
    assert cited <= book, cited - book
    assert reached <= set(found)  # the sweep reached these facts
    if out_rule is not None:
        assert out_rule in found["goes-out"]


TWO_OUT = """
variant: two-handed
turn: S meld
pile: 4C 6D
N: 15
S: 5D
melds S: KS KC KD KH KS KC KD (natural canasta); QS QH QD QC QS QH QD (natural canasta)
melds N: 7S 7S 7D
"""

SIX_OUT = """
variant: six-handed
turn: S meld
pile: 4C 6D
N: 12
E: 11
P: 13
S: 5D
W: 10
Q: 13
melds NS: KS KC KD KH KS KC KD (natural canasta); QS QH QD QC QS QH QD (natural canasta)
melds EW: 7S 7S 7D
"""


@pytest.mark.parametrize(("text", "words", "rule"), [(TWO_OUT, "you have", "R-TWO-5"),
                                                      (SIX_OUT, "your side has", "R-SIX-4")])
def test_going_out_with_two_canastas_R_TWO_5_R_SIX_4(text: str, words: str, rule: str) -> None:
    """Going out needs two canastas in two- and six-handed play (R-TWO-5, R-SIX-4): the fact cites the
    variant's rule, not the one canasta of R-OUT-1; alone, "you have"; with a partner, "your side has"."""
    state = parse_position(text)
    assert state.actor is not None
    facts = {f.id: f for f in move_facts(observe(state, state.actor), ("discard", 1))}
    assert facts["goes-out"].text == (f"This goes out: +100 for going out, and {words} the two canastas going "
                                      f"out needs ({rule}, R-SCORE-1).")
    assert facts["goes-out"].rule == rule


def test_articles_and_plurals() -> None:
    """The card names take their article (an 8, an ace) and a one-card pile is "1 card"."""
    assert [a_kind(k) for k in (3, 4, 9, 10)] == ["a 7", "an 8", "a king", "an ace"]
