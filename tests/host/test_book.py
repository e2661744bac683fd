#!/usr/bin/env python3
"""test_book.py: the book (docs/book/) is whole, in order, and true.

Every chapter of the course is there, in its order, and the index
(docs/book/README.md) links them in that order; each has the sections
"The idea", "The data structures", "What Linux does differently" and
"Exercises", in that order, and at least one listing;
every listing (`<!-- listing: FILE:NAME -->`) names code that exists
and shows it as the tree holds it now, line numbers included, as does
the count of the core listing (scripts/listing.py: `make listing`
regenerates them); every `make lab LAB=NAME` names a lab that exists.
Two checks show the staleness test can fail: a listing with one line
changed, and a name no file defines.

Run with python3; prints KTAP.
"""

import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
import ktap  # noqa: E402
import listing  # noqa: E402

BOOK = os.path.join(ROOT, 'docs', 'book')
# The course's order (issue 19): one chapter per mechanism.
CHAPTERS = [
    '01-call-site.md',
    '02-record-table.md',
    '03-patching.md',
    '04-trampolines.md',
    '05-ops-and-hashes.md',
    '06-stop-machine-and-live.md',
    '07-ring-buffer.md',
    '08-function-graph.md',
    '09-tracefs.md',
    '10-events.md',
    '11-livepatch.md',
]
SECTIONS = ['## The idea', '## The data structures',
            '## What Linux does differently', '## Exercises']
LAB = re.compile(r'make lab LAB=(\w+)')


def chapter_checks():
    present = sorted(os.path.basename(p)
                     for p in glob.glob(os.path.join(BOOK, '*.md')))
    yield ('docs/book/ holds the index and the chapters, no other',
           present == sorted(CHAPTERS + ['README.md']))
    index = open(os.path.join(BOOK, 'README.md')).read()
    linked = [m for m in re.findall(r'\]\(([\w.-]+\.md)\)', index)
              if m in CHAPTERS]
    yield 'docs/book/README.md links every chapter in order', \
        linked == CHAPTERS
    for name in CHAPTERS:
        path = os.path.join(BOOK, name)
        if not os.path.exists(path):
            yield f'docs/book/{name} exists', False
            continue
        text = open(path).read()
        lines = text.split('\n')
        for section in SECTIONS:
            yield f'docs/book/{name}: {section[3:]}', section in lines
        found = [s for s in lines if s in SECTIONS]
        yield f'docs/book/{name}: the sections in order', found == SECTIONS
        yield (f'docs/book/{name}: has a listing',
               listing.LISTING.search(text) is not None)


def listing_checks():
    for doc in listing.documents():
        short = os.path.relpath(doc, ROOT)
        text = open(doc).read()
        for m in listing.LISTING.finditer(text):
            ref = f'{m.group(1)}:{m.group(2)}'
            try:
                listing.find(m.group(1), m.group(2))
                ok = True
            except listing.ListingError:
                ok = False
            yield f'{short}: listing {ref} names code that exists', ok
        try:
            ok = listing.render_count(listing.render_book(text),
                                      listing.core()[1]) == text
        except listing.ListingError:
            ok = False
        yield f'{short}: listings current (make listing)', ok


def lab_checks():
    for doc in sorted(glob.glob(os.path.join(BOOK, '*.md'))):
        short = os.path.relpath(doc, ROOT)
        for lab in sorted(set(LAB.findall(open(doc).read()))):
            yield (f'{short}: lab {lab} exists',
                   os.path.exists(os.path.join(ROOT, 'tests', 'labs',
                                               f'{lab}.lab')))


def self_checks():
    """The staleness check can fail."""
    text = ('<!-- listing: trace/ftrace.c:ftrace_ops_test -->\n'
            '```\n```\n<!-- /listing -->\n')
    fresh = listing.render_book(text)
    changed = fresh.replace('ftrace_ops_test(', 'ftrace_ops_tset(', 1)
    yield ('a listing with a line changed is stale',
           fresh != text and changed != fresh and
           listing.render_book(changed) == fresh)
    try:
        listing.find('trace/ftrace.c', 'no_such_function')
        ok = False
    except listing.ListingError:
        ok = True
    yield 'a listing of a name the file does not define fails', ok
    yield ('the core listing starts at the site and ends in the ring '
           'buffer', listing.CORE[0].endswith(':fib') and
           listing.CORE[-1].startswith('trace/ring_buffer_write.c:'))


def main():
    return ktap.report(list(chapter_checks()) + list(listing_checks()) +
                       list(lab_checks()) + list(self_checks()))


if __name__ == '__main__':
    sys.exit(main())
