#!/usr/bin/env python3
"""run_fuzz.py: run the libFuzzer targets built from tests/fuzz/.

    tests/fuzz/run_fuzz.py --build build [--seconds 60] [-j N] BINARY...

Each target starts from its seeds, tests/fuzz/corpus/NAME, and keeps
what it finds in BUILD/fuzz/corpus/NAME for the next run; an input that
breaks it is saved as BUILD/fuzz/NAME-crash-* (add it to the seeds once
fixed). One line per target gives its executions; the exit status is 1
if any target failed. tests/run_all.py runs the same targets for a
fixed number of runs from the seeds alone, through run().
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SEEDS = os.path.join(ROOT, 'tests', 'fuzz', 'corpus')
TAIL_LINES = 40
EXECS = re.compile(r'^stat::number_of_executed_units:\s*(\d+)', re.M)
ARTIFACT = re.compile(r'Test unit written to (\S+)')


@dataclass
class FuzzRun:
    name: str
    ok: bool
    execs: int
    seconds: float
    details: str = ''


def target_name(binary):
    return os.path.basename(binary).removeprefix('fuzz_')


def libfuzzer_args(binary, build, runs, seconds):
    """A fixed seed with runs, so that `make test` is repeatable;
    libFuzzer's own random seed with seconds."""
    name = target_name(binary)
    args = [os.path.abspath(binary), '-print_final_stats=1', '-timeout=10',
            f'-artifact_prefix={os.path.join(build, "fuzz", name)}-']
    if runs is not None:
        args += ['-seed=1', f'-runs={runs}']
    else:
        args += [f'-max_total_time={seconds}']
    return args


def run(binary, build, runs=None, seconds=None):
    """One target for runs executions or for seconds; with seconds, what
    it finds is kept in BUILD/fuzz/corpus/NAME."""
    name = target_name(binary)
    seeds = os.path.join(SEEDS, name)
    os.makedirs(os.path.join(build, 'fuzz'), exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        found = scratch
        if runs is None:
            found = os.path.join(build, 'fuzz', 'corpus', name)
            os.makedirs(found, exist_ok=True)
        limit = (seconds or 0) + 120
        # libFuzzer writes new inputs into the first directory only.
        cmd = libfuzzer_args(binary, build, runs, seconds) + [found, seeds]
        try:
            proc = subprocess.run(cmd, cwd=ROOT, capture_output=True,
                                  text=True, errors='replace',
                                  timeout=limit)
        except subprocess.TimeoutExpired:
            return FuzzRun(name, False, 0, limit, f'timed out after {limit}s')
    log = proc.stdout + proc.stderr
    execs = EXECS.search(log)
    secs = re.search(r'^Done \d+ runs in (\d+) second', log, re.M)
    result = FuzzRun(name, proc.returncode == 0 and execs is not None,
                     int(execs[1]) if execs else 0,
                     float(secs[1]) if secs else 0)
    if not result.ok:
        crash = ARTIFACT.search(log)
        result.details = '\n'.join(log.splitlines()[-TAIL_LINES:])
        if crash:
            result.details += f'\ninput saved as {crash[1]}'
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--build', default='build')
    parser.add_argument('--seconds', type=int, default=60)
    parser.add_argument('-j', '--jobs', type=int, default=os.cpu_count())
    parser.add_argument('binaries', nargs='+')
    args = parser.parse_args()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        runs = list(pool.map(lambda b: run(b, args.build,
                                           seconds=args.seconds),
                             args.binaries))
    for r in runs:
        rate = r.execs / r.seconds if r.seconds else 0
        print(f'{"ok" if r.ok else "not ok"} fuzz/{r.name}: '
              f'{r.execs} executions in {r.seconds:.0f}s ({rate:.0f}/s)')
        for line in r.details.splitlines():
            print(f'    {line}')
    return 0 if all(r.ok for r in runs) else 1


if __name__ == '__main__':
    sys.exit(main())
