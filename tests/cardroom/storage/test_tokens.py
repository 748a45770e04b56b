"""The tokens still usable, read by hand-written SQL for many at once, are those the ORM's
query found, on both databases: not revoked, not run out, their user active."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from cardroom.models import ApiToken
from cardroom.realtime.auth import token_create
from cardroom.storage.tokens import tokens_usable


def by_the_orm(ids: set[int]) -> set[tuple[int, int]]:
    """The query the sockets' login checks made before (cardroom/realtime/logins.py)."""
    return set(
        ApiToken.objects.filter(
            Q(expires__isnull=True) | Q(expires__gt=timezone.now()),
            pk__in=ids,
            revoked__isnull=True,
            user__is_active=True,
        ).values_list("pk", "user_id")
    )


def made(user: User, **fields: object) -> int:
    token_create(user=user)
    pk: int = ApiToken.objects.latest("pk").pk
    ApiToken.objects.filter(pk=pk).update(**fields)
    return pk


@pytest.mark.django_db
def test_the_usable_tokens_are_the_orms() -> None:
    now = timezone.now()
    ann, ben = user_create(username="ann"), user_create(username="ben")
    usable = made(ann)
    for_an_hour = made(ann, expires=now + timedelta(hours=1))
    made(ann, expires=now - timedelta(seconds=1))  # ran out
    made(ann, revoked=now)
    made(ben)  # of a user no longer active:
    User.objects.filter(pk=ben.pk).update(is_active=False)
    ids = set(ApiToken.objects.values_list("pk", flat=True))
    found = tokens_usable(ids | {max(ids) + 1}, timezone.now())  # with one that never was
    assert found == by_the_orm(ids)
    assert found == {(usable, ann.pk), (for_an_hour, ann.pk)}
    assert tokens_usable(set(), now) == set()
    assert tokens_usable({for_an_hour}, now) == {(for_an_hour, ann.pk)}
