"""Every page a player or an operator uses, on a 390 px phone: no serious or critical
accessibility violation (axe-core), and nothing wider than the screen, in every language (the
Spanish and Norwegian words are longer than the English)."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import Permission
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.services import user_create
from cardroom.models import Hand
from cardroom.tables.runtime import table_act, table_create
from tests.cardroom.driving import play_to_declare, run_clock
from tests.conftest import totp_code
from tests.e2e.accessibility import PHONE, overflow, serious_violations
from tests.e2e.players import PASSWORD, WAIT_MS
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GAMES = [
    ("guts", "survivor", {"ante": 100}),
    ("classic_guts", "three_five_seven", {"ante": 100}),
    ("chinese_poker", "unit-1", {}),
    ("three_card_poker", "standard", {}),
]

#: No htmx request in flight (htmx marks the element that sent one until its answer is in).
SETTLED = "() => !document.querySelector('.htmx-request')"
#: A table page's socket has sent its opening fragments (the state, then the chat's lines):
#: counted on every page from its first script on.
COUNT_FRAGMENTS = """document.addEventListener("htmx:wsAfterMessage",
  () => { window.fragmentsIn = (window.fragmentsIn || 0) + 1; });"""
OPENED = "() => (window.fragmentsIn || 0) >= 2"


def log_in(browser, url: str, name: str, device=None, language: str = "en"):
    context = browser.new_context(viewport=PHONE)
    # The header's switcher remembers a choice in this cookie (docs/languages.md).
    context.add_cookies([{"name": "django_language", "value": language, "url": url}])
    page = context.new_page()
    page.add_init_script(COUNT_FRAGMENTS)
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda address: "/accounts/login/" not in address, timeout=WAIT_MS)
    if device is not None:
        # Staff give their second factor before the console opens (accounts/two_factor.py).
        page.goto(f"{url}/operators/")
        page.fill("input[name=code]", totp_code(device))
        page.click("form.two-factor-code button[type=submit]")
        page.wait_for_url(lambda address: "/two-factor/" not in address, timeout=WAIT_MS)
    return page


@pytest.mark.parametrize("language", ["en", "es", "nb"])
def test_the_pages_fit_a_phone_and_pass_axe(browser, language):
    ann, ben = (user_create(username=name, password=PASSWORD) for name in ("ann", "ben"))
    user_create(username="sam", password=PASSWORD)
    olga = user_create(username="olga", password=PASSWORD)
    # A transactional test's database is flushed between tests, which removes the groups the
    # migrations made (permissions are made again): give the operator the console's permission.
    olga.user_permissions.add(Permission.objects.get(codename="operate_tables"))
    olga_app = TOTPDevice.objects.create(user=olga, name="app", confirmed=True)
    tables = [
        table_create(game=game, preset=preset, options=options, name=f"A11y {preset}")
        for game, preset, options in GAMES
    ]
    survivor = tables[0]
    for player in (ann, ben):
        table_act(table_id=survivor.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    play_to_declare(survivor, [ann, ben])
    run_clock(survivor)  # nobody declares: both hands are mucked and the hand ends
    hand = Hand.objects.get(table=survivor, number=1)
    assert hand.ended is not None
    # The 3-5-7 table in its declare: the stage, its direction and wild cards are drawn.
    staged = tables[1]
    for player in (ann, ben):
        table_act(table_id=staged.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    for _ in range(5):
        staged.refresh_from_db()
        if staged.state["phase"] == "declare":
            break
        run_clock(staged)
    assert staged.state["phase"] == "declare"

    pages = {
        "ann": ["/", "/lobby/", "/accounts/cashier/", "/how-to-play/"]
        + [f"/tables/{table.pk}/" for table in tables]
        + [f"/tables/{survivor.pk}/hands/1/", f"/tables/{survivor.pk}/hands/1/replay/"]
        + ["/accounts/", "/accounts/limits/", "/accounts/stats/", "/tables/hands/mine/"],
        # A spectator at a table where a hand is in play: no cards of hers, the seat offer.
        "sam": [f"/tables/{staged.pk}/"],
        "olga": [
            "/operators/",
            f"/operators/tables/{survivor.pk}/",
            f"/operators/tables/{survivor.pk}/stats/",
            "/operators/log/",
        ],
    }
    problems: dict[str, object] = {}
    with live_server("e2e-a11y") as url:
        for name, paths in pages.items():
            page = log_in(browser, url, name, olga_app if name == "olga" else None, language)
            for path in paths:
                page.goto(f"{url}{path}")  # to its load event: htmx has sent what it loads
                # Its fragments swapped in (waiting for the network to idle cost 0.5 s a page).
                page.wait_for_function(SETTLED, timeout=WAIT_MS)
                if re.fullmatch(r"/tables/\d+/", path):
                    page.wait_for_function(OPENED, timeout=WAIT_MS)
                assert page.get_attribute("html", "lang") == language, path
                assert "/two-factor/" not in page.url, page.url
                if wider := overflow(page):
                    problems[f"{path} is {wider}px wider than a phone"] = True
                if found := serious_violations(page):
                    problems[path] = found
    assert not problems, "\n" + json.dumps(problems, indent=1)
