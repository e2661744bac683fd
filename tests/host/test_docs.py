"""test_docs.py: the teaching docs name only code that exists.

Every `file:function` written in backquotes in docs/*.md, the labs'
handouts (docs/labs/*.md), the book (docs/book/*.md) and README.md must
name an existing file that defines that function (or assembly label,
or linker symbol). Every
file path in backquotes must exist. Every console block must be a
sample that `make docs` (scripts/docs.py) makes, and
tests/console/test_docs.py compares each with a fresh run. No doc or
source cites the "seed" documents, which are not in the repository.
README's layout list names every document in docs/.
docs/architecture.md's table of commands must name every SHELL_COMMAND
the sources register, with its file and function.

Run with python3; prints KTAP.
"""

import glob
import os
import re
import subprocess
import sys
import ktap

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
REF = re.compile(r'`([\w./-]+\.(?:c|S|h|py|ld|gdb)):(\w+)')
PATH = re.compile(r'`((?:arch|kernel|trace|lib|include|scripts|tests|docs)'
                  r'/[\w./-]+\.(?:c|S|h|py|md|gdb|sh))`')


def defines(text, name, ext):
    """Does this source define name: a C function, macro or variable,
    an assembly label, or a symbol?"""
    if ext == 'S':
        return re.search(rf'^{re.escape(name)}:', text, re.M) is not None
    patterns = [rf'^[\w \t*]*\b{re.escape(name)}\s*\(',   # function
                rf'#define\s+{re.escape(name)}\b',       # macro
                rf'^\s*{re.escape(name)}\s*=',           # linker symbol
                rf'\bdef {re.escape(name)}\b']           # python
    return any(re.search(p, text, re.M) for p in patterns)


def doc_files():
    return sorted(glob.glob(os.path.join(ROOT, 'docs', '*.md')) +
                  glob.glob(os.path.join(ROOT, 'docs', 'labs', '*.md')) +
                  glob.glob(os.path.join(ROOT, 'docs', 'book', '*.md')) +
                  [os.path.join(ROOT, 'README.md')])


def checks():
    """(description, ok) for each reference in the docs."""
    for doc in doc_files():
        text = open(doc).read()
        short = os.path.relpath(doc, ROOT)
        for path, name in sorted(set(REF.findall(text))):
            full = os.path.join(ROOT, path)
            ok = os.path.exists(full) and defines(
                open(full).read(), name, path.rsplit('.', 1)[1])
            yield f'{short}: {path}:{name}', ok
        for path in sorted(set(PATH.findall(text))):
            yield f'{short}: {path}', os.path.exists(os.path.join(ROOT, path))


SHELL_COMMAND = re.compile(r'^SHELL_COMMAND\("([^"]+)",\s*(\w+)', re.M)
COMMAND_ROW = re.compile(r'^\| `([^`]+)` \| `([\w./-]+):(\w+)` \|$', re.M)


def command_checks():
    """(description, ok) for each command: the table says where it is."""
    table = {name: (path, fn) for name, path, fn in COMMAND_ROW.findall(
        open(os.path.join(ROOT, 'docs', 'architecture.md')).read())}
    for path in sorted(glob.glob(os.path.join(ROOT, '**', '*.c'),
                                 recursive=True)):
        short = os.path.relpath(path, ROOT)
        if short.startswith(('build/', 'tests/')):
            continue
        for name, fn in SHELL_COMMAND.findall(open(path).read()):
            yield (f'docs/architecture.md: command {name} is '
                   f'{short}:{fn}', table.get(name) == (short, fn))


SEED = re.compile(r"\bseeds?\s+00\d|shared/seeds|\bseeds'")
SAMPLE = re.compile(r'^<!-- sample: (kernel|boot|host)\b')


def seed_checks():
    """(description, ok): no file git knows cites a seed document."""
    files = subprocess.run(['git', 'ls-files'], cwd=ROOT, text=True,
                           stdout=subprocess.PIPE).stdout.split()
    for path in files:
        if not path.endswith(('.md', '.c', '.h', '.S', '.py', '.ld')):
            continue
        if path == 'tests/host/test_docs.py':
            continue
        text = open(os.path.join(ROOT, path), errors='replace').read()
        hits = [m[0] for m in SEED.finditer(text)]
        if hits:
            yield f'{path}: cites a seed document: {hits[0]!r}', False
    yield 'no seed documents cited', True


def sample_checks():
    """(description, ok): each console block is a sample make docs makes."""
    for doc in doc_files():
        lines = open(doc).read().split('\n')
        short = os.path.relpath(doc, ROOT)
        for i, line in enumerate(lines):
            if line == '```console':
                yield (f'{short}:{i + 1}: the console block is a sample',
                       i > 0 and SAMPLE.match(lines[i - 1]) is not None)


def layout_checks():
    """(description, ok): README's layout list names every document."""
    text = open(os.path.join(ROOT, 'README.md')).read()
    layout = text[text.index('## Layout'):]
    for doc in sorted(glob.glob(os.path.join(ROOT, 'docs', '*.md'))):
        name = os.path.basename(doc)
        yield f'README.md layout names docs/{name}', name in layout


def main():
    return ktap.report(list(checks()) + list(command_checks()) +
                       list(seed_checks()) + list(sample_checks()) +
                       list(layout_checks()))


if __name__ == '__main__':
    sys.exit(main())
