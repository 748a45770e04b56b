"""A URL that raises, for the server error page's test."""

from django.urls import path


def _broken(request):
    raise RuntimeError("a deliberate failure")


urlpatterns = [path("broken/", _broken)]
