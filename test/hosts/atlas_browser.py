"""The atlas in a real browser (README, "The atlas of a collection").

    python3 test/hosts/atlas_browser.py BUILD SAMPLES

Makes an atlas with levelsql_atlas of the generated samples, a damaged map
and a file with a hostile name beside them, and, when the real corpus is
there ($LEVELSQL_CORPUS), of every corpus level too, with the Infinity
Engine areas laid out as in their repository (WED, ARE, tileset and PVRZ
pages in one folder, names as the games spell them) so that they are drawn
with their tiles and their actors.  Then opens it from file:// in Debian's
chromium, headless, driven through chromedriver with plain WebDriver HTTP
calls (urllib; no selenium), and checks:

  - index.html loads with no message on the console (browser log), shows
    one card per level (the count levelsql_atlas returned), every <img>
    decodes (naturalWidth > 0, all loaded eagerly) and takes room on the
    page;
  - filtering by format shows only and all the levels of that format;
    sorting by a number (objects, descending) puts the level with the most
    objects first and changes the order; filtering by a number (objects at
    least 300) shows only and all the levels with that many;
  - a level's page loads without a console message, a query's copy button
    selects it, its back link returns to the index;
  - the hostile name is shown as text (no element made of it).

Screenshots of the index and of a page go to BUILD/atlas-screenshots/.
Skipped (one skip) when chromium or chromedriver is not installed
(`apt-get install chromium chromium-driver`; tools/ensure-deps.sh and
.ci/run install them).  Ends with "RESULT passed=N failed=N skipped=N".
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

MAPRES = "/usr/share/games/ddnet/data/mapres"

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from readme import Tally  # noqa: E402  (test/readme.py: the same tally of checks)


def find_program(*names):
    """The first of the programs found on PATH (or as an absolute path), or None."""
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """A chromedriver session through the W3C WebDriver HTTP protocol."""

    def __init__(self, driver, browser, log_path):
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.log = open(log_path, "w")
        # (under `make asan` the sanitizer runtime is preloaded for the sqlite3
        # shell; the browser runs without it)
        env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}
        self.proc = subprocess.Popen([driver, "--port=%d" % self.port], stdout=self.log, stderr=subprocess.STDOUT,
                                     env=env)
        self.session = None
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                if self.call("GET", "/status").get("ready"):
                    break
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.05)
        caps = {
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {
                        "binary": browser,
                        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                 "--window-size=1280,1024", "--no-first-run", "--disable-extensions"],
                    },
                    "goog:loggingPrefs": {"browser": "ALL"},
                }
            }
        }
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read().decode() or "{}").get("value")
        except urllib.error.HTTPError as e:
            raise RuntimeError("%s %s: %s" % (method, path, e.read().decode()[:500]))

    def s(self, path):
        return "/session/%s%s" % (self.session, path)

    def go(self, url):
        self.call("POST", self.s("/url"), {"url": url})

    def run(self, script, *args):
        return self.call("POST", self.s("/execute/sync"), {"script": script, "args": list(args)})

    def run_async(self, script, *args):
        return self.call("POST", self.s("/execute/async"), {"script": script, "args": list(args)})

    def url(self):
        return self.call("GET", self.s("/url"))

    def console(self):
        """The browser's console messages since the last call (chromedriver's log)."""
        return self.call("POST", self.s("/se/log"), {"type": "browser"}) or []

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.call("GET", self.s("/screenshot"))))

    def quit(self):
        try:
            if self.session:
                self.call("DELETE", self.s(""))
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.log.close()


def stripped(name):
    """A corpus file's name as the game spells it: the part after the last
    '__' of the corpus's flattened path (bst__bst__areas__YS0104.WED)."""
    return name.rsplit("__", 1)[-1]


def lay_out_areas(corpus, dest):
    """The corpus areas that have a tileset, laid out as in the repository:
    for each tileset folder (tis_bg2, tis_bgee), its tilesets and pages and
    the WED and ARE of the same name, in one folder.  Returns how many
    areas."""
    areas = 0
    tis_dir, wed_dir, are_dir, pvrz_dir = (os.path.join(corpus, d) for d in ("tis", "wed", "are", "pvrz"))
    if not all(os.path.isdir(d) for d in (tis_dir, wed_dir, are_dir)):
        return 0
    weds = {stripped(n).lower(): n for n in os.listdir(wed_dir)}
    ares = {stripped(n).lower(): n for n in os.listdir(are_dir)}
    for name in sorted(os.listdir(tis_dir)):
        folder = os.path.join(dest, name.split("__")[2] if name.count("__") >= 3 else "tis")
        stem = os.path.splitext(stripped(name))[0].lower()
        if stem + ".wed" not in weds:
            continue
        os.makedirs(folder, exist_ok=True)
        shutil.copy(os.path.join(tis_dir, name), os.path.join(folder, stripped(name)))
        shutil.copy(os.path.join(wed_dir, weds[stem + ".wed"]), os.path.join(folder, stripped(weds[stem + ".wed"])))
        if stem + ".are" in ares:
            shutil.copy(os.path.join(are_dir, ares[stem + ".are"]), os.path.join(folder, stripped(ares[stem + ".are"])))
        areas += 1
    for name in sorted(os.listdir(pvrz_dir)) if os.path.isdir(pvrz_dir) else []:
        folder = os.path.join(dest, name.split("__")[2] if name.count("__") >= 3 else "tis")
        if os.path.isdir(folder):
            shutil.copy(os.path.join(pvrz_dir, name), os.path.join(folder, stripped(name)))
    return areas


def sql_text(text):
    """text as an SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def shell(ext, statement):
    """The first column of the statement's first row, run by the sqlite3
    shell (the host the README uses) after loading the extension."""
    out = subprocess.run(["sqlite3", "-batch", ":memory:"], input=".load %s\n%s;\n" % (ext, statement),
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0 or out.stderr:
        raise RuntimeError("sqlite3: %s: %s" % (statement[:200], out.stderr.strip()[:500]))
    return out.stdout.strip().split("\n")[0]


def make_atlas(ext, work, samples, corpus):
    """The levels and their atlas; returns (atlas folder, levelsql_atlas's JSON)."""
    levels = os.path.join(work, "levels")
    shutil.copytree(samples, levels, ignore=shutil.ignore_patterns("iegame"))
    with open(os.path.join(levels, "dm_sample.map"), "rb") as f:
        data = f.read()
    with open(os.path.join(levels, "damaged.map"), "wb") as f:
        f.write(data[:200])
    shutil.copy(os.path.join(levels, "legacy.map"), os.path.join(levels, "<img src=x onerror=alert(1)>.map"))
    sources = [levels]
    if corpus:
        ie = os.path.join(work, "ie")
        if lay_out_areas(corpus, ie):
            sources.append(ie + "/**")
        sources += [os.path.join(corpus, d) for d in ("wwd", "tw", "wed", "are", "wz4") if os.path.isdir(os.path.join(corpus, d))]
    folder = os.path.join(work, "atlas")
    options = "size=512, thumb=160" if corpus else ""
    if os.path.isdir(MAPRES):  # DDNet's images (Debian's ddnet-data): the maps as the game shows them
        options += (", " if options else "") + "mapres=" + MAPRES
    result = shell(ext, "SELECT levelsql_atlas(%s, %s, %s)" % (sql_text(json.dumps(sources)), sql_text(folder), sql_text(options)))
    return folder, json.loads(result), sources


def console_errors(wd):
    return [m for m in wd.console() if m.get("level") in ("SEVERE", "WARNING")]


def main():
    build, samples = sys.argv[1], sys.argv[2]
    t = Tally()
    browser = find_program("chromium", "chromium-browser", "google-chrome")
    driver = find_program("chromedriver", "/usr/lib/chromium/chromedriver")
    if not browser or not driver:
        print("SKIP the atlas in a browser: chromium or chromedriver is not installed "
              "(apt-get install chromium chromium-driver)")
        t.skipped += 1
        return done(t)
    build_abs = os.path.abspath(build)
    shots = os.path.join(build_abs, "atlas-screenshots")
    os.makedirs(shots, exist_ok=True)
    corpus = os.environ.get("LEVELSQL_CORPUS") or None
    work = tempfile.mkdtemp(prefix="levelsql-atlas-browser-")
    wd = None
    try:
        ext = os.path.join(build_abs, "levelsql")
        folder, made, sources = make_atlas(ext, work, samples, corpus)
        t.check(made["unreadable"] >= 1 and made["levels"] >= 15, "the atlas is made: %s" % made)
        wd = WebDriver(driver, browser, os.path.join(shots, "chromedriver.log"))
        index = "file://" + os.path.join(folder, "index.html")
        wd.go(index)
        errors = console_errors(wd)
        t.check(not errors, "index.html loads without console messages: %s" % errors[:3])
        cards = wd.run("return document.querySelectorAll('#cards .card').length;")
        t.check(cards == made["levels"], "one card per level: %s cards, %s levels" % (cards, made["levels"]))
        broken = wd.run_async(
            "var done = arguments[arguments.length - 1];"
            "var imgs = Array.prototype.slice.call(document.images);"
            "imgs.forEach(function (i) { i.loading = 'eager'; });"
            "Promise.all(imgs.map(function (i) { return i.decode().catch(function () {}); })).then(function () {"
            "  done({n: imgs.length, bad: imgs.filter(function (i) {"
            "    return !(i.naturalWidth > 0) || !(i.getBoundingClientRect().width > 0); })"
            "    .map(function (i) { return i.getAttribute('src'); })});"
            "});")
        t.check(broken["n"] == cards and not broken["bad"],
                "every picture decodes and shows (%d images): not %s" % (broken["n"], broken["bad"][:5]))
        t.check(wd.run("return document.querySelector('#cards').textContent.indexOf('<img src=x onerror=alert(1)>.map') >= 0 "
                       "&& document.querySelectorAll('img[src=x]').length === 0;"),
                "the hostile file name is text, no element")
        t.check(wd.run("return document.getElementById('unreadable').textContent.indexOf('damaged.map') >= 0;"),
                "the damaged map is among the unreadable files")
        wd.screenshot(os.path.join(shots, "index.png"))
        # filtering by format
        expected_wwd = int(shell(ext, "SELECT count(*) FROM levelsql_files(%s) WHERE ok AND format = 'wwd'"
                                 % sql_text(json.dumps(sources))))
        shown = wd.run(
            "var s = document.getElementById('format'); s.value = 'wwd'; s.dispatchEvent(new Event('change'));"
            "var v = Array.prototype.filter.call(document.querySelectorAll('#cards .card'), function (c) { return !c.hidden; });"
            "return {n: v.length, formats: v.map(function (c) { return c.getAttribute('data-format'); }),"
            "  label: document.getElementById('shown').textContent};")
        t.check(shown["n"] == expected_wwd and set(shown["formats"]) == {"wwd"},
                "filtering by format wwd shows its %d levels alone: %s" % (expected_wwd, shown["n"]))
        wd.screenshot(os.path.join(shots, "index-wwd.png"))
        # sorting by a number
        order = wd.run(
            "function ids() { return Array.prototype.filter.call(document.querySelectorAll('#cards .card'),"
            "  function (c) { return !c.hidden; }).map(function (c) { return c.id; }); }"
            "var before = ids();"
            "var s = document.getElementById('sort'); s.value = 'objects'; s.dispatchEvent(new Event('change'));"
            "var o = document.getElementById('order'); o.value = 'desc'; o.dispatchEvent(new Event('change'));"
            "var after = ids(), first = document.getElementById(after[0]);"
            "var most = Math.max.apply(null, after.map(function (id) {"
            "  return Number(document.getElementById(id).getAttribute('data-n-objects')); }));"
            "return {before: before, after: after, first: Number(first.getAttribute('data-n-objects')), most: most};")
        t.check(order["before"] != order["after"] and order["first"] == order["most"] and order["most"] > 0,
                "sorting by objects, descending, changes the order and puts the most objects (%s) first" % order["most"])
        # filtering by a number: objects at least 300
        ranged = wd.run(
            "var f = document.getElementById('format'); f.value = ''; f.dispatchEvent(new Event('change'));"
            "var w = document.getElementById('which'); w.value = 'objects'; w.dispatchEvent(new Event('change'));"
            "var l = document.getElementById('least'); l.value = '300'; l.dispatchEvent(new Event('input'));"
            "var all = Array.prototype.slice.call(document.querySelectorAll('#cards .card'));"
            "var want = all.filter(function (c) { var v = c.getAttribute('data-n-objects');"
            "  return v !== null && Number(v) >= 300; }).length;"
            "var shown = all.filter(function (c) { return !c.hidden; });"
            "var ok = shown.every(function (c) { return Number(c.getAttribute('data-n-objects')) >= 300; });"
            "l.value = ''; l.dispatchEvent(new Event('input'));"
            "return {want: want, shown: shown.length, ok: ok, all: all.length};")
        t.check(ranged["ok"] and ranged["shown"] == ranged["want"] and 0 < ranged["want"] < ranged["all"],
                "filtering by objects >= 300 shows those %d levels alone: %s" % (ranged["want"], ranged["shown"]))
        # a level's page and back
        href = wd.run("var c = document.getElementById(arguments[0]); return c.href;", order["after"][0])
        wd.go(href)
        errors = console_errors(wd)
        t.check(not errors, "a level's page loads without console messages: %s" % errors[:3])
        t.check(wd.run("return document.querySelectorAll('svg.picture circle').length > 0 && "
                       "document.querySelector('#tables table') !== null && document.querySelector('#queries pre') !== null;"),
                "the page shows the markers, the row counts and the queries")
        copied = wd.run("var b = document.querySelector('button.copy'); b.click();"
                        "return window.getSelection().toString();")
        t.check(copied.startswith("SELECT") and not console_errors(wd),
                "a query's copy button selects it, without a console message: %s" % copied[:60])
        wd.screenshot(os.path.join(shots, "level.png"))
        wd.run("document.getElementById('back').click();")
        deadline = time.time() + 10
        while time.time() < deadline and not wd.url().split("#")[0].endswith("/index.html"):
            time.sleep(0.05)
        t.check(wd.url().split("#")[0] == index, "the page links back to the index: %s" % wd.url())
        if corpus:
            area = wd.run("var a = Array.prototype.filter.call(document.querySelectorAll('#cards .card'), function (c) {"
                          "  return c.getAttribute('data-format') === 'wed' && c.hasAttribute('data-n-actors') &&"
                          "    c.getAttribute('data-path').indexOf('/ie/') >= 0; });"
                          "return a.length ? a[0].href : null;")
            t.check(area is not None, "a corpus area with its ARE beside it has a card")
            if area is not None:
                wd.go(area)
                t.check(wd.run("return document.querySelector('.note') === null && "
                               "document.querySelectorAll('svg.picture circle').length > 0;"),
                        "and its page shows its tiles (no note) with its actors and doors")
                wd.screenshot(os.path.join(shots, "area.png"))
        else:
            print("SKIP the corpus in the atlas: no real corpus ($LEVELSQL_CORPUS)")
            t.skipped += 1
    except (RuntimeError, OSError, ValueError, KeyError, TypeError, subprocess.SubprocessError) as e:
        t.check(False, "the browser test stopped: %s" % e)
    finally:
        if wd:
            wd.quit()
        shutil.rmtree(work, ignore_errors=True)
    return done(t)


def done(t):
    """Prints the RESULT line of the tally; the exit status."""
    print("RESULT passed=%d failed=%d skipped=%d" % (t.passed, t.failed, t.skipped))
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
