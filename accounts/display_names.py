"""Display names: the name other players see, and what it may not pass for.

A display name is 3 to 24 characters: letters A to Z, digits, spaces and ``. _ -``, with at
least one letter. Whatever the case, spacing or punctuation, it may not read as a card
(``10h``, ``Ace of spades``), a seat (``Seat 3``, ``S3``, ``Empty``) or a staff or house role
(``Dealer``, ``admin_1``, ``The House``, ``adm1n``); and no two people share one, nor may one
be someone else's username. Letters outside A to Z are refused so that no name can borrow
another alphabet's look-alike of a staff name.

>>> check_display_name("  Lucky   Lou ")
'Lucky Lou'
>>> [reads_as(name) for name in ("10h", "Ace of spades", "Seat 3", "S3", "the_House", "4dm1n")]
['card', 'card', 'seat', 'seat', 'role', 'role']
>>> [reads_as(name) for name in ("Housecat", "Theo", "Ashley", "Kings Row", "Seattle")]
[None, None, None, None, None]
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

__all__ = ["MAX_LENGTH", "MIN_LENGTH", "check_display_name", "name_taken", "reads_as"]

MIN_LENGTH, MAX_LENGTH = 3, 24
ALLOWED = re.compile(r"[A-Za-z0-9 ._-]+")

#: Staff and house roles, as a name would spell them (a plural "s" is also caught).
ROLES = frozenset(
    {
        "operator",
        "admin",
        "administrator",
        "dealer",
        "croupier",
        "house",
        "auditor",
        "support",
        "staff",
        "moderator",
        "cardroom",
    }
)
_ROLE_WORDS = ROLES | {role + "s" for role in ROLES}
#: Words that may stand around a role without making it a name: "The House", "Support Team".
ROLE_FILLERS = frozenset({"the", "team", "official", "real", "desk", "cardroom"})

_RANK_SHORT = r"(?:10|[2-9tjqka])"
_RANK_WORD = r"(?:ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two|deuce)"
_SUIT_WORD = r"(?:clubs?|diamonds?|hearts?|spades?)"
_CARD_PATTERNS = (
    # "As", "10h", "KdQd": every character is part of a card.
    re.compile(rf"(?:{_RANK_SHORT}[cdhs])+"),
    # "K of hearts", "Queen Hearts", "The Ace of Spades".
    re.compile(rf"(?:the)?(?:{_RANK_WORD}|{_RANK_SHORT})(?:of)?{_SUIT_WORD}"),
)
#: A card named in full anywhere in the name: "AceOfSpades99".
_CARD_INSIDE = re.compile(rf"{_RANK_WORD}of{_SUIT_WORD}")
_NUMBER_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten)"
_SEAT_PATTERNS = (
    re.compile(rf"(?:seat|s)(?:no|number)?(?:\d+|{_NUMBER_WORD})"),
    re.compile(r"(?:the)?(?:seat|empty|emptyseat|openseat|freeseat|vacant|vacantseat)"),
)
_SEAT_INSIDE = re.compile(r"seat\d")
#: Digits written for letters: "adm1n", "h0use", "5upport" (1 is tried as i and as l).
_LEET = (str.maketrans("0134578@", "oieastba"), str.maketrans("0134578@", "oleastba"))


def check_display_name(value: str) -> str:
    """The name tidied (trimmed, single spaces), or ValidationError saying what is wrong.

    Uniqueness needs the database: see :func:`name_taken`.
    """
    name = " ".join(value.split())
    if not ALLOWED.fullmatch(name):
        raise ValidationError(
            _("Use only letters A to Z, digits, spaces, dots, dashes and underscores."),
            code="characters",
        )
    what = reads_as(name)
    if what is not None:
        raise ValidationError(
            str(_WHAT[what]),
            code=f"looks_like_{what}",
        )
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise ValidationError(
            _("A display name is %(least)s to %(most)s characters long.")
            % {"least": MIN_LENGTH, "most": MAX_LENGTH},
            code="length",
        )
    if not any(character.isalpha() for character in name):
        raise ValidationError(_("A display name needs at least one letter."), code="letters")
    return name


#: Why a name that reads as something else is refused, by what it reads as.
_WHAT = {
    "card": gettext_lazy("That name could be taken for a card; please choose another."),
    "seat": gettext_lazy(
        "That name could be taken for a seat at the table; please choose another."
    ),
    "role": gettext_lazy(
        "That name could be taken for the staff or the house; please choose another."
    ),
}


def reads_as(name: str) -> str | None:
    """``"card"``, ``"seat"`` or ``"role"`` if the name could pass for one, else None."""
    compact = re.sub(r"[^a-z0-9]", "", name.lower())
    if any(pattern.fullmatch(compact) for pattern in _CARD_PATTERNS) or _CARD_INSIDE.search(
        compact
    ):
        return "card"
    if any(pattern.fullmatch(compact) for pattern in _SEAT_PATTERNS) or _SEAT_INSIDE.search(
        compact
    ):
        return "seat"
    if any(_is_role(candidate) for candidate in _role_candidates(name)):
        return "role"
    return None


def _role_candidates(name: str) -> set[str]:
    """The ways a name can be read as words: whole, by its parts, and with digits as letters."""
    chunks = [chunk for chunk in re.split(r"[^A-Za-z0-9]+", name) if chunk]
    candidates = {"".join(chunks).lower(), re.sub(r"[^a-z]", "", name.lower())}
    for chunk in chunks:
        candidates.add(chunk.lower())
        # camelCase parts ("TheHouse"), and digits around a word ("admin1", "99dealer").
        for part in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", chunk):
            candidates.add(part.lower())
        candidates.add(chunk.strip("0123456789").lower())
    for candidate in list(candidates):
        for table in _LEET:
            candidates.add(candidate.translate(table))
    candidates.discard("")
    return candidates


def _is_role(word: str) -> bool:
    """The word is made only of roles and their fillers, with at least one role."""
    if word in _ROLE_WORDS:
        return True
    for end in range(1, len(word)):
        head, rest = word[:end], word[end:]
        if head in _ROLE_WORDS and (_is_role(rest) or rest in ROLE_FILLERS):
            return True
        if head in ROLE_FILLERS and _is_role(rest):
            return True
    return False


def name_taken(name: str, *, user_id: int | None = None) -> bool:
    """Another user already shows this name: as their display name or as their username."""
    from accounts.models import User

    others = User.objects.exclude(pk=user_id) if user_id is not None else User.objects.all()
    return others.filter(Q(display_name__iexact=name) | Q(username__iexact=name)).exists()
