from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and ledger"

    def ready(self) -> None:
        from accounts import login_sessions

        login_sessions.connect()
