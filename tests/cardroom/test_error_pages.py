"""Errors in the site's look and in words (templates/403.html, 404.html, 500.html)."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import Client

from accounts.services import user_create

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_explained_with_a_way_back(client):
    client.force_login(user_create(username="pat"))
    response = client.get("/tables/999999/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "This page is not here" in page
    assert 'href="/lobby/"' in page
    assert 'class="topbar"' in page


def test_a_player_opening_the_operators_console_is_told_why_not(client):
    client.force_login(user_create(username="pat"))
    response = client.get("/operators/")
    assert response.status_code == 403
    assert "You may not open this page" in response.content.decode()


def test_the_server_error_page_needs_no_request_and_says_nothing_is_lost(settings):
    page = render_to_string("500.html")
    assert "Something went wrong on our side" in page
    assert "Nothing you had at a table is lost" in page


def test_a_server_error_shows_the_page(settings):
    settings.ROOT_URLCONF = "tests.cardroom.broken_urls"
    response = Client(raise_request_exception=False).get("/broken/")
    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()


def test_the_icon_is_named_on_pages_and_found_at_the_usual_address(client):
    assert 'rel="icon"' in client.get("/").content.decode()
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("img/favicon.svg")
