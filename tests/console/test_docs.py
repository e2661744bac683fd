"""test_docs.py: every shell command the docs show still works.

The ```console blocks of docs/*.md and README.md hold lines typed at
the prompt (`rvftrace:DIR# COMMAND`). This types each document's
commands, in order, at a booted kernel and fails on an error a user
would see: an unknown command, a missing file, a refused write, a
usage message, or an oops.
"""

import glob
import os
import re

SMP = (4,)
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
PROMPT = re.compile(r'^\s*rvftrace:[^#\n]*# (.*)$')
ERRORS = (': not found', 'syntax error', 'No such file', 'write error',
          'usage:', 'Invalid argument', 'not a traceable function', 'no such')


def console_commands(path):
    """The commands typed in the console blocks of one document."""
    commands, inside = [], False
    for line in open(path):
        if line.startswith('```'):
            inside = line.strip() == '```console' if not inside else False
            continue
        m = PROMPT.match(line) if inside else None
        if m:
            commands.append(m[1])
    return commands


def documents():
    return sorted(glob.glob(os.path.join(ROOT, 'docs', '*.md')) +
                  [os.path.join(ROOT, 'README.md')])


def test_docs_have_commands(k):
    assert sum(len(console_commands(d)) for d in documents()) >= 10


def test_every_documented_command_runs(k):
    for doc in documents():
        k.run('cd /')
        for cmd in console_commands(doc):
            out = k.run(cmd, timeout=60)
            bad = [e for e in ERRORS if e in out]
            assert not bad, f'{os.path.basename(doc)}: `{cmd}` printed:\n{out}'
        k.run('echo nop > /sys/kernel/tracing/current_tracer')
