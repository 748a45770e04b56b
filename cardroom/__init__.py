"""The Django project and the main app: tables, seats, rounds, hands and the table runtime."""
