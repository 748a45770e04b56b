"""Players and their money: users, bankrolls, the cashier and the double-entry ledger."""
