"""Strings sorted as JavaScript's ``localeCompare`` sorts them (ICU's root
collation, which Node's default locale uses), for digests that Node tools compute
over sorted paths (npx skills' computedHash). Punctuation first, in ICU's order, then
digits, then letters, case and accents told apart only where all else is equal
(``_x`` < ``-y`` < ``1`` < ``a`` < ``A`` < ``a_b`` < ``b`` < ``é`` < ``f``). Outside
ASCII, a character sorts after the letters by its code point, its accents
removed: close to ICU for the Latin scripts paths use, not exact beyond them."""

from __future__ import annotations

import unicodedata

# ICU root (CLDR) primary order of ASCII: whitespace, punctuation and symbols, digits,
# letters (case folded).
ORDER = (
    "\t\n\v\f\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"
)
_WEIGHT = {c: i for i, c in enumerate(ORDER)}


def locale_key(
    text: str,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], str]:
    """A sort key: base characters, then accents, then case (lower first), then the
    code points (so that no two strings tie)."""
    decomposed = unicodedata.normalize("NFD", text)
    bases = [c for c in decomposed if not unicodedata.combining(c)]
    primary = tuple(_WEIGHT.get(c.lower(), len(ORDER) + ord(c.lower())) for c in bases)
    # ICU's secondary weights: a common one for each base character, each accent's
    # own after it, compared position by position.
    accents = tuple(ord(c) if unicodedata.combining(c) else 0 for c in decomposed)
    case = tuple(int(c != c.lower()) for c in bases)
    return primary, accents, case, text
