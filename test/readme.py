"""The README's front door: what `make demo` leaves is what the README uses.

    python3 test/readme.py BUILD SAMPLES

In a scratch folder laid out like the project root (build/levelsql.so, a
link to BUILD's extension; build/samples, a copy of SAMPLES) it runs
`sh tools/demo.sh` as `make demo` does, then checks:

 1. every picture of docs/ is what the demo drew into build/demo/: a PNG
    decoded (pixels, size, color type, palette; not the compressed bytes,
    which depend on the zlib and libpng versions), an SVG byte for byte;
 2. every example of README.md runs as written from the project root, each
    in a fresh copy of that demo output:
    - the examples are the fenced ```sql blocks and the `sqlite> ` lines of
      indented blocks (a continuation `   ...> ` joins the line before);
    - a block without a `.load` line runs after `.load build/levelsql`;
    - they run through the sqlite3 shell (`sqlite3 -batch :memory:`); a
      message on stderr or a non-zero exit fails the example, and so does a
      SELECT (or WITH, VALUES) that returns no row or an UPDATE, INSERT or
      DELETE that changes no row: an example must show something;
    - a block deliberately not runnable (a Windows path, a test-script
      excerpt whose paths are those of test/sql/) is preceded by the line
      `<!-- readme-test: not run (REASON) -->`; each such marker must be
      followed by an example.
Prints a FAIL line per problem and ends with
"RESULT passed=N failed=N skipped=N".
"""
import os
import re
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = re.compile(r"^<!-- readme-test: not run \((.+)\) -->\s*$")
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


class Tally:
    """Counts checks and prints each failure."""

    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL " + what.replace("\n", "\n  "))


def png_pixels(data):
    """Decodes a non-interlaced PNG into (header fields, palette, pixel rows):
    the picture itself, whatever compression wrote it."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, plte, trns, ihdr = 8, [], b"", b"", None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"PLTE":
            plte = body
        elif kind == b"tRNS":
            trns = body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = ihdr
    if interlace:
        raise ValueError("interlaced PNG")
    raw = zlib.decompress(b"".join(idat))
    bpp = max(1, CHANNELS[color] * depth // 8)
    stride = (width * CHANNELS[color] * depth + 7) // 8
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        unfilter(kind, line, prev, bpp)
        rows.append(bytes(line))
        prev = line
    return (width, height, depth, color), plte, trns, b"".join(rows)


def unfilter(kind, line, prev, bpp):
    """Undoes one scanline's PNG filter in place (filters 0-4)."""
    for i in range(len(line)):
        left = line[i - bpp] if i >= bpp else 0
        up = prev[i]
        upleft = prev[i - bpp] if i >= bpp else 0
        if kind == 1:
            line[i] = (line[i] + left) & 255
        elif kind == 2:
            line[i] = (line[i] + up) & 255
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 255
        elif kind == 4:
            p = left + up - upleft
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - upleft)
            pred = left if pa <= pb and pa <= pc else (up if pb <= pc else upleft)
            line[i] = (line[i] + pred) & 255


def check_pictures(tally, drawn):
    """docs/* against what the demo drew into the folder drawn."""
    for name in sorted(os.listdir(os.path.join(ROOT, "docs"))):
        mine = os.path.join(ROOT, "docs", name)
        theirs = os.path.join(drawn, name)
        if not os.path.exists(theirs):
            tally.check(False, "docs/%s: the demo draws no %s" % (name, name))
            continue
        with open(mine, "rb") as f:
            a = f.read()
        with open(theirs, "rb") as f:
            b = f.read()
        if name.endswith(".png"):
            same = png_pixels(a) == png_pixels(b)
        else:
            same = a == b
        tally.check(same, "docs/%s is not what `make demo` draws (build/demo/%s): "
                    "run `make demo` and copy build/demo/%s to docs/" % (name, name, name))


def readme_examples(lines):
    """The examples of the README: a list of (line number, text, reason not
    run or None)."""
    found, pending, i = [], None, 0
    while i < len(lines):
        line = lines[i]
        m = MARKER.match(line)
        if m:
            if pending:
                found.append((pending[0], None, "a marker without an example"))
            pending = (i + 1, m.group(1))
        elif line.lstrip().startswith("```"):
            indent = len(line) - len(line.lstrip())
            j = i + 1
            while j < len(lines) and not lines[j].lstrip().startswith("```"):
                j += 1
            if line.lstrip().startswith("```sql"):
                body = "\n".join(text[indent:] for text in lines[i + 1:j])
                found.append((i + 1, body, pending and pending[1]))
                pending = None
            i = j
        elif re.match(r"^ {4,}sqlite> ", line):
            body, first = [], i
            while i < len(lines) and re.match(r"^ {4,}(sqlite>|   \.\.\.>) ", lines[i]):
                body.append(re.sub(r"^ {4,}(sqlite>|   \.\.\.>) ", "", lines[i]))
                i += 1
            found.append((first + 1, "\n".join(body), pending and pending[1]))
            pending = None
            continue
        i += 1
    if pending:
        found.append((pending[0], None, "a marker without an example"))
    return found


def split_items(text):
    """An example's dot-commands and SQL statements, in order."""
    items, buf = [], ""
    for line in text.split("\n"):
        if not buf.strip() and line.startswith("."):
            items.append(line)
            continue
        buf += line + "\n"
        if sqlite3.complete_statement(buf):
            items.append(buf.strip())
            buf = ""
    if re.sub(r"--[^\n]*", "", buf).strip():
        items.append(buf.strip())
    return items


def first_word(statement):
    """The statement's first keyword, comments left out."""
    words = re.sub(r"--[^\n]*", "", statement).split()
    return words[0].upper() if words else ""


def run_example(tally, where, text, demo_build, scratch):
    """Runs one example in a fresh copy of the demo output; checks that it
    fails nowhere and that each query shows rows and each write changes."""
    home = tempfile.mkdtemp(dir=scratch)
    shutil.copytree(demo_build, os.path.join(home, "build"), symlinks=True)
    items = split_items(text)
    if not any(item.startswith(".load") for item in items):
        items.insert(0, ".load build/levelsql")
    script = ".changes on\n" + "".join(".print @@item %d\n%s\n" % (k, item)
                                       for k, item in enumerate(items))
    run = subprocess.run(["sqlite3", "-batch", ":memory:"], cwd=home, input=script,
                         capture_output=True, text=True)
    shutil.rmtree(home)
    if run.returncode != 0 or run.stderr:
        tally.check(False, "%s: exit %d: %s" % (where, run.returncode, run.stderr.strip()[:400]))
        return
    sections = re.split(r"^@@item (\d+)\n", run.stdout, flags=re.M)
    total, problems = 0, []
    for k in range(1, len(sections), 2):
        item, out = items[int(sections[k])], sections[k + 1].splitlines()
        if item.startswith("."):
            continue
        m = re.match(r"changes: +\d+ +total_changes: +(\d+)", out[-1]) if out else None
        if not m:
            problems.append("no changes line after: " + item)
            continue
        kind, rows, now = first_word(item), len(out) - 1, int(m.group(1))
        if kind in ("SELECT", "WITH", "VALUES") and rows == 0 and now == total:
            problems.append("returns no row: " + item)
        if kind in ("UPDATE", "INSERT", "DELETE") and now == total:
            problems.append("changes no row: " + item)
        total = now
    tally.check(not problems, "%s: %s" % (where, "; ".join(problems)))


def main():
    build = os.path.abspath(sys.argv[1])
    samples = os.path.abspath(sys.argv[2])
    tally = Tally()
    scratch = tempfile.mkdtemp()
    try:
        demo_build = os.path.join(scratch, "root", "build")
        os.makedirs(demo_build)
        os.symlink(os.path.join(build, "levelsql.so"), os.path.join(demo_build, "levelsql.so"))
        shutil.copytree(samples, os.path.join(demo_build, "samples"))
        demo = subprocess.run(["sh", os.path.join(ROOT, "tools", "demo.sh"), demo_build],
                              capture_output=True, text=True)
        tally.check(demo.returncode == 0 and not demo.stderr,
                    "tools/demo.sh: exit %d: %s" % (demo.returncode, demo.stderr.strip()[:400]))
        check_pictures(tally, os.path.join(demo_build, "demo"))
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            lines = f.read().split("\n")
        for line_no, text, not_run in readme_examples(lines):
            where = "README.md:%d" % line_no
            if text is None:
                tally.check(False, "%s: %s" % (where, not_run))
            elif not_run:
                print("INFO %s: not run (%s)" % (where, not_run))
            else:
                run_example(tally, where, text, demo_build, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("RESULT passed=%d failed=%d skipped=%d" % (tally.passed, tally.failed, tally.skipped))
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
