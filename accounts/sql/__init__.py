"""Hand-written SQL that both the ledger and the table runtime write with: the batched writes
(``writes``) and the cursors that bind, prepare and pipeline them on PostgreSQL (``bound``).

They live in accounts, the lower of the two apps, because the ledger needs them and accounts
imports nothing of the cardroom; the cardroom's runtime imports them from here.
"""
