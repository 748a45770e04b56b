from django.apps import AppConfig


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = "Cardroom"
