"""The staff roles: membership of Auditors is what opens the admin.

Django's admin asks for ``is_staff`` as well as a permission, so a user added to Auditors could
not open the audit pages until someone also ticked "staff status", a step nobody remembers.
Staff status here follows the roles: joining a role grants it; leaving the last role takes it
away again, unless the user is a superuser.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models.signals import m2m_changed

__all__ = ["STAFF_ROLES", "connect"]

#: The groups (made by cardroom/migrations/0003_operator_actions.py) that make a user staff.
#: Operators are not among them: their console is outside the admin, which holds the money.
STAFF_ROLES = ("Auditors",)


def _follow_roles(users: Any) -> None:
    for user in users:
        in_role = user.groups.filter(name__in=STAFF_ROLES).exists()
        if user.is_superuser and not in_role:
            continue
        # The row, not the instance: the instance in hand may predate the last change.
        type(user).objects.filter(pk=user.pk).update(is_staff=in_role)
        user.is_staff = in_role


def _groups_changed(
    sender: Any, instance: Any, action: str, reverse: bool, pk_set: Any, **_: Any
) -> None:
    # Only a change of a role moves staff status: a staff flag set by hand on someone outside
    # the roles is left alone when other groups change (and a clear() names no group).
    if action not in ("post_add", "post_remove") or not pk_set:
        return
    user_model = get_user_model()
    if isinstance(instance, Group):
        if instance.name in STAFF_ROLES:
            _follow_roles(user_model.objects.filter(pk__in=pk_set))
    elif Group.objects.filter(pk__in=pk_set, name__in=STAFF_ROLES).exists():
        _follow_roles([instance])


def connect() -> None:
    """Called once from the app's ``ready``."""
    through = get_user_model().groups.through
    m2m_changed.connect(_groups_changed, sender=through, dispatch_uid="cardroom.roles")
