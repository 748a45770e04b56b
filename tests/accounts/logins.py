"""Logging a test client in through the login form, from an address and a browser."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse


def log_in(client: Client, user, address: str = "10.0.0.1", agent: str = "Firefox") -> None:
    response = client.post(
        reverse("login"),
        {"username": user.username, "password": f"pw-{user.username}"},
        REMOTE_ADDR=address,
        HTTP_USER_AGENT=agent,
    )
    assert response.status_code == 302
