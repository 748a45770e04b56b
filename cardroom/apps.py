from django.apps import AppConfig


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = "Cardroom"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from cardroom.audit import roles
        from cardroom.responsible import checks
        from cardroom.storage.timestamps import use_compiled_loader

        roles.connect()
        checks.connect()
        connection_created.connect(use_compiled_loader, dispatch_uid="cardroom-timestamps")
