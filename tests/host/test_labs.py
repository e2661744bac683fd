#!/usr/bin/env python3
"""test_labs.py: every lab is consistent, without a kernel run.

`scripts/lab.py check`: there are at least six labs (tests/labs/); each
one's stubs replace functions that exist and build without a warning
(its stubbed files compiled in a copy of the sources); its handout
(docs/labs/) names each stubbed `file:function`, each graded test and
each mutant; each mutant is in the catalogue and one of its tests is
graded. That the grader really takes points off each stub and each
mutant is `make grade-check`'s to show (slow: a kernel run per case).

Run with python3; prints KTAP.
"""

import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))

if __name__ == '__main__':
    sys.exit(subprocess.run([sys.executable,
                             os.path.join(ROOT, 'scripts', 'lab.py'),
                             'check']).returncode)
