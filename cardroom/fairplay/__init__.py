"""Fair play signals (docs/fair-play.md): the daily report's two searches and its storage.

``shared`` finds two players seated at one table at the same time whose logins came from the
same address or browser; ``flows`` finds money running one way between two players over
several days; ``report`` runs both for a day and keeps what they found as
:class:`~cardroom.models.FairPlaySignal` rows, once per kind, day and pair. The console's page
(``views``) lists them for review. Each is a lead for an operator, never a verdict.
"""
