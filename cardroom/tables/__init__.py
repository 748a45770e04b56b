"""The live tables: the runtime that changes them, the clock, the sockets and their protocol,
the snapshots pushed with each version, presence, hand histories and the journal's replay."""
