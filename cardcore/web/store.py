"""What a server keeps across a restart: its tables and their journals, in
SQLite (the standard library's), WAL mode, one synced transaction for the
moves that arrive together (group commit: ``Store.append``).

A table's row holds what it was opened with (game, seats, options, house
rules, names), its seed, the *hashes* of its seat links (a link is its
bearer's secret: the file does not hold it), its watch link (public) and its
log file. Its journal holds, in order, each match's seed and every move
played (``move_to_json``), each committed before the move is applied: a move
is durable when it is applied. ``cardcore serve`` started again over the same
file replays each open table's journal through the engine and goes on where
it was, with the same links; its JSON-lines log is written anew from the
journal (the log stays the export and replay format).

The file and its ``-wal``/``-shm`` companions are made mode 0600: the host's
machine is trusted (whoever reads the file can deal every hand of a seed it
holds), nobody else.

One server per store: ``StoreLock`` holds an exclusive ``flock`` on
``<file>.lock`` (beside it, holding the server's pid) from before the store is
opened until the server exits; a second server over the same file is refused.
A store is checked when opened (``PRAGMA quick_check``, on a read-only
connection: a broken file is refused and left as it is). Its rows are read one
table at a time (``open_tables``: a row that is not JSON is reported, left out
and left as it is). Whatever SQLite refuses while the server runs (the disk
full, the file gone read-only) is a ``StoreError``: the table that could not
be saved stops and says so in words, and is kept (resumed at the next start
from its last saved move).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from cardcore.errors import CardcoreError
from cardcore.i18n import T, Text
from cardcore.text import one_line

R = TypeVar("R")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS journal (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


def token_hash(token: str) -> str:
    """How a seat's link is kept: its SHA-256 (the link itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class StoreError(CardcoreError):
    """The store cannot be used (another server holds it, the file is broken)
    or cannot save (the disk full): said in words, the tables it holds kept."""


def fault(err: BaseException) -> Text:
    """What a store's fault means, in plain words (the disk full said so)."""
    code = getattr(err, "sqlite_errorcode", None)
    full = code == sqlite3.SQLITE_FULL or getattr(err, "errno", None) == errno.ENOSPC
    if full or "disk is full" in str(err) or "No space left" in str(err):
        return T("the disk is full")
    return T("its database fails ({error})", error=one_line(str(err), 120))


def saving(what: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """``what(*args, **kwargs)`` (a write to the store), a ``sqlite3`` (or
    file) error raised as a ``StoreError`` that says in words that the server
    cannot save."""
    try:
        return what(*args, **kwargs)
    except (sqlite3.Error, OSError) as err:
        raise StoreError(T("the server cannot save its tables: {why}", why=fault(err))) from None


def reading(what: Callable[..., R], *args: Any) -> R:
    """``what(*args)`` (a read of the store), a ``sqlite3`` error raised as a
    ``StoreError`` that says the store cannot be read."""
    try:
        return what(*args)
    except sqlite3.Error as err:
        raise StoreError(T("the server cannot read its tables: {why}", why=fault(err))) from None


class StoreLock:
    """One server per store: an exclusive ``flock`` on ``<store>.lock``
    (beside the store, holding the pid of the server that holds it), taken
    before the store is opened and released when the server exits (or dies:
    the kernel releases it). The file itself stays (removing it would let two
    servers lock two different files of the same name)."""

    def __init__(self, store: Path) -> None:
        self.path = Path(f"{store}.lock")
        store.parent.mkdir(parents=True, exist_ok=True)
        with _private_files():
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            held = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            if err.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            raise StoreError(
                T(
                    "{folder}: another server (pid {pid}) serves the tables kept here ({path}); "
                    "stop it first, or give this one another --log-dir",
                    folder=store.parent,
                    pid=held if held.isdigit() else "?",
                    path=store,
                )
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self.fd: int | None = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # the lock goes with it
            self.fd = None


def check(path: Path) -> None:
    """Refuse a broken store (``StoreError``), read only: nothing is written to it.
    A file not there yet, or empty, is a new store."""
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        with _private_files():
            db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        try:
            found = db.execute("PRAGMA quick_check").fetchall()
        finally:
            db.close()
    except sqlite3.OperationalError:
        raise  # cannot be opened (its folder's rights, …): said so by whoever opens it
    except sqlite3.DatabaseError as err:  # not a database, or a malformed one
        found = [(str(err),)]
    if found != [("ok",)]:
        first = one_line(str(found[0][0]) if found and found[0] else "?", 160)
        raise StoreError(
            T(
                "{path}: the server's state is broken ({problem}); it is left as it is "
                "(move it away to start with no tables, or give another --state)",
                path=path,
                problem=first,
            )
        )


@contextlib.contextmanager
def _private_files() -> Iterator[None]:
    old = os.umask(0o077)  # the database and its -wal / -shm files: the owner's only
    try:
        yield
    finally:
        os.umask(old)


class _Entry:
    """A journal entry on its way to the disk (``Store.append``)."""

    __slots__ = ("done", "error", "table_id", "text")

    def __init__(self, table_id: str, text: str) -> None:
        self.table_id = table_id
        self.text = text
        self.done = False
        self.error: StoreError | None = None


class Store:
    """One server's tables and journals (see the module's docstring). A
    ``sqlite3`` error of any method is raised as a ``StoreError`` (``saving``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        check(path)  # a broken file: refused before anything is written to it
        with _private_files():
            os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
            os.chmod(path, 0o600)
            self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")  # each commit on disk before it returns
            self.db.executescript(SCHEMA)
        for extra in ("-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.chmod(f"{path}{extra}", 0o600)
        self._lock = threading.Lock()
        self._next: dict[str, int] = {}
        # group commit (``append``): the entries waiting, whether a thread is writing
        self._waiting = threading.Condition()
        self._pending: list[_Entry] = []
        self._writing = False

    def add_table(self, table_id: str, data: dict[str, Any]) -> None:
        def add() -> None:
            self.db.execute(
                "INSERT OR REPLACE INTO tables (id, data) VALUES (?, ?)", (table_id, json.dumps(data))
            )

        with self._lock:
            saving(add)
            self._next[table_id] = 0

    def update_table(self, table_id: str, **changes: Any) -> None:
        """Change some fields of a table's row (a seat taken from the lobby:
        its link's hash, its name, the seats claimed), its journal untouched."""

        def update() -> None:
            row = self.db.execute("SELECT data FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return
            try:
                data = {**json.loads(row[0]), **changes}
            except (ValueError, TypeError):
                return  # a broken row is left as it is (``open_tables`` reports it)
            self.db.execute("UPDATE tables SET data = ? WHERE id = ?", (json.dumps(data), table_id))

        with self._lock:
            saving(update)

    def close_table(self, table_id: str) -> None:
        """The table is over for good (closed, expired, broken): not resumed."""
        with self._lock:
            saving(lambda: self.db.execute("UPDATE tables SET closed = 1 WHERE id = ?", (table_id,)))

    def open_tables(
        self, broken: Callable[[str, str], None] | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        """The tables not closed, in the order they were made, each row read
        on its own: one that is not a JSON object is left out (and left as it
        is), and passed to ``broken`` with why."""
        with self._lock:
            rows = reading(
                lambda: self.db.execute(
                    "SELECT id, data FROM tables WHERE closed = 0 ORDER BY rowid"
                ).fetchall()
            )
        tables = []
        for table_id, text in rows:
            try:
                data = json.loads(text)
            except (ValueError, TypeError, RecursionError) as err:
                if broken is not None:
                    broken(str(table_id), f"its row is not JSON ({one_line(str(err), 80)})")
                continue
            if not isinstance(data, dict):
                if broken is not None:
                    broken(str(table_id), "its row is not a JSON object")
                continue
            tables.append((str(table_id), data))
        return tables

    def append(self, table_id: str, entry: dict[str, Any]) -> None:
        """One journal entry, committed (and synced) before it returns.

        Group commit: the entries of every table that arrive while a commit
        is on disk wait for it, then go in one transaction (one sync) written
        by the first of their threads; each returns once its own entry is
        committed, or raises the ``StoreError`` of its transaction. At 50
        tables one sync a move each queued the tables' moves behind each
        other (issue 49)."""
        mine = _Entry(table_id, json.dumps(entry))
        with self._waiting:
            self._pending.append(mine)
            while not mine.done and self._writing:
                self._waiting.wait()
            if not mine.done:  # nobody is writing: this thread writes what waits, its own entry too
                self._writing = True
                batch, self._pending = self._pending, []
        if not mine.done:
            error: StoreError | None = None
            try:
                with self._lock:
                    saving(self._insert, batch)
            except StoreError as err:
                error = err
            except BaseException:  # (an interruption): the others' entries are not saved either
                error = StoreError(T("the server cannot save its tables: {why}", why=T("interrupted")))
                raise
            finally:
                with self._waiting:
                    for e in batch:
                        e.done, e.error = True, error
                    self._writing = False
                    self._waiting.notify_all()
        if mine.error is not None:
            raise mine.error

    def _insert(self, batch: list[_Entry]) -> None:
        """The entries in one transaction, numbered in each table's order."""
        numbers = dict(self._next)
        self.db.execute("BEGIN")
        try:
            for e in batch:
                n = numbers.get(e.table_id)
                if n is None:
                    row = self.db.execute(
                        "SELECT MAX(n) FROM journal WHERE table_id = ?", (e.table_id,)
                    ).fetchone()
                    n = (row[0] + 1) if row and row[0] is not None else 0
                self.db.execute(
                    "INSERT INTO journal (table_id, n, data) VALUES (?, ?, ?)", (e.table_id, n, e.text)
                )
                numbers[e.table_id] = n + 1
            self.db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            raise
        self._next = numbers

    def journal(self, table_id: str) -> list[dict[str, Any]]:
        """A table's journal, in order; an entry that is not a JSON object: ``StoreError``."""
        with self._lock:
            rows = reading(
                lambda: self.db.execute(
                    "SELECT n, data FROM journal WHERE table_id = ? ORDER BY n", (table_id,)
                ).fetchall()
            )
        entries = []
        for n, text in rows:
            try:
                entry = json.loads(text)
            except (ValueError, TypeError, RecursionError):
                entry = None
            if not isinstance(entry, dict):
                raise StoreError(f"its journal's entry {n} is not a JSON object")
            entries.append(entry)
        return entries

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self.db.close()
