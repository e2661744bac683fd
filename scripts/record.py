#!/usr/bin/env python3
"""record.py: what `make record` runs. Boot the kernel with the build
folder (or --out) shared as /mnt/host (virtio-9p), record a command with the
guest's trace-cmd, power off, and print the host's `trace-cmd report`
of the trace.dat the guest left there:

    scripts/record.py --cmd 'run fib 10' [--tracer function_graph]
        [--events sched] [--filter FUNC] [--build DIR] [--smp N]
        [--out DIR] [--text]

At the shell it types `trace-cmd record [-p TRACER] [-e EVENTS]
[-l FUNC] -o /mnt/host/trace.dat CMD`. With --text it sets up the same
with `trace-cmd start`, runs CMD, stops, and saves the guest's own `cat
trace` in OUT/trace.txt before `trace-cmd extract -o
/mnt/host/trace.dat`, so that the two can be compared event for event
(tests/host/test_trace_dat.py).
"""
import argparse
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, 'tests', 'console'))
import harness  # noqa: E402  (found through the path set just above)

TRACEFS = '/sys/kernel/tracing'
RUN_TIMEOUT = 120


def setup_options(args):
    words = []
    if args.tracer:
        words += ['-p', args.tracer]
    for event in args.events or ():
        words += ['-e', event]
    for func in args.filter or ():
        words += ['-l', func]
    return ' '.join(words)


def typed(k, line, timeout=RUN_TIMEOUT):
    """Run line at the shell; stop with its output if it failed."""
    out = k.run(f'{line}; echo "status $?"', timeout=timeout)
    body, _, status = out.rstrip('\n').rpartition('\n')
    if status != 'status 0' and not status.endswith('status 0'):
        sys.exit(f'record: `{line}` failed:\n{out}')
    return body + '\n' if body else ''


def record(k, args):
    """The guest's trace-cmd record, as a person would type it."""
    print(typed(k, f'trace-cmd record {setup_options(args)} '
                f'-o /mnt/host/trace.dat {args.cmd}'), end='')


def record_with_text(k, args):
    """The same run, its text kept before the buffers are extracted."""
    typed(k, f'trace-cmd start {setup_options(args)}')
    print(typed(k, args.cmd), end='')
    typed(k, 'trace-cmd stop')
    typed(k, f'cat {TRACEFS}/trace > /mnt/host/trace.txt')
    typed(k, 'trace-cmd extract -o /mnt/host/trace.dat')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--cmd', required=True)
    ap.add_argument('--tracer')
    ap.add_argument('--events', action='append')
    ap.add_argument('--filter', action='append')
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'))
    ap.add_argument('--smp', type=int, default=1)
    ap.add_argument('--out', help='the folder shared (default: --build)')
    ap.add_argument('--text', action='store_true')
    args = ap.parse_args()
    if not args.tracer and not args.events:
        args.tracer = 'function'
    build = os.path.abspath(args.build)
    out = os.path.abspath(args.out or build)
    for name in ('trace.dat', 'trace.txt'):
        if os.path.exists(os.path.join(out, name)):
            os.remove(os.path.join(out, name))
    k = harness.Kernel(build=build, smp=args.smp,
                       qemu_args=harness.share_args(out))
    with k:
        (record_with_text if args.text else record)(k, args)
        k.poweroff()
    dat = os.path.join(out, 'trace.dat')
    print(f'record: {dat}')
    if shutil.which('trace-cmd'):
        sys.stdout.flush()
        subprocess.run(['trace-cmd', 'report', dat], check=True)
    else:
        print('record: trace-cmd is not installed (scripts/deps.sh '
              'installs it): no report')


if __name__ == '__main__':
    main()
