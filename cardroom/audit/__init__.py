"""What auditors read: the rake report, the hand audit and the ledger audit (the admin's
pages; cardroom/admin.py registers them), and the staff roles that open the admin (``roles``)."""
