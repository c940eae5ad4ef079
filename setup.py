"""Builds the Python package levelsql (python/levelsql/) with the extension
inside it.

`pip install .` from a checkout runs this: build_py first runs
`make build/levelsql.so` (or takes the library named by LEVELSQL_LIBRARY, a
levelsql.so or levelsql.dll built beforehand, e.g. by `make windows`) and
copies it into the package beside __init__.py, where levelsql.load() finds
it.  The package itself is pure Python; the library it carries is the one
of the machine that built it.  Setuptools' own build folder is
build/python/ so that nothing lands beside the sources.
"""
import os
import re
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    """The extension's version (LEVELSQL_VERSION in ext/levelsql.c)."""
    with open(os.path.join(ROOT, "ext", "levelsql.c"), encoding="utf-8") as f:
        return re.search(r'#define LEVELSQL_VERSION "([^"]+)"', f.read()).group(1)


def library():
    """The path of the built library to bundle, building it when needed."""
    given = os.environ.get("LEVELSQL_LIBRARY")
    if given:
        if not os.path.isfile(given):
            raise SystemExit("levelsql: LEVELSQL_LIBRARY=%s is not a file" % given)
        return given
    subprocess.check_call(["make", "-C", ROOT, "build/levelsql.so"])
    return os.path.join(ROOT, "build", "levelsql.so")


class BuildWithLibrary(build_py):
    """build_py that also copies the extension into the built package."""

    def run(self):
        super().run()
        lib = library()
        target = os.path.join(self.build_lib, "levelsql", os.path.basename(lib))
        self.mkpath(os.path.dirname(target))
        shutil.copyfile(lib, target)


setup(
    name="levelsql",
    version=version(),
    description="Game level files (WWD, Teeworlds/DDNet maps, Infinity Engine WED, werkkzeug4) "
                "as SQLite virtual tables",
    license="see the project's README",
    packages=["levelsql"],
    package_dir={"": "python"},
    python_requires=">=3.7",
    cmdclass={"build_py": BuildWithLibrary},
    options={"build": {"build_base": "build/python"}, "egg_info": {"egg_base": "build/python"}},
    zip_safe=False,
)
