"""Checks of the installed Python package levelsql (README, "Platforms and
hosts"), run by test/python/package.sh with the Python it was installed for.

Usage: python package_checks.py SAMPLES WORKDIR VERSION
SAMPLES holds the generated samples (read only here); every write goes to a
copy in WORKDIR.  Prints "ok <check>" or "not ok <check>: <why>" per check.
"""
import os
import shutil
import sqlite3
import sys

import levelsql

SAMPLES, WORKDIR, VERSION = sys.argv[1:4]


def report(check, ok, why=""):
    print(("ok %s" if ok else "not ok %s: " + why) % check)


def check_bundled_library():
    path = levelsql.library_path()
    package_dir = os.path.dirname(os.path.abspath(levelsql.__file__))
    report("library_path() is the library inside the installed package",
           os.path.dirname(path) == package_dir and os.path.isfile(path) and "site-packages" in path,
           "it is %s (package in %s)" % (path, package_dir))


def check_load_and_read():
    conn = sqlite3.connect(":memory:")
    loaded = levelsql.load(conn)
    version = conn.execute("SELECT levelsql_version()").fetchone()[0]
    report("load(conn) loads the bundled library (levelsql_version() is %s)" % VERSION,
           loaded == levelsql.library_path() and version == VERSION, "got %r from %s" % (version, loaded))
    n = conn.execute("SELECT count(*) FROM wwd_levels(?)", (SAMPLES,)).fetchone()[0]
    report("wwd_levels reads the samples through the package", n >= 5, "%d levels" % n)
    try:
        conn.load_extension(loaded)
        report("extension loading is off again after load()", False, "a second load_extension succeeded")
    except sqlite3.OperationalError as e:
        report("extension loading is off again after load()", "not authorized" in str(e), str(e))
    conn.close()


def check_write():
    path = os.path.join(WORKDIR, "SAMPLE01.WWD")
    shutil.copyfile(os.path.join(SAMPLES, "SAMPLE01.WWD"), path)
    conn = sqlite3.connect(":memory:")
    levelsql.load(conn)
    conn.execute("UPDATE wwd_objects SET score = 4321 WHERE source = ? AND id = 1", (path,))
    conn.commit()
    conn.close()
    again = sqlite3.connect(":memory:")
    levelsql.load(again)
    score = again.execute("SELECT score FROM wwd_objects(?) WHERE id = 1", (path,)).fetchone()
    again.close()
    report("an UPDATE through the package is written (re-read in a new connection)",
           score == (4321,), "score is %r" % (score,))


class NoLoadConnection:
    """What sqlite3.connect returns in a Python built without extension
    loading: a connection without enable_load_extension."""

    def execute(self, *args):
        raise AssertionError("not reached")


def check_message_without_load_extension():
    try:
        levelsql.load(NoLoadConnection())
    except levelsql.LoadExtensionUnsupported as e:
        text = str(e)
        report("a connection without enable_load_extension gets a clear message",
               "enable_load_extension" in text and "/usr/bin/python3" in text
               and "--enable-loadable-sqlite-extensions" in text, text)
        return
    report("a connection without enable_load_extension gets a clear message", False, "no exception")


for check in (check_bundled_library, check_load_and_read, check_write, check_message_without_load_extension):
    try:
        check()
    except Exception as e:  # one broken check must not hide the others
        report(check.__name__, False, "raised %r" % e)
