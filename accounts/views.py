"""Sign-up and the cashier."""

from __future__ import annotations

import uuid
from dataclasses import replace

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.forms import SignUpForm
from accounts.language import said
from accounts.ledger import LedgerError
from accounts.models import User
from accounts.money import format_cents
from accounts.selectors import (
    bankroll_balance,
    bankroll_statement,
    chips_by_table,
    reload_offer,
    table_chips,
)
from accounts.services import bankroll_reload, user_create
from games.words import sentence_of


def signup(request: HttpRequest) -> HttpResponse:
    """A new player: an account, a bankroll with the grant, and logged in."""
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = user_create(
            username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
        )
        if email := form.cleaned_data.get("email"):
            user.email = email
            user.save(update_fields=["email"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome! Your bankroll holds the play-money grant."))
        return redirect("cashier")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def cashier(request: HttpRequest) -> HttpResponse:
    """The bankroll, the chips on tables, the bankroll's transfers, and the reload offer."""
    user: User = request.user  # type: ignore[assignment]
    offer = reload_offer(user=user, now=timezone.now())
    return render(
        request,
        "accounts/cashier.html",
        {
            "balance": bankroll_balance(user=user),
            # Shown because the reload counts them: chips on a table are the player's money.
            "on_tables": table_chips(user=user),
            "on_tables_by_table": chips_by_table(user=user),
            "statement": bankroll_statement(user=user),
            # The reason is a sentence of the rules (games.words): said in the page's language.
            "offer": replace(offer, reason=said(offer.reason)) if offer.reason else offer,
            "request_id": uuid.uuid4().hex,
        },
    )


@login_required
@require_POST
def reload(request: HttpRequest) -> HttpResponse:
    """Reload the bankroll to the grant (once per form: a double submit reloads once)."""
    user: User = request.user  # type: ignore[assignment]
    request_id = request.POST.get("request_id", "")
    if not request_id or len(request_id) > 64:
        messages.error(request, _("The reload form was incomplete; please try again."))
        return redirect("cashier")
    try:
        transfer = bankroll_reload(user=user, request_id=request_id)
    except LedgerError as error:
        # Translators: %(reason)s is why, such as "one reload an hour: the next in 12 minutes".
        reason = _("No reload: %(reason)s.") % {"reason": said(sentence_of(error))}
        messages.error(request, reason)
    else:
        added = format_cents(transfer.amount)
        messages.success(request, _("Reloaded: %(amount)s added.") % {"amount": added})
    return redirect("cashier")
