"""When two seat names count as the same: the key under which a room's names are unique.

Two names that read alike are one name, so nobody can sit down as a look-alike of another player:
case does not count (casefold), nor compatibility forms (NFKC: fullwidth "ＡＤＡ" is "ADA"), nor a
letter written as base plus combining accent rather than precomposed, nor characters that show
nothing (Unicode's default-ignorable code points: zero-width spaces and joiners, variation
selectors, Hangul fillers), nor runs of spaces. Letters of other scripts that look like Latin ones
(Cyrillic "а") are still other names.
"""

import unicodedata

NAME_KEY_LENGTH = 64  # the column's length: a name whose key is longer cannot be stored

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), as ranges
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def is_default_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def name_key(name: str) -> str:
    """The form of `name` that decides whether it is taken: what it shows, case and width aside."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join("".join(c for c in folded if not is_default_ignorable(c)).split())
