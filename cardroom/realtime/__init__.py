"""The sockets of the live tables: the consumers and their JSON protocol, the handshake's
login (session or API token) and admission, the per-table action queue, the versions pushed
after each commit (broadcast) and the channel layers that carry them, and each process's
freshness round over its own sockets. It calls the table runtime (cardroom/tables/); the
runtime knows nothing of sockets: it hands each committed version to the hook that
``broadcast.send_version`` is plugged into (cardroom/tables/announce.py).
"""
