"""ASGI entry point: HTTP through Django, WebSockets through Channels.

WebSockets wait for the actions in hand, then pass the allowed-hosts origin check and
Channels' session authentication.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
django_asgi_app = get_asgi_application()

from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from cardroom.heap import settle_heap  # noqa: E402
from cardroom.realtime.admission import HandshakeAdmission  # noqa: E402
from cardroom.realtime.auth import session_and_token_auth  # noqa: E402  (needs Django set up)
from cardroom.realtime.broadcast import ServerLoop  # noqa: E402
from cardroom.routing import websocket_urlpatterns  # noqa: E402
from games.guts.showdown import warm  # noqa: E402

# The games' evaluators, built as the server starts (about a tenth of a second) rather than in
# its first showdown, and before the heap is settled, so they are among what it keeps.
warm()
# The channel layer (its module and, with Redis, redis-py's client) and the session engine, made
# now rather than by the first socket: when a restarted server's players all reconnect, the
# first handshakes would otherwise wait for those imports.
get_channel_layer()
import_module(settings.SESSION_ENGINE)

if "twisted.internet.reactor" in sys.modules:
    # Under daphne: each frame goes to its socket at once (cardroom/realtime/socket_writes.py),
    # and a connection's options and a frame's values are formatted for autobahn's debug log
    # only if it is written (cardroom/realtime/handshake_log.py, cardroom/realtime/frame_log.py).
    from cardroom.realtime import frame_log, handshake_log, socket_writes

    socket_writes.install()
    handshake_log.install()
    frame_log.install()

if settings.CARDROOM_CLOCK_IN_PROCESS:
    # The embedded default runs the clock inside the server process (docs/architecture.md).
    import atexit

    from cardroom.clock.clock import ClockThread

    _clock = ClockThread()
    _clock.start()
    atexit.register(_clock.stop)
    # Under daphne, stop the clock as the server begins to stop (SIGTERM, Ctrl-C), so it
    # applies nothing more while the process winds down.
    if (reactor := sys.modules.get("twisted.internet.reactor")) is not None:
        # No waiting here: this runs on the event loop; each timeout is its own transaction,
        # so a sweep stopped between two of them leaves nothing half done.
        reactor.addSystemEventTrigger("before", "shutdown", _clock.stop)

application = ServerLoop(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # Actions in hand first, then new sockets (cardroom/realtime/admission.py).
            "websocket": HandshakeAdmission(
                AllowedHostsOriginValidator(
                    session_and_token_auth(URLRouter(websocket_urlpatterns))
                )
            ),
        }
    )
)

# Last: everything the server holds from here on lives as long as it does (cardroom/heap.py).
settle_heap()
