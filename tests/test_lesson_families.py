"""The first lesson of the Samba family (lessons/families/samba-family.toml: Samba's sequence and samba, Bolivia's
melds of wild cards and the escalera going out needs, in Chile too; R-SAMBA-3, R-BOL-1, R-BOL-2, R-BOL-5, R-BOL-9):
the checker passes it, every level is played to its goal by its solution, and the classic course is unchanged.
"""

from __future__ import annotations

from pathlib import Path

from canasta_tutor.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "lessons" / "families" / "samba-family.toml"


def test_the_samba_family_lesson_passes_the_checker(capsys) -> None:
    """``canasta-tutor lesson check`` replays every solution and wrong line through the engine."""
    assert main(["lesson", "check", str(LESSON)]) == 0
    assert "4 levels checked" in capsys.readouterr().out


def test_the_lesson_plays_each_variant_of_the_family() -> None:
    text = LESSON.read_text(encoding="utf-8")
    for name in ("samba", "bolivia", "chile"):
        assert f"variant: {name}" in text
    for rule in ("R-SAMBA-3", "R-BOL-1", "R-BOL-2", "R-BOL-5", "R-BOL-9"):
        assert rule in text


def test_the_classic_course_is_the_twelve_lessons() -> None:
    """The family lesson sits beside the course, not in it: the course is still its twelve classic lessons."""
    assert len(sorted((ROOT / "lessons").glob("*.toml"))) == 12
