"""Statements sent to PostgreSQL in one pipeline, driven through libpq (``psycopg.pq``).

Hand-made because psycopg's cursors, statement by statement, were most of what a batch cost
the sending process's CPU (docs/performance.md, "One send a batch"): here there is no cursor,
and psycopg's own pieces do all the rest: its conversion of a statement and its values (with
the adapters of the context given: accounts/sql/bound.py's bigint dumper and timestamp
loader), its manager of prepared statements (so that psycopg's own ``DEALLOCATE ALL`` after a
rollback covers these too), its loaders, and its errors.

The contract (``run``): the statements are sent in order, in one send, and end with one sync;
each gives its rows ([] for one that returns none); the first error is raised once every
result has been read, as psycopg's pipeline raises it, and the connection is left out of
pipeline mode; one cut short before its results were read is closed instead. On a connection in
a transaction psycopg would begin (not in autocommit, no transaction yet), the transaction's
``BEGIN`` goes first in the same send.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from psycopg import errors, pq
from psycopg._preparing import Prepare
from psycopg._queries import PostgresQuery
from psycopg.adapt import Transformer
from psycopg.waiting import Ready, Wait

__all__ = ["run"]

Rows = list[tuple[Any, ...]]

_SYNC = pq.ExecStatus.PIPELINE_SYNC
_FATAL = pq.ExecStatus.FATAL_ERROR
_ABORTED = pq.ExecStatus.PIPELINE_ABORTED
_TUPLES = pq.ExecStatus.TUPLES_OK
_IDLE = pq.TransactionStatus.IDLE

#: What one command sent expects back: None for a command whose result is only checked (the
#: BEGIN, a statement's preparation); else the statement's place and what the prepared
#: statements' manager asks to be told of its result (None: nothing).
Expected = tuple[int, tuple[Any, Any, bytes] | None] | None


def run(
    raw: Any,
    context: Any,
    statements: Sequence[tuple[str, Sequence[Any] | None]],
    *,
    rows: bool = True,
) -> list[Rows]:
    """Each statement's rows, in order, from one round trip on the psycopg connection ``raw``
    (with ``rows`` False, none are read: each gives []); ``context`` (a cursor of ``raw``)
    gives the adapters. A statement given None for its values is sent as it is, never prepared
    (``BEGIN``, ``COMMIT``). Values that cannot be sent raise before anything is sent."""
    pgconn = raw.pgconn
    with raw.lock:
        raw._check_connection_ok()
        transformer = Transformer(context)
        queries = [_converted(transformer, sql, values) for sql, values in statements]
        expected: list[Expected] = []
        pgconn.enter_pipeline_mode()
        try:
            _send(raw, pgconn, queries, expected)
            pgconn.pipeline_sync()
            results = raw.wait(_flushed_and_read(pgconn))
        except BaseException:
            # The connection broke, or the wait was cut short: leave pipeline mode if libpq
            # can; if results are left unread, close the connection, so that no later pipeline
            # reads them as its own (its next use fails, and Django replaces it).
            try:
                pgconn.exit_pipeline_mode()
            except errors.Error:
                raw.close()
            raise
        pgconn.exit_pipeline_mode()
        found = _checked(raw, transformer if rows else None, expected, results, len(statements))
        if raw._prepared._to_flush:  # statements the manager let go of: deallocated its way
            raw.wait(raw._prepared.maintain_gen(raw))
    return found


def _converted(transformer: Any, sql: str, values: Sequence[Any] | None) -> tuple[Any, bool]:
    """The statement and its values as psycopg sends them; whether it is to be prepared."""
    query = PostgresQuery(transformer)
    query.convert(sql, values)
    return query, values is not None


def _send(raw: Any, pgconn: Any, queries: list[tuple[Any, bool]], expected: list[Expected]) -> None:
    manager = raw._prepared
    if not raw.autocommit and pgconn.transaction_status == _IDLE:
        pgconn.send_query_params(raw._get_tx_start_command(), None)
        expected.append(None)
    for place, (query, prepared) in enumerate(queries):
        if not prepared:
            pgconn.send_query_params(query.query, None)
            expected.append((place, None))
            continue
        prepare, name = manager.get(query, True)
        if prepare is Prepare.SHOULD:
            pgconn.send_prepare(name, query.query, param_types=query.types)
            expected.append(None)
        pgconn.send_query_prepared(name, query.params, param_formats=query.formats)
        key = manager.maybe_add_to_cache(query, prepare, name)
        expected.append((place, None if key is None else (key, prepare, name)))


def _flushed_and_read(pgconn: Any) -> Generator[Wait, Ready, list[list[Any]]]:
    """Send what libpq holds, then read each command's results up to the sync."""
    while pgconn.flush():  # more to send: the socket was full
        ready = yield Wait.RW
        if ready & Ready.R:
            pgconn.consume_input()  # the server may be waiting for room to answer
    results: list[list[Any]] = []
    current: list[Any] = []
    while True:
        while pgconn.is_busy():
            yield Wait.R
            pgconn.consume_input()
        result = pgconn.get_result()
        if result is None:  # the end of one command's results
            results.append(current)
            current = []
        elif result.status == _SYNC:
            return results
        else:
            current.append(result)


def _checked(
    raw: Any, transformer: Any, expected: list[Expected], results: list[list[Any]], count: int
) -> list[Rows]:
    found: list[Rows] = [[] for _ in range(count)]
    error: Exception | None = None
    for wanted, got in zip(expected, results, strict=True):
        if wanted is not None and wanted[1] is not None:
            raw._prepared.validate(*wanted[1], got)
        for result in got:
            if result.status == _FATAL:
                error = error or errors.error_from_result(result, encoding=raw.info.encoding)
            elif result.status == _ABORTED:
                error = error or errors.PipelineAborted("pipeline aborted")
            elif result.status == _TUPLES and wanted is not None and transformer is not None:
                transformer.set_pgresult(result)
                found[wanted[0]] = transformer.load_rows(0, result.ntuples, tuple)
    if error is not None:
        raise error
    return found
