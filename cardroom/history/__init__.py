"""What happened at a table, read back: a hand's history as one viewer may read it
(``history``), its openings verified against the deck commitment (``verification``), the
visual replayer and the words of its steps (``replayer``, ``replay_events``), the exports and
the past-hands pages (``export``, ``past_hands``), and the journal audit that replays a
table's recorded actions against its stored state (``journal_audit``; not the replayer).
"""
