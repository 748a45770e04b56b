"""The admin: users, accounts, transfers (read-only: money is never edited) and audits."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.audit import ledger_audit
from accounts.models import Account, LedgerAudit, Transfer, User
from accounts.money import format_cents


@admin.register(User)
class CardroomUserAdmin(UserAdmin):  # type: ignore[type-arg]
    list_display = ("username", "is_bot", "is_staff", "date_joined", "last_login")
    list_filter = ("is_bot", "is_staff", "groups")
    fieldsets = (*(UserAdmin.fieldsets or ()), (gettext_lazy("Cardroom"), {"fields": ("is_bot",)}))


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Nothing about money can be added, changed or deleted through the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("code", "kind", "user", "table_id", "balance_shown", "created")
    list_filter = ("kind",)
    search_fields = ("code", "user__username")

    @admin.display(description=gettext_lazy("balance"), ordering="balance")
    def balance_shown(self, account: Account) -> str:
        return format_cents(account.balance)


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "created",
        "kind",
        "source",
        "target",
        "amount_shown",
        "table_id",
        "hand_id",
    )
    list_filter = ("kind", "table_id", ("created", admin.DateFieldListFilter))
    search_fields = ("source__user__username", "target__user__username", "idempotency_key", "memo")
    date_hierarchy = "created"
    list_select_related = ("source", "target")

    @admin.display(description=gettext_lazy("amount"), ordering="amount")
    def amount_shown(self, transfer: Transfer) -> str:
        return format_cents(transfer.amount)

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        """The list, with the count and total of the transfers it shows."""
        response = super().changelist_view(request, extra_context)
        if isinstance(response, TemplateResponse) and response.context_data:
            changelist = response.context_data.get("cl")
            if changelist is not None:
                totals = changelist.queryset.aggregate(count=Count("id"), total=Sum("amount"))
                response.context_data["transfer_totals"] = {
                    "count": totals["count"],
                    "total": format_cents(totals["total"] or 0),
                }
        return response


@admin.register(LedgerAudit)
class LedgerAuditAdmin(ReadOnlyAdmin):
    """The audits, the last one's status on top, and a button to run one now."""

    list_display = ("created", "ok", "accounts", "transfers", "total_balance", "actor")
    list_filter = ("ok",)

    def get_urls(self) -> list[URLPattern]:
        run = self.admin_site.admin_view(require_POST(self.run_view))
        return [path("run/", run, name="accounts_ledgeraudit_run"), *super().get_urls()]

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        extra = {**(extra_context or {}), "last_audit": LedgerAudit.objects.first()}
        return super().changelist_view(request, extra)

    def run_view(self, request: HttpRequest) -> HttpResponse:
        """Run the ledger audit now; it only reads the ledger and records its result."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        audit = ledger_audit(actor=request.user.get_username())
        if audit.ok:
            done = _("Ledger OK: %(count)s accounts balance to zero.")
            messages.success(request, done % {"count": audit.accounts})
        else:
            wrong = _("Ledger MISMATCH: %(count)s accounts differ.")
            messages.error(request, wrong % {"count": len(audit.mismatches)})
        return redirect("admin:accounts_ledgeraudit_changelist")
