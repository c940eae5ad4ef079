"""Python's sqlite3 implicit transactions over levelsql (issue 9, section 1).

Python's sqlite3 module (legacy isolation_level "") sends BEGIN before an
INSERT, UPDATE or DELETE and leaves the transaction open until commit() or
rollback(); a statement that fails inside it only undoes itself.  Each case
runs on its own copy of a WWD level and compares the copy's bytes with the
original or with what the successful statements alone write in autocommit
(isolation_level None) on another copy.

Usage: python3 implicit_transactions.py EXTENSION LEVEL.WWD WORKDIR
Prints one line per case, "ok <case>" or "not ok <case>: <why>", and exits
0 once every case ran; the C test test_statement_safety runs it and counts
each line as a check.
"""
import os
import shutil
import sqlite3
import sys

EXTENSION, LEVEL, WORKDIR = sys.argv[1:4]

# A multi-row UPDATE ... FROM, its variant failing on the 30th of 60 rows,
# and a plain UPDATE.
GOOD_FROM = ("UPDATE wwd_objects AS g SET health = d.health + 5 FROM wwd_objects('{p}') AS d "
             "WHERE g.source = '{p}' AND d.plane = g.plane AND d.idx = g.idx")
BAD_FROM = ("UPDATE wwd_objects AS g SET health = CASE WHEN g.id = 30 THEN 'not a number' ELSE d.health + 9 END "
            "FROM wwd_objects('{p}') AS d WHERE g.source = '{p}' AND d.plane = g.plane AND d.idx = g.idx")
PLAIN = "UPDATE wwd_objects SET x = x + 1 WHERE source = '{p}' AND id <= 10"


def connect(isolation_level=""):
    """A connection with the extension loaded."""
    conn = sqlite3.connect(":memory:", isolation_level=isolation_level)
    conn.enable_load_extension(True)
    conn.load_extension(EXTENSION)
    conn.enable_load_extension(False)
    return conn


def fresh(name):
    """A new copy of the level in WORKDIR."""
    path = os.path.join(WORKDIR, name)
    shutil.copyfile(LEVEL, path)
    return path


def contents(path):
    with open(path, "rb") as f:
        return f.read()


def reference(name, statements):
    """The bytes the statements write in autocommit on a copy, or the error."""
    path = fresh(name)
    conn = connect(None)
    try:
        for sql in statements:
            conn.execute(sql.format(p=path))
    except sqlite3.Error as e:
        return None, "reference failed: %s" % e
    finally:
        conn.close()
    return contents(path), None


def fails(conn, sql):
    """Runs a statement that must fail on its bad value; returns "" when it
    did, else what happened instead."""
    try:
        conn.execute(sql)
    except sqlite3.Error as e:
        return "" if "column health" in str(e) else "it failed otherwise: %s" % e
    return "it succeeded"


ORIGINAL = contents(LEVEL)


def report(case, ok, why=""):
    print(("ok %s" if ok else "not ok %s: " + why) % case)


def case_failing_then_commit():
    path = fresh("fail_commit.WWD")
    conn = connect()
    failure = fails(conn, BAD_FROM.format(p=path))
    in_txn = conn.in_transaction
    conn.commit()
    conn.close()
    same = contents(path) == ORIGINAL
    report("a failing UPDATE ... FROM in the implicit transaction, then commit(): nothing written",
           not failure and in_txn and same,
           failure or ("no implicit transaction was open" if not in_txn else "the file changed"))


def case_good_failing_commit():
    want, why = reference("ref_plain.WWD", [PLAIN])
    path = fresh("good_fail_commit.WWD")
    conn = connect()
    conn.execute(PLAIN.format(p=path))
    failure = fails(conn, BAD_FROM.format(p=path))
    conn.commit()
    conn.close()
    got = contents(path)
    report("UPDATE, then a failing UPDATE ... FROM, then commit(): only the first written",
           want is not None and not failure and got == want,
           why or failure or ("the file is unchanged" if got == ORIGINAL else "other bytes than the first UPDATE alone writes"))


def case_good_from_commit():
    want, why = reference("ref_from.WWD", [GOOD_FROM])
    path = fresh("from_commit.WWD")
    conn = connect()
    err = None
    try:
        conn.execute(GOOD_FROM.format(p=path))
        conn.commit()
    except sqlite3.Error as e:
        err = str(e)
    conn.close()
    got = contents(path)
    report("a successful UPDATE ... FROM, then commit(): written",
           err is None and want is not None and got == want and got != ORIGINAL,
           err or why or ("nothing written" if got == ORIGINAL else "other bytes than in autocommit"))


def case_rollback():
    path = fresh("rollback.WWD")
    conn = connect()
    err = None
    try:
        conn.execute(PLAIN.format(p=path))
        conn.execute("UPDATE wwd_objects SET health = 1 WHERE source = '{p}'".format(p=path))
    except sqlite3.Error as e:
        err = str(e)
    conn.rollback()
    conn.close()
    report("two UPDATEs then rollback(): nothing written", err is None and contents(path) == ORIGINAL,
           err or "the file changed")


def case_close_without_commit():
    path = fresh("close.WWD")
    conn = connect()
    conn.execute(PLAIN.format(p=path))
    conn.close()
    report("an UPDATE then close() without commit(): nothing written", contents(path) == ORIGINAL,
           "the file changed")


for case in (case_failing_then_commit, case_good_failing_commit, case_good_from_commit, case_rollback,
             case_close_without_commit):
    try:
        case()
    except Exception as e:  # one broken case must not hide the others
        report(case.__name__, False, "raised %r" % e)
# exit status 0: the script ran to its end (the results are the lines above)
sys.exit(0)
