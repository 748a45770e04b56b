"""Statistics: a player's results from the ledger and the hand histories, and each table's
pace for the operators (docs/statistics.md).

Every figure is summed by the database (a player with a hundred thousand hands is never loaded
into Python), every amount is integer cents, and the charts are SVG drawn on the server.
"""
