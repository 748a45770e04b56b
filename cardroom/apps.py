from django.apps import AppConfig


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = "Cardroom"

    def ready(self) -> None:
        from cardroom import roles

        roles.connect()
