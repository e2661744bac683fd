#!/usr/bin/env python3
"""trace_demo.py: what `make trace-demo` runs. Boot the kernel, trace a
workload with function_graph as a user would at the console, and turn
the capture into a Perfetto timeline and a flame graph:

    scripts/trace_demo.py [--build DIR] [--smp N] [--out DIR]

At the shell it types

    trace-cmd record -p function_graph -g sort -O funcgraph-abstime \\
        -O funcgraph-proc run sort 2000
    trace-cmd show

and writes OUT/trace.txt (what `trace-cmd show` printed), OUT/trace.json
(scripts/trace2json) and OUT/flame.svg (scripts/trace2folded piped into
scripts/flamegraph). docs/export.md says what the two show.

    scripts/trace_demo.py --convert-only --out DIR

only converts an existing DIR/trace.txt (the host test runs this).
"""
import argparse
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, 'tests', 'console'))
import harness  # noqa: E402  (found through the path set just above)

RECORD = ('trace-cmd record -p function_graph -g sort -O funcgraph-abstime '
          '-O funcgraph-proc run sort 2000')
BOOT_TIMEOUT = 60
RECORD_TIMEOUT = 120
SHOW_TIMEOUT = 300         # the whole trace crosses the serial console
FLAME_TITLE = 'run sort 2000 (function_graph, set_graph_function sort)'


def capture(build, smp):
    """The text of `trace-cmd show` after recording the workload."""
    k = harness.Kernel(build=build, smp=smp, timeout=BOOT_TIMEOUT)
    with k:
        summary = k.run(RECORD, timeout=RECORD_TIMEOUT)
        if not summary.startswith('sort: 2000 numbers sorted'):
            sys.exit(f'trace_demo: the workload failed:\n{summary}')
        trace = k.run('trace-cmd show', timeout=SHOW_TIMEOUT)
        k.poweroff()
    return trace


def script(name):
    return [sys.executable, os.path.join(HERE, name)]


def convert(out_dir):
    """trace.txt -> trace.json and flame.svg, next to it."""
    trace_txt = os.path.join(out_dir, 'trace.txt')
    with open(os.path.join(out_dir, 'trace.json'), 'wb') as f:
        subprocess.run(script('trace2json') + [trace_txt], stdout=f,
                       check=True)
    folded = subprocess.run(script('trace2folded') + [trace_txt],
                            stdout=subprocess.PIPE, check=True).stdout
    with open(os.path.join(out_dir, 'flame.svg'), 'wb') as f:
        subprocess.run(script('flamegraph') + ['--title', FLAME_TITLE],
                       input=folded, stdout=f, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--build', default='build')
    parser.add_argument('--smp', type=int, default=2)
    parser.add_argument('--out', default='build')
    parser.add_argument('--convert-only', action='store_true')
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if not args.convert_only:
        trace = capture(args.build, args.smp)
        with open(os.path.join(args.out, 'trace.txt'), 'w') as f:
            f.write(trace)
    convert(args.out)
    for name in ('trace.txt', 'trace.json', 'flame.svg'):
        path = os.path.join(args.out, name)
        print(f'  {path:24} {os.path.getsize(path):9} bytes')


if __name__ == '__main__':
    main()
