#!/usr/bin/env python3
"""The project's include graph, checked (README, "Layout"): make test runs it.

Fails (exit 1, naming the files) when
  - the includes among the project's sources form a circle: a source and its
    header (x.c, x.h) are one node, an edge is an #include "..." of another
    node, so tw_edit.c including tw_tables.h while tw_tables.c includes
    tw_edit.h is the circle tw_edit -> tw_tables -> tw_edit;
  - a family file (ext/<family>/, every folder of ext/ but engine/) includes
    an engine header other than engine/engine.h (the engine's interface to
    the families is engine.h alone);
  - a codec (codecs/) includes anything of ext/ or SQLite (codecs are pure C);
  - an include names a project file that is not found.
Includes are resolved as the compiler does: beside the including file, then
in codecs/ and ext/ (-Icodecs -Iext).  Usage: test/include_graph.py [ROOT]
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)


def project_files(root):
    """Every .c and .h under codecs/ and ext/, as paths relative to root."""
    out = []
    for top in ("codecs", "ext"):
        for folder, _dirs, names in os.walk(os.path.join(root, top)):
            out += [os.path.relpath(os.path.join(folder, n), root) for n in names if n.endswith((".c", ".h"))]
    return sorted(out)


def resolve(root, including, name):
    """The project file an #include "name" of `including` reaches, or None."""
    for base in (os.path.dirname(including), "codecs", "ext"):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, path)):
            return path
    return None


def node(path):
    """A source and its header are one node: the path without its suffix."""
    return os.path.splitext(path)[0]


def find_circle(edges):
    """One circle of the graph as a list of nodes (first == last), or None."""
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if not state.get(m):
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(edges):
        if not state.get(n):
            found = visit(n)
            if found:
                return found
    return None


def check(root):
    """The list of problems of the tree at root (empty: all is well)."""
    problems, edges = [], {}
    for f in project_files(root):
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        family = f.startswith("ext/") and f.count("/") == 2 and not f.startswith("ext/engine/")
        for kind, name in INCLUDE.findall(text):
            if f.startswith("codecs/") and ("sqlite3" in name or name.startswith(("engine/", "../ext"))):
                problems.append(f"{f}: a codec includes {kind}{name}: codecs are pure C, no SQLite or ext/")
            if kind == "<":
                continue
            target = resolve(root, f, name)
            if target is None:
                problems.append(f'{f}: #include "{name}" names no file beside it, in codecs/ or in ext/')
                continue
            if family and target.startswith("ext/engine/") and target != "ext/engine/engine.h":
                problems.append(f'{f}: a family file includes "{name}": from the engine it includes only "engine/engine.h"')
            if node(target) != node(f):
                edges.setdefault(node(f), set()).add(node(target))
    circle = find_circle(edges)
    if circle:
        problems.append("include circle: " + " -> ".join(circle))
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check(root)
    for p in problems:
        print("FAIL include_graph: " + p)
    print(f"include_graph: {len(problems)} problem(s) in {len(project_files(root))} files of codecs/ and ext/")
    print(f"RESULT passed={0 if problems else 1} failed={len(problems)} skipped=0")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
