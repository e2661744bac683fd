#!/usr/bin/env python3
"""test_trace_demo.py: the conversion half of `make trace-demo`
(scripts/trace_demo.py --convert-only) on a real rvftrace capture, the
same commands on `run sort 16`: trace.txt in, trace.json and flame.svg
out, each holding the calls the trace shows. Prints KTAP.

    python3 tests/host/test_trace_demo.py
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import ktap

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CAPTURE = os.path.join(HERE, 'fixtures', 'trace', 'rvftrace-sort16.txt')
SVG = '{http://www.w3.org/2000/svg}'
# The capture's own numbers: 23 sift_down calls inside one sort().
SIFT_DOWN_CALLS = 23
SORT_US = 419.8


def convert():
    """The demo's outputs for the capture, as (json, svg) texts."""
    out = tempfile.mkdtemp()
    try:
        shutil.copy(CAPTURE, os.path.join(out, 'trace.txt'))
        subprocess.run([sys.executable,
                        os.path.join(ROOT, 'scripts', 'trace_demo.py'),
                        '--convert-only', '--out', out],
                       check=True, capture_output=True)
        with open(os.path.join(out, 'trace.json')) as f:
            doc = json.load(f)
        with open(os.path.join(out, 'flame.svg')) as f:
            svg = f.read()
    finally:
        shutil.rmtree(out)
    return doc, svg


DOC, SVG_TEXT = convert()


def slices(name):
    return [e for e in DOC['traceEvents']
            if e.get('ph') == 'X' and e['name'] == name]


def test_capture_is_the_demo_shape():
    text = open(CAPTURE).read()
    assert text.startswith('# tracer: function_graph\n'), text[:80]
    assert len(re.findall(r'\| +sift_down\(\);$', text, re.M)) == \
        SIFT_DOWN_CALLS


def test_json_has_every_call():
    (sort,) = slices('sort')
    assert abs(sort['dur'] - SORT_US) < 0.01, sort
    assert len(slices('sift_down')) == SIFT_DOWN_CALLS


def test_json_nests_calls_in_sort():
    (sort,) = slices('sort')
    for s in slices('sift_down'):
        assert s['tid'] == sort['tid'] and s['pid'] == sort['pid'], s
        assert sort['ts'] <= s['ts'] and \
            s['ts'] + s['dur'] <= sort['ts'] + sort['dur'] + 1e-6, s


def test_flame_graph_stacks():
    root = ET.fromstring(SVG_TEXT)
    titles = [t.text for t in root.iter(f'{SVG}title')]
    names = [t.split(' (')[0] for t in titles]
    assert names == ['all', 'sort', 'sift_down'], titles
    assert titles[1] == f'sort ({int(SORT_US * 1000):,} ns, 100.00%)', titles
    assert 'run sort 2000' in SVG_TEXT      # the demo's title


def main():
    return ktap.run(ktap.tests_in(globals()))


if __name__ == '__main__':
    sys.exit(main())
