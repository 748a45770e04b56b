"""The console's chat log: every table's lines, filtered by table and by player, newest first,
a page at a time; and a player's chat muted room-wide or unmuted (cardroom/operators/chat.py).

For operators only (the ``cardroom.operate_tables`` permission), as the rest of the console.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy
from django.views.decorators.http import require_POST

from accounts.language import said
from accounts.models import User
from cardroom.chat import ban_in_force
from cardroom.models import ChatBan, Table
from cardroom.operators.chat import MUTE_HOURS, chat_ban, chat_lines, chat_unban
from cardroom.operators.views import operator_only
from games.words import sentence_of

__all__ = ["chat_log_page", "chat_mute", "chat_unmute"]

#: Lines on one page of the log.
PER_PAGE = 50


def _hours_label(hours: int) -> str:
    if hours % 24 == 0:
        days = hours // 24
        return str(ngettext_lazy("%(count)s day", "%(count)s days", days) % {"count": days})
    return str(ngettext_lazy("%(count)s hour", "%(count)s hours", hours) % {"count": hours})


class ChatMuteForm(forms.Form):
    hours = forms.TypedChoiceField(label=gettext_lazy("For"), coerce=int, choices=(), initial=24)
    reason = forms.CharField(label=gettext_lazy("Why"), max_length=500)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["hours"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(hours, _hours_label(hours)) for hours in MUTE_HOURS]


class ChatUnmuteForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why"), max_length=500)


@operator_only
def chat_log_page(request: HttpRequest) -> HttpResponse:
    """The chat log: ``?table=<id>`` and ``?player=<name>`` filter it; ``?page=`` pages it."""
    table_id = request.GET.get("table", "")
    table = Table.objects.filter(pk=int(table_id)).first() if table_id.isdigit() else None
    player = request.GET.get("player", "").strip()[:150]
    lines = chat_lines(table_id=table.pk if table else None, player=player)
    page = Paginator(lines, PER_PAGE).get_page(request.GET.get("page"))
    now = timezone.now()
    named = _player(player)
    context = {
        "page": page,
        "tables": Table.objects.filter(chat__isnull=False).distinct().order_by("id"),
        "table": table,
        "player": player,
        "named": named,
        "named_ban": ban_in_force(user_id=named.pk, now=now) if named else None,
        "mute_form": ChatMuteForm(auto_id="mute_%s"),
        "unmute_form": ChatUnmuteForm(auto_id="unmute_%s"),
        "bans": ChatBan.objects.filter(lifted__isnull=True, until__gt=now).select_related(
            "user", "by"
        ),
        "query": request.GET.urlencode(),
    }
    return render(request, "operators/chat_log.html", context)


def _player(name: str) -> User | None:
    if not name:
        return None
    return (
        User.objects.filter(username__iexact=name).first()
        or User.objects.filter(display_name__iexact=name).first()
    )


def _back(request: HttpRequest) -> HttpResponse:
    """To the log as it was filtered (a path on this site only)."""
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect("operators-chat")


@operator_only
@require_POST
def chat_mute(request: HttpRequest, user_id: int) -> HttpResponse:
    """Mute a player's chat at every table for a while; logged."""
    user = get_object_or_404(User, pk=user_id)
    form = ChatMuteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why and for how long the chat is muted."))
        return _back(request)
    actor: User = request.user  # type: ignore[assignment]
    try:
        ban = chat_ban(
            actor=actor,
            user=user,
            hours=form.cleaned_data["hours"],
            reason=form.cleaned_data["reason"],
            now=timezone.now(),
        )
    except ValueError as error:
        messages.error(request, said(sentence_of(error)))
        return _back(request)
    messages.success(
        request,
        _("%(player)s's chat is muted at every table until %(until)s UTC.")
        % {"player": user.public_name, "until": f"{ban.until:%Y-%m-%d %H:%M}"},
    )
    return _back(request)


@operator_only
@require_POST
def chat_unmute(request: HttpRequest, user_id: int) -> HttpResponse:
    """Lift a player's room-wide chat mute; logged."""
    user = get_object_or_404(User, pk=user_id)
    form = ChatUnmuteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why the chat is unmuted."))
        return _back(request)
    actor: User = request.user  # type: ignore[assignment]
    try:
        chat_unban(actor=actor, user=user, reason=form.cleaned_data["reason"], now=timezone.now())
    except ValueError as error:
        messages.error(request, said(sentence_of(error)))
        return _back(request)
    messages.success(request, _("%(player)s may chat again.") % {"player": user.public_name})
    return _back(request)
