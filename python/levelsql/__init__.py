"""levelsql: game level files as SQLite virtual tables.

The package carries the levelsql SQLite extension (levelsql.so, or
levelsql.dll on Windows) beside this file:

    import sqlite3, levelsql
    conn = sqlite3.connect(":memory:")
    levelsql.load(conn)
    conn.execute("SELECT file, name FROM wwd_levels('levels')").fetchall()

load() works with any connection that has enable_load_extension and
load_extension (the sqlite3 module's, or an apsw-like one); a Python whose
sqlite3 module was built without extension loading gets
LoadExtensionUnsupported, saying what to use instead.
"""
import os
import sys

__all__ = ["load", "library_path", "LoadExtensionUnsupported"]

_NAMES = {"win32": "levelsql.dll", "cygwin": "levelsql.dll", "darwin": "levelsql.dylib"}


class LoadExtensionUnsupported(RuntimeError):
    """This Python's sqlite3 cannot load extensions (built without it)."""


def library_path():
    """The absolute path of the bundled extension library.

    Raises FileNotFoundError when the package holds none for this platform
    (it was built on another one)."""
    name = _NAMES.get(sys.platform, "levelsql.so")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    if not os.path.isfile(path):
        raise FileNotFoundError("levelsql: the package holds no %s (built for another platform?): %s"
                                % (name, path))
    return path


def load(conn):
    """Loads the bundled extension into the connection conn.

    Extension loading is switched on only for the load itself and off again
    afterwards, so SQL run later on conn cannot load other libraries."""
    if not hasattr(conn, "enable_load_extension") or not hasattr(conn, "load_extension"):
        raise LoadExtensionUnsupported(
            "levelsql: this Python's sqlite3 module cannot load extensions (%s has no "
            "enable_load_extension: Python was built without --enable-loadable-sqlite-extensions). "
            "Use a Python built with it, such as Debian's /usr/bin/python3, or rebuild this one "
            "(pyenv: PYTHON_CONFIGURE_OPTS=--enable-loadable-sqlite-extensions pyenv install VERSION)."
            % sys.executable)
    path = library_path()
    conn.enable_load_extension(True)
    try:
        conn.load_extension(path)
    finally:
        conn.enable_load_extension(False)
    return path
