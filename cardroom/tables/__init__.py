"""The live tables: the runtime that changes them, the game engines, the snapshots pushed with
each version (with the log of recent hands) and the runtime's hand-written reads and writes."""
