"""Every table of the cardroom's database, one module a context (Django's app is ``cardroom``).

The tables, seats, hands, events, journal and operator log (``tables``), the players' limits and
exclusions (``responsible``), staff notes about players (``notes``), the wait lists
(``waitlist``), the table chat (``chat``) and the sit-and-go tournaments (``tournaments``). They
sit at the bottom of the cardroom's layers (docs/architecture.md): every context reads them;
they import none of them.
"""

from cardroom.models.chat import ChatBan, ChatLine, ChatMute
from cardroom.models.fairplay import FairPlayKind, FairPlaySignal
from cardroom.models.notes import PlayerNote
from cardroom.models.responsible import Exclusion, LimitChange, PlayerLimits
from cardroom.models.tables import (
    ApiToken,
    Game,
    Hand,
    HandEvent,
    OperatorAction,
    OperatorActionKind,
    Round,
    Seat,
    Table,
    TableAction,
    TableStatus,
)
from cardroom.models.tournaments import Entry, EntryStatus, Tournament, TournamentStatus
from cardroom.models.waitlist import WaitingPlayer

__all__ = [
    "ApiToken",
    "ChatBan",
    "ChatLine",
    "ChatMute",
    "Entry",
    "EntryStatus",
    "Exclusion",
    "FairPlayKind",
    "FairPlaySignal",
    "Game",
    "Hand",
    "HandEvent",
    "LimitChange",
    "OperatorAction",
    "OperatorActionKind",
    "PlayerLimits",
    "PlayerNote",
    "Round",
    "Seat",
    "Table",
    "TableAction",
    "TableStatus",
    "Tournament",
    "TournamentStatus",
    "WaitingPlayer",
]
