"""The clock: the loop that applies every due timeout and runs the presence, responsible-gaming,
wait-list and bot sweeps (``clock.ClockThread``), in each server process or alone
(``manage.py runclock``); and the house bots it drives (``bots``)."""
