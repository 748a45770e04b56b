"""The seat wait list of full tables (docs/waitlist.md)."""
