"""URLs of the cardroom."""

from django.contrib import admin
from django.urls import include, path

from cardroom import views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/hands/<int:number>/", views.hand_page, name="hand"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
]
