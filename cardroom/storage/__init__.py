"""The cardroom's hand-written reads, below everything that reads them: the rows every action
reads (``rows``: the table with its open hand, the seats with their players and limits), a
hand's payments as the ledger recorded them (``payments``). The SQL helpers they share with the
ledger are in accounts/sql/.
"""
