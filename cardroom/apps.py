from django.apps import AppConfig


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = "Cardroom"

    def ready(self) -> None:
        from cardroom.audit import roles
        from cardroom.responsible import checks

        roles.connect()
        checks.connect()
