"""A player's figures over a period (docs/statistics.md): hands, net by game and table, and
each game's own measures, summed by the database.

- Hands played: the hands the player was dealt into (cardroom/stats/hands.py), counted at the
  deal; their time decides whether they are in the period.
- Net: the ledger's transfers of play into and out of the player's stacks
  (cardroom/stats/money.py), counted at the transfer's time.
- Guts (every variant): of the hands dealt in, those the player declared In (any choice but
  Out: In, High, Low or both), and of those, the ones where they took money from the pot.
- Chinese Poker: the units the player won or paid, pair by pair, before the table's caps.
- Three Card Poker: what the player staked and got back, bet by bet, against the exact
  expected result of the same bets under each table's pay tables
  (games/three_card_poker/odds.py).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import BigIntegerField, Count, Q, QuerySet, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils.translation import gettext

from accounts.models import AccountKind, User
from cardroom.models import Game, HandEvent, Table
from cardroom.stats.hands import at_seat, of_player, player_deals
from cardroom.stats.money import net_by_table
from cardroom.stats.numbers import percent, rounded_cents, signed_hundredths
from cardroom.stats.period import Period
from cardroom.stats.series import Series, balance_series
from cardroom.stats.sessions import Sessions, player_sessions
from cardroom.stats.tournaments import TournamentFigures, tournament_figures
from cardroom.tables.engines import engine_for
from games.three_card_poker.config import TableConfig
from games.three_card_poker.odds import exact_odds

__all__ = [
    "ChinesePokerFigures",
    "GameResult",
    "GutsFigures",
    "PlayerStats",
    "TableResult",
    "ThreeCardPokerFigures",
    "expected_result",
    "player_stats",
]

GUTS_GAMES = (Game.GUTS, Game.CLASSIC_GUTS)
#: Events in which a Guts player took money from the pot, and the field naming their seat.
GUTS_WINS = (("pot_won", "seat"), ("seat_paid", "payee"))
#: Three Card Poker's bets, as its result events name them (``<bet>_<outcome>``).
TCP_BETS = ("ante", "play", "pair_plus")
TCP_OUTCOMES = ("won", "returned", "lost")
#: A bonus paid on the Ante: money back, but no stake of its own.
TCP_BONUS = "ante_bonus_won"


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table the player played at: hands dealt to them there and their net, in cents."""

    table_id: int
    name: str
    game: str
    hands: int
    net: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """The player's tables of one game added up; ``label`` is the game's name."""

    game: str
    label: str
    tables: int
    hands: int
    net: int


@dataclass(frozen=True, slots=True)
class GutsFigures:
    """Hands dealt in, hands the player declared In, and hands they won when In."""

    hands: int = 0
    went_in: int = 0
    won_in: int = 0

    @property
    def in_percent(self) -> str:
        return percent(self.went_in, self.hands)

    @property
    def won_percent(self) -> str:
        return percent(self.won_in, self.went_in)


@dataclass(frozen=True, slots=True)
class ChinesePokerFigures:
    """Hands dealt in and the units won (negative: paid) over them, before any cap."""

    hands: int = 0
    units: int = 0

    @property
    def per_hand(self) -> Fraction:
        return Fraction(self.units, self.hands) if self.hands else Fraction(0)

    @property
    def per_hand_text(self) -> str:
        """Units per hand to two decimals, signed.

        >>> ChinesePokerFigures(hands=3, units=-2).per_hand_text
        '−0.67'
        """
        return signed_hundredths(self.per_hand)


@dataclass(frozen=True, slots=True)
class ThreeCardPokerFigures:
    """The player's bets against the house, in cents.

    ``staked``: per bet (ante, play, pair_plus), the money put on it; ``returned``: everything
    the house paid back (stakes of bets won or returned, winnings, Ante bonuses); ``expected``:
    the exact expected result of the bets made (module docstring of cardroom/stats/player.py).
    """

    hands: int = 0
    staked: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TCP_BETS, 0))
    returned: int = 0
    expected: Fraction = Fraction(0)

    @property
    def wagered(self) -> int:
        return sum(self.staked.values())

    @property
    def result(self) -> int:
        """What the bets won (negative: lost): returned minus wagered."""
        return self.returned - self.wagered

    @property
    def expected_cents(self) -> int:
        return rounded_cents(self.expected)

    @property
    def luck(self) -> int:
        """The result above (negative: below) the expected result, to the cent."""
        return rounded_cents(self.result - self.expected)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Everything the statistics page shows for one player and period."""

    period: Period
    hands: int
    net: int
    by_game: list[GameResult]
    by_table: list[TableResult]
    guts: GutsFigures
    chinese_poker: ChinesePokerFigures
    three_card_poker: ThreeCardPokerFigures
    sessions: Sessions
    bankroll: Series
    holdings: Series
    tournaments: TournamentFigures


def player_stats(*, user: User, period: Period) -> PlayerStats:
    """The player's figures over ``period`` (module docstring)."""
    deals = player_deals(user=user, period=period)
    hands_at = {
        row["table_id"]: row["hands"]
        for row in deals.values("table_id").annotate(hands=Count("hand", distinct=True))
    }
    nets = net_by_table(user=user, period=period)
    tables = Table.objects.filter(pk__in=set(hands_at) | set(nets)).only("name", "game")
    by_table = sorted(
        (
            TableResult(t.pk, t.name, t.game, hands_at.get(t.pk, 0), nets.get(t.pk, 0))
            for t in tables
        ),
        key=lambda row: (-row.hands, row.table_id),
    )

    def played(*games: str) -> tuple[QuerySet[HandEvent], int]:
        """The deals at tables of ``games``, and their hands (a hand is at one table)."""
        ids = [row.table_id for row in by_table if row.game in games and row.hands]
        return deals.filter(table_id__in=ids), sum(hands_at.get(pk, 0) for pk in ids)

    return PlayerStats(
        period=period,
        hands=sum(hands_at.values()),
        net=sum(nets.values()),
        by_game=_by_game(by_table),
        by_table=by_table,
        guts=_guts(*played(*GUTS_GAMES)),
        chinese_poker=_chinese_poker(*played(Game.CHINESE_POKER)),
        three_card_poker=_three_card_poker(*played(Game.THREE_CARD_POKER)),
        sessions=player_sessions(user=user, period=period),
        bankroll=balance_series(user=user, period=period),
        holdings=balance_series(
            user=user,
            period=period,
            kinds=(AccountKind.BANKROLL, AccountKind.STACK),
            label=gettext("Bankroll and chips on tables"),
        ),
        tournaments=tournament_figures(user=user, period=period),
    )


def _by_game(rows: list[TableResult]) -> list[GameResult]:
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in rows:
        entry = totals[row.game]
        entry[0] += 1
        entry[1] += row.hands
        entry[2] += row.net
    labels = dict(Game.choices)
    return [
        GameResult(game, str(labels.get(game, game)), tables, hands, net)
        for game, (tables, hands, net) in sorted(totals.items(), key=lambda item: -item[1][1])
    ]


def _guts(deals: QuerySet[HandEvent], hands: int) -> GutsFigures:
    if not hands:
        return GutsFigures()
    declared_in = HandEvent.objects.filter(type="declared").exclude(data__choice="out")
    (pot, pot_seat), (paid, paid_seat) = GUTS_WINS
    figures = deals.annotate(
        declared_in=at_seat(declared_in),
        took_pot=at_seat(HandEvent.objects.filter(type=pot), seat=pot_seat),
        was_paid=at_seat(HandEvent.objects.filter(type=paid), seat=paid_seat),
    ).aggregate(
        went_in=Count("hand", distinct=True, filter=Q(declared_in=True)),
        won_in=Count(
            "hand",
            distinct=True,
            filter=Q(declared_in=True) & (Q(took_pot=True) | Q(was_paid=True)),
        ),
    )
    return GutsFigures(hands=hands, went_in=figures["went_in"], won_in=figures["won_in"])


def _chinese_poker(deals: QuerySet[HandEvent], hands: int) -> ChinesePokerFigures:
    if not hands:
        return ChinesePokerFigures()
    pairs = HandEvent.objects.filter(type="pair_scored")
    total = Cast(KT("data__total"), BigIntegerField())
    won = of_player(pairs, deals, seat="first").aggregate(units=Sum(total))["units"] or 0
    paid = of_player(pairs, deals, seat="second").aggregate(units=Sum(total))["units"] or 0
    return ChinesePokerFigures(hands=hands, units=int(won) - int(paid))


def _three_card_poker(deals: QuerySet[HandEvent], hands: int) -> ThreeCardPokerFigures:
    if not hands:
        return ThreeCardPokerFigures()
    types = [f"{bet}_{outcome}" for bet in TCP_BETS for outcome in TCP_OUTCOMES]
    results = of_player(HandEvent.objects.filter(type__in=[*types, TCP_BONUS]), deals)
    rows = results.values("table_id", "type").annotate(
        stake=Sum(Cast(KT("data__stake"), BigIntegerField())),
        paid=Sum(Cast(KT("data__paid"), BigIntegerField())),
    )
    staked = dict.fromkeys(TCP_BETS, 0)
    per_table: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(TCP_BETS, 0))
    returned = 0
    for row in rows:
        returned += int(row["paid"] or 0)
        if row["type"] == TCP_BONUS:
            continue
        bet = row["type"].rsplit("_", 1)[0]
        staked[bet] += int(row["stake"] or 0)
        per_table[row["table_id"]][bet] += int(row["stake"] or 0)
    configs = Table.objects.filter(pk__in=per_table).only("preset", "config")
    expected = sum((expected_result(table, per_table[table.pk]) for table in configs), Fraction(0))
    return ThreeCardPokerFigures(hands=hands, staked=staked, returned=returned, expected=expected)


def expected_result(table: Table, staked: dict[str, int]) -> Fraction:
    """The exact expected result (cents, negative: a loss) of bets at a Three Card Poker table.

    Each Ante is worth minus the house edge of Ante and Play under the best strategy (the Play
    bet it leads to is part of that figure, so Play stakes add nothing of their own); each
    Pair Plus bet minus the Pair Plus house edge; both under the table's pay tables.
    """
    config = engine_for(Game.THREE_CARD_POKER).make_config(table.preset, table.config)
    assert isinstance(config, TableConfig)  # the engine of Three Card Poker tables
    tables = config.pay_tables
    odds = exact_odds(tables.ante_bonus, tables.pair_plus)
    return -(
        staked.get("ante", 0) * odds.ante_play_house_edge
        + staked.get("pair_plus", 0) * odds.pair_plus_house_edge
    )
