"""The console's fair play pages, under /operators/fair-play/ (cardroom/urls.py)."""

from django.urls import path

from cardroom.fairplay import views

urlpatterns = [
    path("", views.fair_play_page, name="operators-fair-play"),
    path("<int:signal_id>/review/", views.fair_play_review, name="operators-fair-play-review"),
]
