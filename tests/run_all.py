#!/usr/bin/env python3
"""run_all.py: every test of rvftrace, with one verdict line per test.

    tests/run_all.py --build build [-j N] [host tests...]
                     [--fuzz fuzz targets... --fuzz-runs N]

Runs (a) each host test, a binary or a Python script (run by this
Python), one result per KTAP `ok N`/`not ok N` line, named after its
directory (host/, or host-asan/ for the same binaries under ASan and
UBSan); (b) each libFuzzer target for a fixed number of runs from its
seed corpus, one result each (fuzz/NAME); (c) the in-kernel selftests,
booted with `-append selftest` on 1 and 4 CPUs (and on 4 in live
patching mode, ftrace_patch=live), one result per case line; (d) each
console test module
tests/console/test_*.py on each of its SMP configurations, one result
per test function (a module may set SMP, APPEND and QEMU_ARGS for its
kernel); (f) the script suite, tests/scripts/*.tc packed into an
initramfs and run in the guest by its ftracetest.sh on 1 and 4 CPUs,
one result per script (scripts/NAME.tc[smpN]); (e) with --mutants, a sample of scripts/mutate.py's mutants,
one result each (mutant/NAME: ok when a test killed it). Independent
QEMUs run in parallel. A binary that
was not built (no clang for the sanitized ones) is a skipped result.
The last line is `N passed, N failed` (and `, N skipped`); the exit
status is 1 if any test failed.
"""

import argparse
import concurrent.futures
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import unittest
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONSOLE_DIR = os.path.join(ROOT, 'tests', 'console')
sys.path.insert(0, CONSOLE_DIR)
sys.path.insert(0, os.path.join(ROOT, 'tests', 'fuzz'))
import harness  # noqa: E402  (found through the paths set just above)
import run_fuzz  # noqa: E402

SELFTEST_SMP = (1, 4)
# The static build's suites: those of the tracer, whose core it runs
# otherwise than the other builds (the rest is the same code in each).
STATIC_SUITES = 'ftrace,fgraph,function_tracer,function_graph,events'
# The PAD_TEXT build's suites, in one boot: every site of theirs is far
# and calls through its veneer (asm/ftrace_veneer.h).
PAD_SUITES = 'ftrace,function_tracer,fgraph,function_graph,ftrace_live'
CONSOLE_SMP = (1, 4)
SELFTEST_TIMEOUT = 600         # a loaded 2-core host can take minutes
HOST_TIMEOUT = 120
NOT_BUILT = ('# SKIP not built: needs clang and its sanitizer and libFuzzer '
             'runtimes (Debian: clang libclang-rt-14-dev)')
TAIL_LINES = 30

# A KTAP result line; selftest cases are the ones indented 4 spaces.
RESULT = re.compile(r'^(?P<indent> *)(?P<not>not )?ok (?P<num>\d+)'
                    r'(?: - (?P<name>.*?))?(?P<skip> # SKIP.*)?$')
PLAN = re.compile(r'^1\.\.(\d+)$')
SUBTEST = re.compile(r'^    # Subtest: (\S+)')


@dataclass
class Result:
    name: str
    status: str             # 'ok', 'not ok' or 'skip'
    details: str = ''


def tail(text, lines=TAIL_LINES):
    return '\n'.join(text.splitlines()[-lines:])


# --- (a) host tests, (b) fuzz targets ----------------------------------

def ktap_results(lines, prefix, indent):
    """Results of the KTAP lines at one indent, each with the diagnostic
    lines printed since the result before it."""
    results, diag = [], []
    for line in lines:
        m = RESULT.match(line)
        if not m or len(m['indent']) != indent:
            diag.append(line)
            continue
        name = f'{prefix}{m["name"] or m["num"]}'
        if m['skip']:
            results.append(Result(name, 'skip', m['skip'].strip()))
        elif m['not']:
            results.append(Result(name, 'not ok', '\n'.join(diag)))
        else:
            results.append(Result(name, 'ok'))
        diag = []
    return results


def host_command(path):
    if path.endswith('.py'):
        return [sys.executable, os.path.abspath(path)]
    return [os.path.abspath(path)]


def run_host_test(path):
    name = f'{os.path.basename(os.path.dirname(path))}/' \
           f'{os.path.basename(path)}'
    if not os.path.exists(path):
        return [Result(name, 'skip', NOT_BUILT)]
    try:
        proc = subprocess.run(host_command(path), cwd=ROOT,
                              capture_output=True, text=True,
                              errors='replace', timeout=HOST_TIMEOUT)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors='replace') if e.stdout else ''
        return [Result(name, 'not ok',
                       f'timed out after {HOST_TIMEOUT}s\n{tail(out)}')]
    lines = proc.stdout.splitlines()
    results = ktap_results(lines, f'{name}/', 0)
    failed = any(r.status == 'not ok' for r in results)
    plans = [int(m[1]) for m in map(PLAN.match, lines) if m]
    output = tail(proc.stdout + proc.stderr)
    if proc.returncode != 0 and not failed:
        results.append(Result(name, 'not ok',
                              f'exit status {proc.returncode}\n{output}'))
    elif plans and plans[0] != len(results):
        results.append(Result(name, 'not ok',
                              f'planned {plans[0]} tests, ran '
                              f'{len(results)}\n{output}'))
    return results


def run_fuzz_target(path, build, runs):
    name = f'fuzz/{run_fuzz.target_name(path)}'
    if not os.path.exists(path):
        return [Result(name, 'skip', NOT_BUILT)]
    r = run_fuzz.run(path, build, runs=runs)
    return [Result(name, 'ok' if r.ok else 'not ok', r.details)]


# --- (c) in-kernel selftests --------------------------------------------

def selftest_cases(output, tag):
    """One result per case line, named selftest/SUITE/CASE[TAG]."""
    results, suite, block = [], '?', []
    for line in output.splitlines():
        m = SUBTEST.match(line)
        if m:
            suite, block = m[1], []
            continue
        block.append(line)
        m = RESULT.match(line)
        if m and len(m['indent']) == 4:
            results += ktap_results(block, f'selftest/{suite}/', 4)
            block = []
    for r in results:
        r.name += f'[{tag}]'
    return results, suite


def wait_exit_or_crash(k, timeout):
    """QEMU's exit status, or None as soon as the kernel crashed: an
    oops inside the oops path repeats until the timeout otherwise."""
    deadline = time.monotonic() + timeout
    while k.proc.poll() is None:
        if harness.CRASH.search(k.output):
            k.crash_report()        # lets the report finish printing
            return None
        if time.monotonic() > deadline:
            return k.wait(0)        # raises KernelError with the tail
        time.sleep(0.2)
    return k.wait(timeout)


def with_extra(append, extra):
    """A kernel command line with the words of --append added."""
    return ' '.join(w for w in (append, extra) if w) or None


def run_selftests(build, smp, icount=False, mode='', suites='', live=False,
                  extra=''):
    """One boot with -append selftest (selftest=SUITES: only those).
    Under -icount shift=0,sleep=off, rdinstret counts instructions, so
    the cost tests run instead of skipping. mode names another build
    (e.g. the -pg one) in the results; live patches with
    ftrace_patch=live."""
    tag = mode + f'smp{smp}' + ('-icount' if icount else '') + \
        ('-live' if live else '')
    append = f'selftest={suites}' if suites else 'selftest'
    append = with_extra(append, 'ftrace_patch=live' if live else '')
    append = with_extra(append, extra)
    # The 9p suite needs a host folder; the cost tests' boots stay bare.
    share = tempfile.TemporaryDirectory(prefix='rvftrace-share-')
    k = harness.Kernel(build, smp=smp, append=append,
                       timeout=SELFTEST_TIMEOUT,
                       qemu_args=harness.ICOUNT if icount else
                       harness.share_args(share.name))
    problem = None
    try:
        k.launch()
        status = wait_exit_or_crash(k, SELFTEST_TIMEOUT)
    except harness.KernelError as e:
        status, problem = None, str(e)
    finally:
        k.close()
        share.cleanup()
    results, suite = selftest_cases(k.output, tag)
    failed = any(r.status == 'not ok' for r in results)
    whole = f'selftest[{tag}]'
    if harness.CRASH.search(k.output):
        problem = f'crashed in suite {suite}:\n{k.tail()}'
    elif problem is None and '# Totals:' not in k.output:
        problem = f'no totals line, exit status {status}:\n{k.tail()}'
    elif problem is None and status != 0 and not failed:
        problem = f'exit status {status}:\n{k.tail()}'
    if problem:
        results.append(Result(whole, 'not ok', problem))
    return results


# --- (d) console tests ---------------------------------------------------

def load_module(path, tag):
    spec = importlib.util.spec_from_file_location(
        f'{os.path.basename(path)[:-3]}_{tag}', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def smp_configs(module):
    smp = getattr(module, 'SMP', CONSOLE_SMP)
    return (smp,) if isinstance(smp, int) else tuple(smp)


def test_functions(module):
    return [(name, fn) for name, fn in vars(module).items()
            if name.startswith('test_') and callable(fn)]


def describe_failure(exc, k, path):
    """The exception, where in the test file it struck, and the console
    tail unless the exception carries it already."""
    where = [f'{os.path.basename(f.filename)}:{f.lineno}: {f.line}'
             for f in traceback.extract_tb(exc.__traceback__)
             if f.filename == path]
    text = f'{type(exc).__name__}: {exc}'
    if where:
        text = f'at {where[-1]}\n{text}'
    if k is not None and not isinstance(exc, (harness.KernelError,
                                              TimeoutError)):
        text += '\n' + k.tail(TAIL_LINES)
    return text


def run_one_test(fn, k, name, path):
    try:
        fn(k)
    except unittest.SkipTest as e:
        return Result(name, 'skip', f'# SKIP {e}')
    except Exception as e:      # any failure of the test is its verdict
        return Result(name, 'not ok', describe_failure(e, k, path))
    problem = k.crash_report()
    return Result(name, 'not ok', problem) if problem else Result(name, 'ok')


def run_console_module(path, smp, functions=None, extra='', build=None):
    """The module's tests in order on one kernel (build's, if given),
    rebooted only after a test left it dead or hung; with functions (a
    regex), only the test functions whose name it matches."""
    module = load_module(path, f'smp{smp}')
    append = with_extra(getattr(module, 'APPEND', None), extra)
    qemu_args = getattr(module, 'QEMU_ARGS', ())
    results, k = [], None
    for test, fn in test_functions(module):
        if functions and not re.search(functions, test):
            continue
        name = f'console/{os.path.basename(path)}::{test}[smp{smp}]'
        if k is None:
            k = harness.Kernel(build, smp=smp, append=append,
                               qemu_args=qemu_args)
            try:
                k.start()
            except Exception as e:  # no QEMU, no kernel.elf, no prompt
                results.append(Result(name, 'not ok', f'boot failed: {e}'))
                k.close()
                k = None
                continue
        results.append(run_one_test(fn, k, name, path))
        if not k.responsive():
            k.close()
            k = None
    if k is not None:
        k.close()
    return results


# --- (f) the script suite ----------------------------------------------------

SCRIPTS_DIR = os.path.join(ROOT, 'tests', 'scripts')
SCRIPTS_TIMEOUT = 600
SCRIPT_VERDICT = re.compile(r'^\[(\d+)\] (.*)\t\[(PASS|FAIL|UNSUPPORTED)\]$')


def scripts_initrd(tmp):
    """tests/scripts as /tests in a cpio archive (scripts/mkinitramfs.py)."""
    import shutil
    shutil.copytree(SCRIPTS_DIR, os.path.join(tmp, 'root', 'tests'))
    archive = os.path.join(tmp, 'tests.cpio')
    subprocess.run([sys.executable,
                    os.path.join(ROOT, 'scripts', 'mkinitramfs.py'),
                    os.path.join(tmp, 'root'), archive], check=True)
    return archive


def run_scripts(smp, extra=''):
    """Every .tc a result of its own, by the line ftracetest.sh prints for
    it; then the tracer as tracer_session.tc meant to leave it."""
    import tempfile
    names = sorted(n for n in os.listdir(SCRIPTS_DIR) if n.endswith('.tc'))
    with tempfile.TemporaryDirectory() as tmp:
        k = harness.Kernel(smp=smp, initrd=scripts_initrd(tmp),
                           append=with_extra(None, extra))
        try:
            k.start()
            out = k.run('sh /tests/ftracetest.sh', timeout=SCRIPTS_TIMEOUT)
            left = k.run('cat /sys/kernel/tracing/current_tracer '
                         '/sys/kernel/tracing/max_graph_depth')
        except Exception as e:      # a crash or a hang fails the suite
            return [Result(f'scripts[smp{smp}]', 'not ok', str(e))]
        finally:
            k.close()
    results, seen = [], set()
    for line in out.splitlines():
        m = SCRIPT_VERDICT.match(line)
        if not m or int(m[1]) > len(names):
            continue
        name = f'scripts/{names[int(m[1]) - 1]}[smp{smp}]'
        seen.add(name)
        status = {'PASS': 'ok', 'FAIL': 'not ok', 'UNSUPPORTED': 'skip'}[m[3]]
        results.append(Result(name, status, tail(out) if status == 'not ok'
                              else '# SKIP unsupported here' if
                              status == 'skip' else ''))
    for n in names:
        if f'scripts/{n}[smp{smp}]' not in seen:
            results.append(Result(f'scripts/{n}[smp{smp}]', 'not ok',
                                  'no verdict line:\n' + tail(out)))
    results.append(Result(f'scripts/session-leaves-the-tracer[smp{smp}]',
                          'ok' if left == 'function_graph\n3\n' else
                          'not ok', f'left: {left!r}'))
    return results


# --- (e) mutants -----------------------------------------------------------

MUTANT_VERDICT = re.compile(r'^(?:killed (?P<killed>\S+) by .*|'
                            r'(?:SURVIVED|STALE|ERROR) (?P<bad>[^\s:]+).*)$')
MUTATE_TIMEOUT = 1800


def run_mutants(seed):
    """scripts/mutate.py --sample: each mutant a test that passes when
    the suite kills it."""
    cmd = [sys.executable, os.path.join(ROOT, 'scripts', 'mutate.py'),
           '--sample', '--no-baseline', '-j1', '--timeout', '120']
    if seed:
        cmd += ['--seed', seed]
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                              errors='replace', timeout=MUTATE_TIMEOUT)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors='replace') if e.stdout else ''
        return [Result('mutants', 'not ok',
                       f'timed out after {MUTATE_TIMEOUT}s\n{tail(out)}')]
    results = []
    for line in proc.stdout.splitlines():
        m = MUTANT_VERDICT.match(line)
        if m and m['killed']:
            results.append(Result(f'mutant/{m["killed"]}', 'ok'))
        elif m:
            results.append(Result(f'mutant/{m["bad"]}', 'not ok', line))
        elif line.startswith('    ') and results:
            results[-1].details += '\n' + line.strip()
    if not results or (proc.returncode and
                       all(r.status == 'ok' for r in results)):
        results.append(Result('mutants', 'not ok',
                              f'exit status {proc.returncode}\n'
                              f'{tail(proc.stdout + proc.stderr)}'))
    return results


# --- the run -------------------------------------------------------------

def guarded(fn, *args):
    """fn's results, or its crash as one failure, so one broken job
    cannot hide the others' verdicts."""
    try:
        return fn(*args)
    except Exception:
        name = f'{fn.__name__}{args}'
        return [Result(name, 'not ok', traceback.format_exc())]


def jobs(args):
    """(label, function, args) for each independent piece of work: the
    QEMU runs first, the quick host tests and fuzz runs last to fill the
    gaps. The label is what --only matches."""
    build, suites, extra = args.build, args.suites, args.append
    work = []
    if args.mutants is not None:    # the longest job: start it first
        work.append(('mutants', run_mutants, (args.mutants,)))
    work += [(f'selftest[smp{smp}]', run_selftests,
              (build, smp, False, '', suites, False, extra))
             for smp in SELFTEST_SMP]
    work.append(('selftest[smp1-icount]', run_selftests,
                 (build, 1, True, '', suites, False, extra)))
    work.append(('selftest[smp4-live]', run_selftests,
                 (build, 4, False, '', suites, True, extra)))
    if args.mcount_build:
        work += [(f'selftest[mcount-smp{smp}]', run_selftests,
                  (args.mcount_build, smp, False, 'mcount-', suites, False,
                   extra))
                 for smp in SELFTEST_SMP]
    if args.static_build:   # one boot, on 1 CPU: every call is traced
        work.append(('selftest[static-smp1]', run_selftests,
                     (args.static_build, 1, False, 'static-',
                      suites or STATIC_SUITES, False, extra)))
    if args.pad_build:      # one boot, 2 CPUs patched live: far sites
        work.append(('selftest[pad-smp2-live]', run_selftests,
                     (args.pad_build, 2, False, 'pad-', suites or PAD_SUITES,
                      True, extra)))
    for name in sorted(os.listdir(CONSOLE_DIR)):
        if name.startswith('test_') and name.endswith('.py'):
            path = os.path.join(CONSOLE_DIR, name)
            config = load_module(path, 'config')
            # A module for the PAD_TEXT build runs on it alone, if given.
            pad = getattr(config, 'PAD_BUILD', False)
            if pad and not args.pad_build:
                continue
            for smp in smp_configs(config):
                work.append((f'console/{name}[smp{smp}]',
                             run_console_module,
                             (path, smp, args.functions, extra,
                              args.pad_build if pad else None)))
    work += [(f'scripts[smp{smp}]', run_scripts, (smp, extra))
             for smp in CONSOLE_SMP]
    work += [(f'host/{os.path.basename(path)}', run_host_test, (path,))
             for path in args.host_tests]
    work += [(f'fuzz/{os.path.basename(path)}', run_fuzz_target,
              (path, build, args.fuzz_runs)) for path in args.fuzz]
    only = re.compile(args.only) if args.only else None
    return [(fn, a) for label, fn, a in work
            if not only or only.search(label)]


def report(result):
    line = f'{result.status} {result.name}'
    if result.status == 'skip':
        line = f'ok {result.name} {result.details}'
    print(line, flush=True)
    if result.status == 'not ok' and result.details:
        for detail in result.details.splitlines():
            print(f'    {detail}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--build', default='build')
    parser.add_argument('-j', '--jobs', type=int, default=os.cpu_count())
    parser.add_argument('host_tests', nargs='*')
    parser.add_argument('--fuzz', nargs='*', default=[], metavar='TARGET')
    parser.add_argument('--fuzz-runs', type=int, default=50000)
    parser.add_argument('--mcount-build', metavar='DIR',
                        help='also run the selftests of this -pg build')
    parser.add_argument('--static-build', metavar='DIR',
                        help='also run the selftests of this FTRACE=static '
                        'build, on 1 CPU')
    parser.add_argument('--pad-build', metavar='DIR',
                        help='also run the far-site suites (2 CPUs, live '
                        'patching) and console tests on this PAD_TEXT build')
    parser.add_argument('--only', metavar='REGEX',
                        help='only the jobs whose label matches, e.g. '
                        '"selftest\\[smp4\\]" or "console/test_shell"')
    parser.add_argument('--suites', default='', metavar='A,B',
                        help='selftest boots run only these suites')
    parser.add_argument('--functions', metavar='REGEX',
                        help='console modules run only the test functions '
                        'whose name matches')
    parser.add_argument('--mutants', nargs='?', const='', metavar='SEED',
                        help='also a sample of scripts/mutate.py\'s '
                        'mutants (seed: from the commit, if not given)')
    parser.add_argument('--append', default='', metavar='WORDS',
                        help='add these words to every kernel command line, '
                        'e.g. ftrace_patch=live')
    args = parser.parse_args()
    os.chdir(ROOT)
    harness.BUILD = args.build
    started = time.monotonic()
    counts = {'ok': 0, 'not ok': 0, 'skip': 0}
    failed = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(guarded, fn, *a)
                   for fn, a in jobs(args)]
        for future in futures:
            for result in future.result():
                report(result)
                counts[result.status] += 1
                if result.status == 'not ok':
                    failed.append(result.name)
    print(f'# {time.monotonic() - started:.0f}s')
    for name in failed:
        print(f'# failed: {name}')
    summary = f'{counts["ok"]} passed, {counts["not ok"]} failed'
    if counts['skip']:
        summary += f', {counts["skip"]} skipped'
    print(summary)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
