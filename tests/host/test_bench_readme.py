"""test_bench_readme.py: the figures README and the comments give are
the ones `make bench` measured, kept in docs/bench.json.

README's figures must be what `scripts/bench.py --readme` writes from
docs/bench.json (and writing them again changes nothing). Any figure
quoted in the sources or the docs as `bench`'s own output line,
`bench: KEY VALUE`, must be that key's value in docs/bench.json, to
the digits written.

Run with python3; prints KTAP.
"""

import glob
import importlib.util
import json
import os
import re
import sys
import ktap

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
CITE = re.compile(r'bench: (\w+) (\d[\d,]*(?:\.\d+)?)')
SOURCES = ['arch/**/*.[chS]', 'include/**/*.h', 'kernel/**/*.c',
           'trace/*.[ch]', 'lib/*.c', 'scripts/*.py', 'docs/*.md',
           'README.md', 'Makefile']


def load_bench():
    spec = importlib.util.spec_from_file_location(
        'bench', os.path.join(ROOT, 'scripts', 'bench.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def cited_right(written, value):
    """Does the figure as written round from the measured one?"""
    written = written.replace(',', '')
    digits = len(written.partition('.')[2])
    return round(value, digits) == round(float(written), digits)


def citations(values):
    """(description, ok) for each `bench: KEY VALUE` in the sources."""
    for pattern in SOURCES:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern),
                                     recursive=True)):
            short = os.path.relpath(path, ROOT)
            for line_no, line in enumerate(read(short).splitlines(), 1):
                for key, written in CITE.findall(line):
                    ok = key in values and cited_right(written,
                                                       values[key])
                    yield (f'{short}:{line_no}: bench: {key} {written}'
                           f' (measured {values.get(key, "nothing")})', ok)


def checks():
    bench = load_bench()
    values = json.loads(read('docs/bench.json'))
    readme = read('README.md')
    try:
        rewritten = bench.rewrite_readme(readme, values)
    except ValueError as err:
        yield f'README: {err}', False
        return
    yield 'README figures are those of docs/bench.json', rewritten == readme
    yield ('writing them again changes nothing',
           bench.rewrite_readme(rewritten, values) == rewritten)
    yield from citations(values)


def main():
    return ktap.report(list(checks()))


if __name__ == '__main__':
    sys.exit(main())
