#!/usr/bin/env python3
"""mutate.py: mutation testing. Each mutant of the catalogue
(tests/mutants/*.mut) is a small source edit that breaks one mechanism;
the tests it names must notice. docs/testing.md explains the catalogue.

    scripts/mutate.py [-j N] [NAME,...]    the catalogue, or these mutants
    scripts/mutate.py --sample [--seed N]  5 mutants, each of another area
    scripts/mutate.py --check              does every mutant still apply?
    scripts/mutate.py --list
    scripts/mutate.py --file MINE.mut      the mutants of another file

Each mutant is applied to its own copy of the tree (the files git knows,
and build/ so that make recompiles only what the edit touches), which is
built, then its tests run in order until one fails. One line per mutant:

    killed NAME by TEST     a test failed (TEST: the first case that did)
    SURVIVED NAME           every test passed on the broken kernel
    STALE NAME: ...         its text is not in the tree exactly once
    ERROR NAME: ...         it does not build, or a test could not judge

The last line is `N killed, N survived` (and stale and errors, if any);
the exit status is 1 unless every mutant was killed. Before the mutants,
each test they name runs once on the clean copy: a test that fails there
proves nothing (--no-baseline skips this, as the sample does, since
`make test` runs those tests anyway).
"""

import argparse
import concurrent.futures
import glob
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOGUE = os.path.join(ROOT, 'tests', 'mutants')
# Each run's copies, apart from any other run's (make test's sample may
# run beside make mutate).
WORK = os.path.join('build', 'mutate', str(os.getpid()))
# build/ subdirectories a mutant's copy does not need.
BUILD_SKIP = {'mutate', 'fuzz', 'host-asan', 'none', 'lab', 'lab-check'}
SAMPLE_AREAS = 5
TEST_TIMEOUT = 300          # seconds; a hang the mutant caused is a kill
TIMEOUT_FACTOR = 3          # after a clean run: this many times its time,
MIN_TIMEOUT = 60            # but at least this
TAIL_LINES = 30
SUMMARY = re.compile(r'^(\d+) passed, (\d+) failed', re.M)
NOT_OK = re.compile(r'^not ok (\S+)', re.M)


class CatalogueError(Exception):
    """The catalogue itself is malformed."""


class Stale(Exception):
    """The mutant's text is not in the tree exactly once."""


# --- tests ---------------------------------------------------------------

TEST_FORMS = (
    (re.compile(r'^selftest\[(?P<tag>[\w-]+)\](?::(?P<suites>[\w,]+))?$'),
     'selftest'),
    (re.compile(r'^console/(?P<module>test_\w+\.py)(?:::(?P<func>test_\w+))?'
                r'\[smp(?P<smp>\d+)\]$'), 'console'),
    (re.compile(r'^host/(?P<host>test_\w+(?:\.py)?)$'), 'host'),
    (re.compile(r'^boot\[smp(?P<smp>\d+)\]:(?P<append>\S+) expect '
                r'(?P<expect>.+)$'), 'boot'),
    (re.compile(r'^make\[(?P<ftrace>patchable|mcount)\]$'), 'make'),
)


@dataclass(frozen=True)
class Test:
    """One `test =` line of the catalogue."""
    spec: str
    kind: str
    fields: tuple

    def get(self, key):
        return dict(self.fields).get(key)

    def builds(self):
        """The kernel builds (FTRACE modes) this test runs on: made
        before it (make[...] tests build for themselves)."""
        if self.kind == 'selftest':
            mode = self.get('tag').partition('-')[0]
            return {mode if mode in ('mcount', 'static', 'pad')
                    else 'patchable'}
        if self.kind in ('console', 'boot'):
            return {'patchable'}
        return set()


def parse_test(spec):
    for regex, kind in TEST_FORMS:
        m = regex.match(spec)
        if m:
            fields = tuple(sorted((k, v) for k, v in m.groupdict().items()
                                  if v is not None))
            return Test(spec, kind, fields)
    raise CatalogueError(f'unknown test form: {spec!r}')


# The selftest boots tests/run_all.py has, by label.
SELFTEST_TAGS = {'smp1', 'smp4', 'smp1-icount', 'smp4-live', 'mcount-smp1',
                 'mcount-smp4', 'static-smp1', 'pad-smp2-live'}
# The make variables of each build but the default.
BUILD_VARS = {'mcount': 'FTRACE=mcount', 'static': 'FTRACE=static',
              'pad': 'PAD_TEXT=3M'}


def selftest_suites(root):
    """The suite names SELFTEST_SUITE(...) and SELFTEST_SUITE_INIT(...)
    define in the tree."""
    names = set()
    for path in [p for d in ('arch', 'kernel', 'lib', 'trace')
                 for p in glob.glob(os.path.join(root, d, '**', '*.c'),
                                    recursive=True)]:
        with open(path, errors='replace') as f:
            names.update(re.findall(r'^SELFTEST_SUITE(?:_INIT)?\((\w+)',
                                    f.read(), re.M))
    return names


def test_problem(test, root, suites):
    """Why this test cannot run in the tree at root, or None."""
    if test.kind == 'selftest':
        if test.get('tag') not in SELFTEST_TAGS:
            return f'no selftest boot {test.get("tag")}'
        unknown = set((test.get('suites') or '').split(',')) - suites - {''}
        return f'no selftest suite {",".join(sorted(unknown))}' \
            if unknown else None
    if test.kind == 'console':
        path = os.path.join(root, 'tests', 'console', test.get('module'))
        if not os.path.exists(path):
            return f'no file tests/console/{test.get("module")}'
        func = test.get('func')
        with open(path) as f:
            if func and not re.search(rf'^def {func}\(', f.read(), re.M):
                return f'no function {func} in tests/console/' \
                       f'{test.get("module")}'
    if test.kind == 'host':
        name = test.get('host')
        src = name if name.endswith('.py') else name + '.c'
        if not os.path.exists(os.path.join(root, 'tests', 'host', src)):
            return f'no file tests/host/{src}'
    return None


# --- the catalogue -------------------------------------------------------

@dataclass
class Mutant:
    name: str
    area: str
    where: str                      # catalogue file:line, for messages
    file: str = ''
    function: str = ''
    find: str = ''
    replace: str = None
    reason: str = ''
    tests: list = field(default_factory=list)
    survives: str = ''              # a known survivor: why, what to write
    timeout: int = 0

    def builds(self):
        return set().union(*(t.builds() for t in self.tests))

    def clean_builds(self):
        """What the clean copy needs built: also make[...]'s, so that
        the mutant's copy only recompiles what it changed."""
        return self.builds() | {t.get('ftrace') for t in self.tests
                                if t.kind == 'make'}


KEY = re.compile(r'^(?P<key>[a-z]+)\s*(?:=\s?(?P<value>.*)|(?P<block><<))$')
SINGLE = ('file', 'function', 'reason', 'survives', 'timeout')


def parse_catalogue_file(path):
    """The mutants of one .mut file; its name (less .mut) is their area."""
    area = os.path.splitext(os.path.basename(path))[0]
    with open(path) as f:
        lines = f.read().split('\n')
    mutants, m, i = [], None, 0
    while i < len(lines):
        line, where = lines[i], f'{os.path.relpath(path, ROOT)}:{i + 1}'
        i += 1
        if not line.strip() or line.startswith('#'):
            continue
        head = re.match(r'^\[([a-z0-9][a-z0-9-]*)\]$', line)
        if head:
            m = Mutant(head[1], area, where)
            mutants.append(m)
            continue
        kv = KEY.match(line)
        if not kv or m is None:
            raise CatalogueError(f'{where}: cannot parse {line!r}')
        key, value = kv['key'], kv['value']
        if kv['block']:
            end = lines.index('>>', i) if '>>' in lines[i:] else -1
            if end < 0:
                raise CatalogueError(f'{where}: no `>>` ends the block')
            value, i = '\n'.join(lines[i:end]), end + 1
        set_key(m, key, value, where)
    return mutants


def set_key(m, key, value, where):
    if key == 'test':
        m.tests.append(parse_test(value))
    elif key in ('find', 'replace'):
        setattr(m, key, value)
    elif key == 'timeout':
        m.timeout = int(value)
    elif key in SINGLE:
        setattr(m, key, value.strip())
    else:
        raise CatalogueError(f'{where}: unknown key {key!r}')


def load_catalogue(paths=None):
    """The mutants of these .mut files (default: the catalogue's)."""
    mutants = []
    if paths is None:
        paths = sorted(glob.glob(os.path.join(CATALOGUE, '*.mut')))
    for path in paths:
        mutants += parse_catalogue_file(path)
    seen = set()
    for m in mutants:
        missing = [k for k in ('file', 'find', 'reason')
                   if not getattr(m, k)]
        if m.replace is None:
            missing.append('replace')
        if not m.tests:
            missing.append('test')
        if missing:
            raise CatalogueError(f'{m.where}: {m.name} has no '
                                 f'{", ".join(missing)}')
        if m.name in seen:
            raise CatalogueError(f'{m.where}: a second mutant {m.name}')
        if m.find == m.replace:
            raise CatalogueError(f'{m.where}: {m.name} changes nothing')
        seen.add(m.name)
    return mutants


# --- applying a mutant ---------------------------------------------------

def function_span(text, name, path):
    """(start, end) offsets of function name's definition in text: a C
    function up to its closing `}` at column 0, a Python def up to the
    next line indented no deeper, an assembly label up to the next."""
    lines = text.split('\n')
    offs = [0]
    for line in lines:
        offs.append(offs[-1] + len(line) + 1)
    spans = []
    for i, line in enumerate(lines):
        end = span_end(lines, i, name, path)
        if end is not None:
            spans.append((offs[i], offs[end]))
    if len(spans) != 1:
        raise Stale(f'{path}: function {name} is defined {len(spans)} '
                    'times' if spans else f'{path}: no function {name}')
    return spans[0]


def span_end(lines, i, name, path):
    """If lines[i] starts the definition of name, the line after it."""
    line = lines[i]
    if path.endswith('.py'):
        m = re.match(rf'^(\s*)def {re.escape(name)}\(', line)
        if not m:
            return None
        j = i + 1
        while j < len(lines) and (not lines[j].strip() or
                                  lines[j].startswith(m[1] + ' ')):
            j += 1
        return j
    if path.endswith('.S'):
        if not re.match(rf'^{re.escape(name)}:', line):
            return None
        j = i + 1
        while j < len(lines) and not re.match(r'^[\w.]+:', lines[j]):
            j += 1
        return j
    if not re.match(rf'^[\w].*\b{re.escape(name)}\(', line) and \
       not re.match(rf'^{re.escape(name)}\(', line):
        return None
    j = i
    while j < len(lines) and not lines[j].rstrip().endswith(('{', ';')):
        j += 1
    if j == len(lines) or lines[j].rstrip().endswith(';'):
        return None                 # a declaration
    while j < len(lines) and lines[j] != '}':
        j += 1
    return j + 1 if j < len(lines) else None


def mutated_text(m, root):
    """The mutant's file with the edit made; Stale if it cannot be."""
    path = os.path.join(root, m.file)
    if not os.path.exists(path):
        raise Stale(f'no file {m.file}')
    with open(path) as f:
        text = f.read()
    start, end = function_span(text, m.function, m.file) \
        if m.function else (0, len(text))
    count = text.count(m.find, start, end)
    if count != 1:
        where = f'{m.file}:{m.function}' if m.function else m.file
        first = m.find.strip().split('\n')[0]
        raise Stale(f'{where}: the text is there {count} times, not once: '
                    f'{first!r}' + (' ...' if '\n' in m.find.strip()
                                    else ''))
    at = text.index(m.find, start, end)
    return text[:at] + m.replace + text[at + len(m.find):]


def apply(m, root):
    text = mutated_text(m, root)
    with open(os.path.join(root, m.file), 'w') as f:
        f.write(text)


# --- copies of the tree ----------------------------------------------------

def tree_files(root):
    """The files of the tree: what git tracks or would (not build/)."""
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-z',
                              '--cached', '--others', '--exclude-standard'],
                             capture_output=True, check=True).stdout
        names = sorted(set(out.decode().split('\0')) - {''})
    except (OSError, subprocess.CalledProcessError):
        names = [os.path.relpath(os.path.join(d, f), root)
                 for d, dirs, files in os.walk(root)
                 for f in files if not d.startswith(
                     (os.path.join(root, 'build'), os.path.join(root, '.')))]
    return [n for n in names if os.path.isfile(os.path.join(root, n))]


def copy_tree(root, dst):
    """Sources and build outputs, times kept, so make sees what is new."""
    for name in tree_files(root):
        os.makedirs(os.path.join(dst, os.path.dirname(name)), exist_ok=True)
        shutil.copy2(os.path.join(root, name), os.path.join(dst, name))
    build = os.path.join(root, 'build')
    if os.path.isdir(build):
        for entry in os.listdir(build):
            if entry in BUILD_SKIP:
                continue
            src = os.path.join(build, entry)
            out = os.path.join(dst, 'build', entry)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            if os.path.isdir(src):
                shutil.copytree(src, out, symlinks=True)
            else:
                shutil.copy2(src, out)


def child_env():
    """No jobserver of a calling make, no __pycache__ in the copies."""
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL')}
    env['PYTHONDONTWRITEBYTECODE'] = '1'
    return env


_live = set()
_live_lock = threading.Lock()


def run(cmd, cwd, timeout=None):
    """(exit status or None on timeout, output). The command runs in its
    own process group, all of it killed on a timeout."""
    p = subprocess.Popen(cmd, cwd=cwd, env=child_env(), text=True,
                         errors='replace', stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    with _live_lock:
        _live.add(p)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        kill_group(p)
        out, _ = p.communicate()
        return None, out
    finally:
        with _live_lock:
            _live.discard(p)


def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass                        # all of it exited meanwhile


def kill_live():
    with _live_lock:
        for p in list(_live):
            kill_group(p)


def tail(text, lines=TAIL_LINES):
    return '\n'.join(text.rstrip().splitlines()[-lines:])


def host_binary(test):
    name = test.get('host')
    return None if name.endswith('.py') else f'build/host/{name}'


def build(root, builds, tests, jobs):
    """Build what the tests need; None, or why it failed."""
    goals = [['all'] + ([BUILD_VARS[b]] if b in BUILD_VARS else [])
             for b in sorted(builds)]
    hosts = sorted({host_binary(t) for t in tests
                    if t.kind == 'host' and host_binary(t)})
    if hosts:
        goals.append(hosts)
    for goal in goals:
        status, out = run(['make', f'-j{jobs}', '--no-print-directory'] +
                          goal, root)
        if status != 0:
            return f'make {" ".join(goal)} failed:\n{tail(out)}'
    return None


# --- running a test --------------------------------------------------------

@dataclass
class Outcome:
    status: str                     # 'pass', 'fail' or 'error'
    seconds: float
    detail: str = ''
    case: str = ''                  # the first case that failed


def run_all_command(test):
    cmd = [sys.executable, 'tests/run_all.py', '-j1', '--build', 'build']
    if test.kind == 'selftest':
        label = f'selftest[{test.get("tag")}]'
        if test.get('tag').startswith('mcount-'):
            cmd += ['--mcount-build', 'build/mcount']
        if test.get('tag').startswith('static-'):
            cmd += ['--static-build', 'build/static']
        if test.get('tag').startswith('pad-'):
            cmd += ['--pad-build', 'build/pad']
        if test.get('suites'):
            cmd += ['--suites', test.get('suites')]
    elif test.kind == 'console':
        label = f'console/{test.get("module")}[smp{test.get("smp")}]'
        if test.get('func'):
            cmd += ['--functions', f'^{test.get("func")}$']
    else:
        label = f'host/{test.get("host")}'
        path = host_binary(test) or f'tests/host/{test.get("host")}'
        cmd.append(path)
    return cmd + ['--only', f'^{re.escape(label)}$']


def run_all_outcome(status, out, seconds):
    summary = SUMMARY.search(out)
    if summary is None or summary[1] == summary[2] == '0':
        return Outcome('error', seconds, 'ran no test:\n' + tail(out))
    failed = NOT_OK.search(out)
    if int(summary[2]) or status != 0:
        return Outcome('fail', seconds, tail(out),
                       failed[1] if failed else '')
    return Outcome('pass', seconds)


def boot_outcome(test, root, timeout, start):
    """Boot with -append until expect shows, QEMU exits, or timeout."""
    sys.path.insert(0, os.path.join(ROOT, 'tests', 'console'))
    import harness  # noqa: E402  (this tree's, for its QEMU command)
    k = harness.Kernel(os.path.join(root, 'build'), smp=int(test.get('smp')),
                       append=test.get('append'))
    expect = re.compile(test.get('expect'))
    try:
        k.launch()
        while (not expect.search(k.output) and k.proc.poll() is None and
               time.monotonic() < start + timeout):
            time.sleep(0.2)
    finally:
        k.close()
    seconds = time.monotonic() - start
    if expect.search(k.output):
        return Outcome('pass', seconds)
    return Outcome('fail', seconds, f'no {expect.pattern!r} in:\n'
                   + tail(k.output),
                   f'boot[smp{test.get("smp")}]:{test.get("append")}')


def run_test(test, root, timeout):
    start = time.monotonic()
    if test.kind == 'boot':
        return boot_outcome(test, root, timeout, start)
    if test.kind == 'make':
        cmd = ['make', '-j1', '--no-print-directory', 'all']
        if test.get('ftrace') == 'mcount':
            cmd.append('FTRACE=mcount')
    else:
        cmd = run_all_command(test)
    status, out = run(cmd, root, timeout)
    seconds = time.monotonic() - start
    if status is None:
        return Outcome('fail', seconds, f'timed out after {timeout}s:\n'
                       + tail(out), f'{test.spec} (timed out after '
                       f'{timeout}s)')
    if test.kind == 'make':
        return Outcome('fail', seconds, tail(out)) if status else \
            Outcome('pass', seconds)
    return run_all_outcome(status, out, seconds)


# --- one mutant ------------------------------------------------------------

@dataclass
class Verdict:
    mutant: Mutant
    kind: str                       # killed, SURVIVED, STALE, ERROR
    text: str = ''
    details: str = ''

    def line(self):
        name = self.mutant.name
        if self.kind == 'killed':
            return f'killed {name} by {self.text}'
        if self.kind == 'SURVIVED':
            return f'SURVIVED {name}'
        return f'{self.kind} {name}: {self.text}'


class Run:
    """What every mutant shares: options, the clean copy, its results."""

    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.base = os.path.join(work, 'base')
        self.baseline = {}          # test spec -> Outcome on the clean copy

    def timeout(self, m, test):
        clean = self.baseline.get(test.spec)
        if m.timeout:
            return m.timeout
        if clean:
            return max(MIN_TIMEOUT, int(TIMEOUT_FACTOR * clean.seconds))
        return self.args.timeout

    def mutant(self, m):
        dst = os.path.join(self.work, m.name)
        shutil.rmtree(dst, ignore_errors=True)
        try:
            return self.judge(m, dst)
        finally:
            if not self.args.keep:
                shutil.rmtree(dst, ignore_errors=True)

    def clean_ok(self, test):
        return self.baseline.get(test.spec, Outcome('pass', 0)).status in \
            ('pass', 'flaky')

    def judge(self, m, dst):
        """Tests that fail on the clean tree are not run: a survivor of
        the others is an error, since those might have killed it."""
        tests = [t for t in m.tests if self.clean_ok(t)]
        broken = ', '.join(t.spec for t in m.tests if not self.clean_ok(t))
        if not tests:
            return Verdict(m, 'ERROR', f'fails on the clean tree: {broken}')
        shutil.copytree(self.base, dst, symlinks=True)
        try:
            apply(m, dst)
        except Stale as e:
            return Verdict(m, 'STALE', str(e))
        if m.file.endswith('.py'):
            status, out = run([sys.executable, '-m', 'py_compile', m.file],
                              dst)
            if status:
                return Verdict(m, 'ERROR', 'does not compile', tail(out))
        problem = build(dst, m.builds(), m.tests, 1)
        if problem:
            return Verdict(m, 'ERROR', 'does not build', problem)
        for test in tests:
            o = run_test(test, dst, self.timeout(m, test))
            if o.status == 'fail':
                return Verdict(m, 'killed', o.case or test.spec, o.detail)
            if o.status == 'error':
                return Verdict(m, 'ERROR', f'{test.spec} {o.detail}')
        details = [f'reason: {m.reason}',
                   'passed: ' + '; '.join(t.spec for t in tests)]
        if broken:
            return Verdict(m, 'ERROR', 'survived, but not run as they fail '
                           f'on the clean tree: {broken}', '\n'.join(details))
        if m.survives:
            details.append(f'known survivor: {m.survives}')
        return Verdict(m, 'SURVIVED', details='\n'.join(details))


# --- the whole run -----------------------------------------------------------

def default_seed():
    """The first 8 hex digits of the commit (0 outside a git tree)."""
    try:
        head = subprocess.run(['git', '-C', ROOT, 'rev-parse', 'HEAD'],
                              capture_output=True, text=True, check=True)
        return int(head.stdout[:8], 16)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return 0


def rank(seed, name):
    return hashlib.sha256(f'{seed}:{name}'.encode()).hexdigest()


def sample(mutants, seed):
    """SAMPLE_AREAS areas, and one mutant of each: those that rank first
    by sha256("SEED:NAME"). Known survivors are left out."""
    areas = {}
    for m in mutants:
        if not m.survives:
            areas.setdefault(m.area, []).append(m)
    chosen = sorted(areas, key=lambda a: rank(seed, a))[:SAMPLE_AREAS]
    picks = [min(areas[a], key=lambda m: rank(seed, m.name))
             for a in chosen]
    return sorted(picks, key=mutants.index)


def select(args, mutants):
    if args.sample:
        seed = default_seed() if args.seed is None else args.seed
        picked = sample(mutants, seed)
        print(f'# seed {seed}: ' + ','.join(m.name for m in picked),
              flush=True)
        return picked
    if not args.names:
        return mutants
    wanted = [n for arg in args.names for n in arg.split(',') if n]
    by_name = {m.name: m for m in mutants}
    unknown = [n for n in wanted if n not in by_name]
    if unknown:
        sys.exit(f'mutate.py: no mutant {", ".join(unknown)} '
                 '(--list shows them)')
    return [by_name[n] for n in wanted]


def check_tests(mutants):
    """Every test a mutant names can run in this tree; else exit."""
    suites = selftest_suites(ROOT)
    problems = [f'{m.where}: {m.name}: {t.spec}: {p}'
                for m in mutants for t in m.tests
                for p in [test_problem(t, ROOT, suites)] if p]
    if problems:
        sys.exit('mutate.py: bad tests in the catalogue:\n  ' +
                 '\n  '.join(problems))


def clean_outcome(test, root, timeout):
    """The test on the clean copy; a failure gets a second chance, so
    that one flaky failure does not disable the test for every mutant
    (a test that fails only sometimes is a defect all the same)."""
    o = run_test(test, root, timeout)
    if o.status == 'pass':
        return o
    again = run_test(test, root, timeout)
    if again.status == 'pass':
        again.detail = 'flaky: failed once, then passed:\n' + o.detail
        again.status = 'flaky'
    return again


def prepare(run_, mutants):
    """The clean copy, built, and (unless --no-baseline) each test run
    on it once. Exits if the clean tree does not build."""
    shutil.rmtree(run_.base, ignore_errors=True)
    start = time.monotonic()
    copy_tree(ROOT, run_.base)
    tests = sorted({t for m in mutants for t in m.tests},
                   key=lambda t: t.spec)
    problem = build(run_.base,
                    set().union(*(m.clean_builds() for m in mutants)),
                    tests, run_.args.jobs)
    if problem:
        sys.exit(f'mutate.py: the clean tree does not build: {problem}')
    print(f'# clean copy built in {time.monotonic() - start:.0f}s',
          flush=True)
    if run_.args.no_baseline:
        return
    with concurrent.futures.ThreadPoolExecutor(run_.args.jobs) as pool:
        outcomes = pool.map(lambda t: clean_outcome(t, run_.base,
                                                    run_.args.timeout),
                            tests)
        for test, o in zip(tests, outcomes):
            run_.baseline[test.spec] = o
            print(f'# clean: {o.status} {test.spec} ({o.seconds:.0f}s)',
                  flush=True)
            if o.status != 'pass':
                print('\n'.join('#   ' + line
                                for line in o.detail.splitlines()))


def report(verdict, verbose):
    print(verdict.line(), flush=True)
    show = verdict.kind != 'killed' or verbose
    if show and verdict.details:
        for line in verdict.details.splitlines():
            print(f'    {line}')


def check_only(mutants):
    """--check: report each mutant that no longer applies."""
    stale = 0
    for m in mutants:
        try:
            mutated_text(m, ROOT)
        except Stale as e:
            stale += 1
            print(f'STALE {m.name}: {e}')
    print(f'{len(mutants) - stale} apply, {stale} stale')
    return 1 if stale else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('names', nargs='*', metavar='NAME,...')
    parser.add_argument('-j', '--jobs', type=int, default=2)
    parser.add_argument('--sample', action='store_true',
                        help=f'{SAMPLE_AREAS} mutants, one per area')
    parser.add_argument('--seed', type=int,
                        help='for --sample; default: from the commit')
    parser.add_argument('--check', action='store_true',
                        help='only check that each mutant applies')
    parser.add_argument('--list', action='store_true')
    parser.add_argument('--file', action='append', metavar='PATH.mut',
                        help='mutants from this file instead of '
                        'tests/mutants/')
    parser.add_argument('--no-baseline', action='store_true',
                        help='do not first run the tests on the clean tree')
    parser.add_argument('--timeout', type=int, default=TEST_TIMEOUT,
                        help='seconds per test before a hang counts as a '
                        'kill')
    parser.add_argument('--keep', action='store_true',
                        help='keep the copies, in build/mutate/PID/')
    parser.add_argument('-v', '--verbose', action='store_true',
                        help='show the failure that killed each mutant')
    args = parser.parse_args()
    try:
        mutants = load_catalogue(args.file)
    except (CatalogueError, OSError) as e:
        sys.exit(f'mutate.py: {e}')
    if args.list:
        for m in mutants:
            print(f'{m.area:16} {m.name:40} {m.reason}')
        return 0
    mutants = select(args, mutants)
    if args.check:
        return check_only(mutants)
    check_tests(mutants)
    run_ = Run(args, os.path.join(ROOT, WORK))
    try:
        return judge_all(run_, mutants)
    finally:
        if args.keep:
            print(f'# the copies are in {WORK}')
        else:
            shutil.rmtree(run_.work, ignore_errors=True)


def judge_all(run_, mutants):
    args = run_.args
    prepare(run_, mutants)
    counts = {'killed': 0, 'SURVIVED': 0, 'STALE': 0, 'ERROR': 0}
    started = time.monotonic()
    pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
    try:
        for verdict in pool.map(run_.mutant, mutants):
            report(verdict, args.verbose)
            counts[verdict.kind] += 1
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        kill_live()
        raise
    pool.shutdown()
    print(f'# {time.monotonic() - started:.0f}s')
    summary = f'{counts["killed"]} killed, {counts["SURVIVED"]} survived'
    for kind, word in (('STALE', 'stale'), ('ERROR', 'errors')):
        if counts[kind]:
            summary += f', {counts[kind]} {word}'
    print(summary)
    return 0 if counts['killed'] == len(mutants) else 1


if __name__ == '__main__':
    sys.exit(main())
