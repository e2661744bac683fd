"""test_bench_scale.py: docs/scale.md's figures and docs/scale.svg are
what `scripts/bench_scale.py` makes of docs/bench_scale.json, and its
table and charts say what the figures say.

Run with python3; prints KTAP.
"""

import importlib.util
import json
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))


def load_script():
    spec = importlib.util.spec_from_file_location(
        'bench_scale', os.path.join(ROOT, 'scripts', 'bench_scale.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def made_up(bs):
    """Figures for 1, 2 and 4 harts: stop_machine doubling, live flat."""
    figures = {}
    for harts in (1, 2, 4):
        v = {}
        for key, _ in bs.MEASURES:
            v[f'stop_machine_{key}'] = 1000 * harts
            v[f'live_{key}'] = 1500
        figures[str(harts)] = v
    return figures


def checks():
    bs = load_script()
    figures = json.loads(read('docs/bench_scale.json'))
    doc = read('docs/scale.md')
    yield ('docs/bench_scale.json has every number of harts',
           sorted(map(int, figures)) == list(bs.HARTS))
    rewritten = bs.rewrite_doc(doc, figures)
    yield 'docs/scale.md figures are those of docs/bench_scale.json', \
        rewritten == doc
    yield 'writing them again changes nothing', \
        bs.rewrite_doc(rewritten, figures) == rewritten
    yield 'docs/scale.svg is drawn from them', \
        read('docs/scale.svg') == bs.svg(figures)

    fake = made_up(bs)
    rows = [line for line in bs.table(fake) if line.startswith('| 4 |')]
    yield 'a row per number of harts, a column per measure and mode', \
        rows == ['| 4 | ' + ' | '.join(['4,000', '1,500'] *
                                        len(bs.MEASURES)) + ' |']
    chart = bs.text_chart(fake, 'switch_one_insns', 'title')
    bars = {line.split()[0] + line.split()[1]: line.split()[2]
            for line in chart[2:]}
    yield 'the largest figure has the longest bar', \
        bars['4stop_machine'] == '#' * bs.BAR and \
        bars['1stop_machine'] == '#' * (bs.BAR // 4)
    try:
        bs.rewrite_doc('no markers here\n', fake)
        refused = False
    except SystemExit:
        refused = True
    yield 'a document without the markers is refused', refused


def main():
    results = list(checks())
    print('KTAP version 1')
    print(f'1..{len(results)}')
    for i, (what, ok) in enumerate(results, 1):
        print(f"{'' if ok else 'not '}ok {i} - {what}")
    return 0 if all(ok for _, ok in results) else 1


if __name__ == '__main__':
    sys.exit(main())
