"""Calls by name in Python files, as Python's own parser sees them.

Reads a root directory and relative file paths (one a line) on stdin; prints one
JSON object: {"calls": [[path, line, name], ...], "failed": [path, ...]}.
A call by name is an ast.Call whose func is a Name (its id, at its line) or an
Attribute (its attr, at the line where the attribute name ends).
"""
import ast
import json
import sys
import warnings

warnings.simplefilter("ignore")
root = sys.stdin.readline().rstrip("\n")
calls, failed = [], []
for path in sys.stdin.read().split("\n"):
    if not path:
        continue
    try:
        with open(f"{root}/{path}", "rb") as handle:
            tree = ast.parse(handle.read())
    except (SyntaxError, ValueError):
        failed.append(path)
        continue
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name):
            calls.append([path, func.lineno, func.id])
        elif isinstance(func, ast.Attribute):
            calls.append([path, func.end_lineno, func.attr])
json.dump({"calls": calls, "failed": failed}, sys.stdout)
