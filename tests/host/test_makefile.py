#!/usr/bin/env python3
"""test_makefile.py: the Makefile relinks kernel.elf when the list of
sources changes, not only when an object is newer than it: a source
removed leaves no newer object behind, yet the kernel must lose it.
And it recompiles an object whose command changed (a file leaving the
traced ones), though no source is newer than it, and only that object.

Works on a copy of the tree and of its build (file times kept), so the
real build is never touched; each step relinks at most once. Run with
python3 [BUILD]; prints KTAP. Skips without a built kernel.elf.
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SOURCES = ('Makefile', 'linker.ld', 'arch', 'include', 'kernel', 'lib',
           'scripts', 'trace')
# Other builds and tests under build/ that kernel.elf does not need.
OTHER_OUTPUTS = ('mcount', 'none', 'host', 'host-asan', 'fuzz', 'gc',
                 'lab', 'lab-check', 'mutate')
PROBE = 'kernel/relink_probe.c'
PROBE_TEXT = '/* relink_probe.c: a source test_makefile.py adds. */\n' \
             'void relink_probe(void)\n{\n}\n'


def copy_tree(build, dest):
    for name in SOURCES:
        src = os.path.join(ROOT, name)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dest, name),
                            ignore=shutil.ignore_patterns('__pycache__'))
        else:
            shutil.copy2(src, dest)
    shutil.copytree(os.path.join(ROOT, build), os.path.join(dest, 'build'),
                    ignore=lambda d, names: [n for n in names
                                             if n in OTHER_OUTPUTS])


def make(tree, *args):
    proc = subprocess.run(['make', '-s', '--no-print-directory', *args],
                          cwd=tree,
                          capture_output=True, text=True)
    if proc.returncode:
        raise AssertionError(f'make failed:\n{proc.stdout}{proc.stderr}')


def linked_symbols(tree):
    with open(os.path.join(tree, 'build', 'kernel.sym')) as f:
        return {line.split()[-1] for line in f if line.strip()}


def elf_time(tree):
    return os.stat(os.path.join(tree, 'build', 'kernel.elf')).st_mtime_ns


def test_unchanged_tree_does_not_relink(tree):
    make(tree)
    before = elf_time(tree)
    make(tree)
    assert elf_time(tree) == before, 'a second make relinked kernel.elf'


def test_added_source_is_linked(tree):
    with open(os.path.join(tree, PROBE), 'w') as f:
        f.write(PROBE_TEXT)
    make(tree)
    assert 'relink_probe' in linked_symbols(tree), \
        'kernel.elf lacks the added source'


def test_removed_source_is_unlinked(tree):
    os.remove(os.path.join(tree, PROBE))
    make(tree)
    assert 'relink_probe' not in linked_symbols(tree), \
        'kernel.elf still holds the removed source'
    stale = os.path.join(tree, 'build', PROBE.replace('.c', '.o'))
    assert not os.path.exists(stale), f'{stale} lingers'


def test_changed_flags_recompile(tree):
    obj = os.path.join(tree, 'build', 'kernel', 'trace_fixtures.o')
    other = os.path.join(tree, 'build', 'kernel', 'sched.o')
    before = os.stat(obj).st_mtime_ns
    other_before = os.stat(other).st_mtime_ns
    path = os.path.join(tree, 'Makefile')
    with open(path) as f:
        text = f.read()
    assert 'kernel/selftest.c lib/% ' in text, 'NOTRACE moved'
    with open(path, 'w') as f:
        f.write(text.replace('kernel/selftest.c lib/% ',
                             'kernel/selftest.c kernel/trace_fixtures.c '
                             'lib/% ', 1))
    make(tree, '-j2')
    assert os.stat(obj).st_mtime_ns != before, \
        'trace_fixtures.o was not rebuilt when it left the traced files'
    assert os.stat(other).st_mtime_ns == other_before, \
        'sched.o was rebuilt, though its own command did not change'


TESTS = (test_unchanged_tree_does_not_relink, test_added_source_is_linked,
         test_removed_source_is_unlinked, test_changed_flags_recompile)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    print('KTAP version 1')
    print(f'1..{len(TESTS)}')
    if not os.path.exists(os.path.join(ROOT, build, 'kernel.elf')):
        for i, test in enumerate(TESTS, 1):
            print(f'ok {i} - {test.__name__} # SKIP no {build}/kernel.elf')
        return 0
    failed = 0
    with tempfile.TemporaryDirectory() as tree:
        copy_tree(build, tree)
        for i, test in enumerate(TESTS, 1):
            try:
                test(tree)
                print(f'ok {i} - {test.__name__}')
            except AssertionError as e:
                failed += 1
                print(f'# {e}'.replace('\n', '\n# '))
                print(f'not ok {i} - {test.__name__}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
