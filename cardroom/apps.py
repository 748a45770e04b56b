from django.apps import AppConfig


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = "Cardroom"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from cardroom.audit import roles
        from cardroom.realtime.broadcast import send_version
        from cardroom.responsible import checks
        from cardroom.storage.timestamps import use_compiled_loader
        from cardroom.tables import announce

        roles.connect()
        checks.connect()
        # Every process sends the versions it commits (servers, runclock, commands, tests).
        announce.plug(send_version)
        connection_created.connect(use_compiled_loader, dispatch_uid="cardroom-timestamps")
