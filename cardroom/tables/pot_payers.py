"""Who a carried pot goes back to, from the ledger (games/guts/pot_return.py says when).

The game's state knows how much the pot and reserve hold, not who put it there: the ledger
does. The pot's payers are read from the table's transfers into and out of its pot and reserve
since they were last empty together; a void's reversals and what they reversed are left out,
as if neither had happened, and a return to a payer (antes given back) takes back what it
returned. The pot is then shared in proportion to what each paid: whole cents, each the floor
of their share, and the cents left over one each to the largest remainders (the earliest payer
first among equal ones), so the shares add up to the pot exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db.models import Q

from accounts.models import Account, AccountKind, Transfer, TransferKind, User

__all__ = ["pot_payers", "pot_returns", "shares_of"]

#: Transfers out of the pot that give a payer back what they paid (not winnings).
_GIVEN_BACK = (TransferKind.REFUND, TransferKind.POT_RETURN)


def pot_payers(table_id: int) -> dict[int, int]:
    """What each user (by id) paid into the table's pot and reserve since they were last
    empty, in the order they first paid."""
    pool = set(
        Account.objects.filter(
            table_id=table_id, kind__in=(AccountKind.POT, AccountKind.RESERVE)
        ).values_list("id", flat=True)
    )
    if not pool:
        return {}
    rows = list(
        Transfer.objects.filter(table_id=table_id)
        .filter(Q(source_id__in=pool) | Q(target_id__in=pool))
        .order_by("id")
        .values_list("id", "source_id", "target_id", "amount", "kind", "idempotency_key",
                     "source__user_id", "target__user_id")
    )  # fmt: skip
    voided = {
        int(key.partition(":")[2])
        for _, _, _, _, kind, key, _, _ in rows
        if kind == TransferKind.VOID and key.startswith("void:") and key[5:].isdigit()
    }
    balance = 0
    paid: dict[int, int] = {}
    for pk, source, target, amount, kind, _, payer, payee in rows:
        if kind == TransferKind.VOID or pk in voided or (source in pool and target in pool):
            continue
        if target in pool:
            balance += amount
            if payer is not None:
                paid[payer] = paid.get(payer, 0) + amount
            continue
        balance -= amount
        if kind in _GIVEN_BACK and payee in paid:
            paid[payee] -= min(amount, paid[payee])
        if balance <= 0:  # empty: what was paid before belongs to hands already settled
            balance = 0
            paid.clear()
    return {user: amount for user, amount in paid.items() if amount > 0}


def shares_of(total: int, paid: Mapping[int, int]) -> dict[int, int]:
    """``total`` cents shared in proportion to ``paid``, to the cent (see the module).

    >>> shares_of(75, {7: 25, 8: 25, 9: 25})
    {7: 25, 8: 25, 9: 25}
    >>> shares_of(100, {7: 25, 8: 25, 9: 25})
    {7: 34, 8: 33, 9: 33}
    >>> shares_of(10, {})
    {}
    """
    whole = sum(paid.values())
    if whole <= 0 or total <= 0:
        return {}
    floors = {user: total * amount // whole for user, amount in paid.items()}
    left = total - sum(floors.values())
    order = list(paid)  # the earliest payer first among equal remainders
    ranked = sorted(order, key=lambda user: (-(total * paid[user] % whole), order.index(user)))
    for user in ranked[:left]:
        floors[user] += 1
    return {user: amount for user, amount in floors.items() if amount > 0}


def pot_returns(
    table_id: int, total: int, seated: Mapping[int, User], names: Mapping[int, str], seats: int
) -> tuple[list[dict[str, object]], dict[int, User]]:
    """The ``returns`` of a ``return_pot`` action for ``total`` cents, and the users the
    runtime must know for its places: a seated payer (``seated``: seat -> user; ``names``:
    seat -> the name the game knows them by) gets their share on their stack, one who has left
    in their bankroll, named by a number past the table's ``seats``. With no payer on record,
    the seated players share it equally."""
    shares = shares_of(total, pot_payers(table_id))
    if not shares and seated:
        count = len(seated)
        order = sorted(seated)
        shares = {
            seated[seat].pk: total // count + (1 if index < total % count else 0)
            for index, seat in enumerate(order)
        }
    seat_of = {user.pk: seat for seat, user in seated.items()}
    away = _users(user for user in shares if user not in seat_of)
    returns: list[dict[str, object]] = []
    extra: dict[int, User] = {}
    for user_id, amount in shares.items():
        if amount <= 0:
            continue
        if user_id in seat_of:
            seat = seat_of[user_id]
            returns.append({"place": f"stack:{seat}", "player": names[seat], "amount": amount})
            continue
        number = seats + len(extra)
        extra[number] = away[user_id]
        returns.append(
            {"place": f"bankroll:{number}", "player": away[user_id].public_name, "amount": amount}
        )
    return returns, extra


def _users(ids: Iterable[int]) -> dict[int, User]:
    wanted = list(ids)
    return {user.pk: user for user in User.objects.filter(pk__in=wanted)} if wanted else {}
