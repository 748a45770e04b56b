"""Hand-written SQL that both the ledger and the table runtime write with: the batched writes
(``writes``), each PostgreSQL connection's prepared statements (``prepared``) and their values'
quoting (``literals``).

They live in accounts, the lower of the two apps, because the ledger needs them and accounts
imports nothing of the cardroom; the cardroom's runtime imports them from here.
"""
