"""test_docs.py: every sample in the docs is what the kernel prints.

The samples of docs/*.md and README.md (the blocks after a `<!-- sample:
... -->` marker, scripts/docs.py) are made again from fresh runs: the
console samples typed at a booted kernel, the boot and host samples
run. Each must match its document, addresses, instruction words,
timestamps, durations and spacing normalised (and every number, in a
sample marked `vary`). `make docs` rewrites them after a change.
"""

import os
import sys

import harness

SMP = (1,)
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
import docs  # noqa: E402


def test_docs_have_samples(k):
    count = sum(isinstance(p, docs.Sample)
                for d in docs.documents() for p in docs.parse(open(d).read()))
    assert count >= 20, count


def test_normalise_keeps_what_matters(k):
    a = docs.normalise(['fib-3 [000] .....  4.412994: fib <-fib_main'])
    b = docs.normalise(['fib-6 [000] .....     0.246168: fib <-fib_main'])
    assert a != b, 'a pid is not normalised away'
    c = docs.normalise(['fib: site 0x8020bf60 (fib+0x0/0x50)'])
    assert c == docs.normalise(['fib: site 0x802169b4 (fib+0x0/0x54)'])
    assert c != docs.normalise(['fib: site 0x802169b4 (sort+0x0/0x54)'])


def test_every_sample_matches_a_fresh_run(k):
    build = os.path.join(ROOT, harness.BUILD) \
        if not os.path.isabs(harness.BUILD) else harness.BUILD
    diffs = []
    for doc in docs.documents():
        diffs += docs.compare(doc, build)
    assert not diffs, ('samples differ from a fresh run (`make docs` '
                       'rewrites them):\n' + '\n'.join(diffs))
