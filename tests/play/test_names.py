"""Players' names are counted in the characters a reader sees (graphemes), not in code points: a family emoji
(five code points joined by zero-width joiners), a flag (two regional indicators) or e + a combining accent is
one character. Only real control characters are refused, and a refusal says whose name it is."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hotdice.game.refusals import Code, Refused
from hotdice.game.rules import Rules
from hotdice.play.modes import solo, together
from hotdice.play.names import MAX_NAME, MAX_NAME_CODE_POINTS, clean_name
from hotdice.store import NAME_LENGTH

# Each of these is one character on screen, written with the number of code points beside it.
ONE_CHARACTER = [
    ("\N{WOMAN}\N{ZERO WIDTH JOINER}\N{WOMAN}\N{ZERO WIDTH JOINER}\N{GIRL}", 5),  # 👩‍👩‍👧
    ("\N{REGIONAL INDICATOR SYMBOL LETTER F}\N{REGIONAL INDICATOR SYMBOL LETTER R}", 2),  # 🇫🇷
    ("e\N{COMBINING ACUTE ACCENT}", 2),  # é
    ("\N{THUMBS UP SIGN}\N{EMOJI MODIFIER FITZPATRICK TYPE-4}", 2),  # 👍🏽
    ("\N{HEAVY BLACK HEART}\N{VARIATION SELECTOR-16}", 2),  # ❤️
    ("\u1100\u1161\u11a8", 3),  # 각 in conjoining jamo
    ("Z", 1),
]
CONTROLS = [chr(c) for c in [*range(0x00, 0x20), *range(0x7F, 0xA0)] if not chr(c).isspace()]


def test_the_characters_are_what_they_say() -> None:
    for text, points in ONE_CHARACTER:
        assert len(text) == points
    assert all(unicodedata.category(c) == "Cc" for c in CONTROLS) and "\x1b" in CONTROLS


@given(st.lists(st.sampled_from([text for text, _ in ONE_CHARACTER]), min_size=1, max_size=MAX_NAME))
def test_a_name_of_at_most_24_characters_is_kept_as_written(characters: list[str]) -> None:
    name = "".join(characters)
    assert clean_name(name) == name


@given(
    st.lists(st.sampled_from([text for text, _ in ONE_CHARACTER]), min_size=MAX_NAME + 1, max_size=40),
    st.integers(1, 8),
)
def test_a_name_of_25_characters_is_refused_and_says_whose(characters: list[str], seat: int) -> None:
    with pytest.raises(Refused) as refused:
        clean_name("".join(characters), seat)
    assert refused.value.refusal.code is Code.NAME_TOO_LONG
    assert refused.value.refusal.values["seat"] == seat and refused.value.refusal.values["max"] == MAX_NAME


@given(
    st.text(st.characters(exclude_categories=("Cc", "Cs")), min_size=1, max_size=10),
    st.sampled_from(CONTROLS),
    st.integers(0, 10),
)
def test_a_control_character_anywhere_is_refused(text: str, control: str, at: int) -> None:
    name = text[:at] + control + text[at:] + "x"
    with pytest.raises(Refused) as refused:
        clean_name(name, 3)
    refusal = refused.value.refusal
    assert refusal.code is Code.NAME_CONTROL and refusal.values["seat"] == 3
    assert refusal.values["character"] == f"U+{ord(control):04X}" and control not in refusal.values["name"]


def test_joiners_and_format_characters_are_not_controls() -> None:
    for name in ["Ann\N{ZERO WIDTH JOINER}e", "Bob\N{ZERO WIDTH NON-JOINER}", "Zoë\N{SOFT HYPHEN}"]:
        assert clean_name(name) == name


def test_spaces_are_trimmed_and_joined_and_a_blank_name_says_whose() -> None:
    assert clean_name("  Ann \t Lee \n") == "Ann Lee"
    with pytest.raises(Refused) as refused:
        together(Rules.parse("farkle"), ["Ann", "Bob", " \t "])
    assert refused.value.refusal.code is Code.NO_NAME and refused.value.refusal.values == {"seat": 3}


def test_marks_piled_on_letters_cannot_pass_what_storage_keeps() -> None:
    assert MAX_NAME_CODE_POINTS == NAME_LENGTH
    heavy = ("a" + "\N{COMBINING ACUTE ACCENT}" * 20) * 10  # ten characters, 210 code points
    with pytest.raises(Refused) as refused:
        clean_name(heavy)
    assert refused.value.refusal.code is Code.NAME_TOO_LONG


def test_the_modes_take_the_names_and_say_which_one_is_wrong() -> None:
    family = ONE_CHARACTER[0][0]
    assert solo(Rules.parse("farkle"), f"{family} Smith").game.players == (f"{family} Smith",)
    with pytest.raises(Refused) as refused:
        together(Rules.parse("farkle"), ["Ann", family * 25])
    assert refused.value.refusal.values["seat"] == 2
    assert str(refused.value) == f"player 2's name '{family * 25}' is longer than 24 characters"
