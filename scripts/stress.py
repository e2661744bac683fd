#!/usr/bin/env python3
"""stress.py: `make stress`, rvftrace's reliability run on SMP=4, each
part on a freshly booted kernel:

  storm   `stress storm N SEED`: three CPUs run every workload while the
          fourth switches tracers, rewrites filters, changes settings
          and registers and unregisters checking ops N times
          (kernel/shell/cmd_stress.c)
  rendezvous
          `stress rendezvous N`: N stop_machine rounds from each CPU in
          turn, until one runs its fn wrongly or a CPU writes to a
          round's data after stop_machine returned
  graph   `stress graph N`: graph tracing of every call started and
          stopped N times, each time from the next CPU, while every
          CPU starts and reaps threads; no ret_stack may be lost
  soak    `stress start`, unfiltered function_graph (function if there
          is none) for SOAK guest seconds (`uptime`), with `trace`,
          `trace_pipe` and their per-CPU forms read all along, every
          line checked strictly (tests/console/trace_format.py); then
          `stress stop` checks each CPU's ring buffer accounts for every
          event written and that no return came back unbalanced
  nomem   the in-kernel -ENOMEM sweep of every tracefs operation
  fuzz    random bytes, commands and tracefs writes typed at the shell
          (tests/console/fuzz.py), the shell asked `echo alive` after
          each batch

It prints each part's figures, writes them to BUILD/stress.json, and
exits 1 if anything failed (a crash or a reboot included).

usage: stress.py [--build DIR] [--ops N] [--rounds N] [--graph-starts N]
                 [--soak S] [--batches N] [--seed N]
"""

import argparse
import json
import os
import random
import re
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
sys.path.insert(0, os.path.join(ROOT, 'tests', 'console'))
import harness  # noqa: E402
import fuzz  # noqa: E402
from trace_format import TraceChecker, symbols_of  # noqa: E402

SMP = 4
T = '/sys/kernel/tracing'
FTRACE_BUG = 'ftrace: failed to'    # ftrace_bug(): a site was not as expected
SOAK_BUFFER_KB = 16     # small: the writers overwrite it all the time
PIPE_SECONDS = 0.5      # how long each trace_pipe read runs
STORM_SECONDS_PER_OP = 0.1
ROUND_SECONDS = 0.3     # a stop_machine round on a loaded host, at worst
GRAPH_SECONDS_PER_START = 2
FIGURE = re.compile(r'^(storm|rendezvous|graph|soak|cpu\d+|stress): .*$',
                    re.M)


class Failure(Exception):
    """A part of the run failed; the message says how."""


def kernel(build):
    """A kernel to boot with `with`."""
    return harness.Kernel(build=build, smp=SMP, timeout=60)


def uptime(k):
    return float(re.search(r'up ([\d.]+) seconds', k.run('uptime'))[1])


def check_alive(k):
    """No oops, no panic, no ftrace bug report, and the clock has not
    gone back (a jump to the kernel's entry reboots it in place)."""
    problem = k.crash_report()
    if not problem and FTRACE_BUG in k.output:
        problem = f'ftrace reported a bug:\n{k.tail()}'
    if not problem:
        now = uptime(k)
        if now < getattr(k, 'last_uptime', 0):
            problem = f'the kernel restarted:\n{k.tail()}'
        k.last_uptime = now
    if problem:
        raise Failure(problem)


def figures(out):
    """The figure lines a `stress` command printed."""
    lines = [m.group(0) for m in FIGURE.finditer(out)]
    for line in lines:
        print(f'  {line}', flush=True)
    if 'stress: ok' not in lines:
        raise Failure('stress reports a failure:\n' + out)
    return lines


def number(lines, pattern):
    for line in lines:
        m = re.search(pattern, line)
        if m:
            return float(m[1]) if '.' in m[1] else int(m[1])
    raise Failure(f'no /{pattern}/ in:\n' + '\n'.join(lines))


# --- storm ---------------------------------------------------------------

def storm(args):
    with kernel(args.build) as k:
        out = k.run(f'stress storm {args.ops} {args.seed}',
                    timeout=60 + args.ops * STORM_SECONDS_PER_OP)
        check_alive(k)
    lines = figures(out)
    return {'operations': number(lines, r'storm: (\d+) operations'),
            'tracer_switches': number(lines, r'tracer switches (\d+)'),
            'filter_writes': number(lines, r'filter writes (\d+)'),
            'other_settings': number(lines, r'other settings (\d+)'),
            'registers': number(lines, r'registers (\d+)'),
            'callbacks_checked': number(lines, r'callbacks (\d+)'),
            'seconds': number(lines, r'storm: ([\d.]+) s')}


# --- rendezvous, graph ----------------------------------------------------

def rendezvous(args):
    with kernel(args.build) as k:
        out = k.run(f'stress rendezvous {args.rounds}',
                    timeout=60 + args.rounds * ROUND_SECONDS)
        check_alive(k)
    lines = figures(out)
    return {'rounds': number(lines, r'(\d+) rounds from'),
            'seconds': number(lines, r'rendezvous: ([\d.]+) s')}


def graph(args):
    with kernel(args.build) as k:
        out = k.run(f'stress graph {args.graph_starts}',
                    timeout=60 + args.graph_starts * GRAPH_SECONDS_PER_START)
        check_alive(k)
    lines = figures(out)
    return {'starts': number(lines, r'graph: (\d+) starts'),
            'threads': number(lines, r'(\d+) threads started')}


# --- soak ----------------------------------------------------------------

def read_pipe(k, path):
    """`cat path` for PIPE_SECONDS, then Ctrl-C; the lines it printed."""
    k.type(f'cat {path}\r')
    time.sleep(PIPE_SECONDS)
    k.type('\x03')
    out = k.read_until_prompt(30).partition('\n')[2]
    return out[:out.rfind('^C')] if '^C' in out else out


class Soak:
    """The readers of the soak and what they saw."""

    def __init__(self, k, checker):
        self.k = k
        self.checker = checker
        self.reads = {'trace': 0, 'trace_pipe': 0, 'stats': 0}

    def check(self, what, text, cpu=None):
        problems = self.checker.check(text, cpu, merged='pipe' not in what)
        if problems:
            raise Failure(f'{what}: garbled output:\n' + '\n'.join(problems))

    def read_all(self, cpu):
        """One round: each kind of read, the per-CPU ones on cpu."""
        k, d = self.k, f'{T}/per_cpu/cpu{cpu}'
        self.check('trace', k.run(f'cat {T}/trace', 60))
        self.check(f'cpu{cpu}/trace', k.run(f'cat {d}/trace', 60), cpu)
        self.reads['trace'] += 2
        self.check('trace_pipe', read_pipe(k, f'{T}/trace_pipe'))
        self.check(f'cpu{cpu}/trace_pipe', read_pipe(k, f'{d}/trace_pipe'),
                   cpu)
        self.reads['trace_pipe'] += 2
        stats = k.run(f'cat {d}/stats')
        if not re.fullmatch(r'entries: \d+\noverrun: \d+\n(?:.+\n){6}',
                            stats):
            raise Failure(f'cpu{cpu}/stats: garbled:\n{stats}')
        self.reads['stats'] += 1


def soak(args):
    with kernel(args.build) as k:
        tracers = k.run(f'cat {T}/available_tracers').split()
        tracer = 'function_graph' if 'function_graph' in tracers else \
                 'function'
        functions = k.run(f'cat {T}/available_filter_functions').split()
        symbols = symbols_of(os.path.join(args.build, 'kernel.sym'))
        readers = Soak(k, TraceChecker(functions, symbols, SMP,
                                       graph=tracer == 'function_graph'))
        k.run(f'echo {SOAK_BUFFER_KB} > {T}/buffer_size_kb')
        k.run(f'echo {tracer} > {T}/current_tracer')
        k.check(k.run('stress start'), f'soak: {SMP} workers started\n')
        start = now = uptime(k)
        rounds = 0
        while now - start < args.soak:
            readers.read_all(rounds % SMP)
            check_alive(k)
            rounds += 1
            now = uptime(k)
        out = k.run('stress stop', 60)
        check_alive(k)
    lines = figures(out)
    return {'tracer': tracer, 'guest_seconds': round(now - start, 2),
            'reader_rounds': rounds, **readers.reads,
            'lines_checked': readers.checker.lines,
            'events_checked': readers.checker.events,
            'unbalanced_returns': number(lines, r'unbalanced returns (\d+)'),
            'workload_runs': number(lines, r'(\d+) workload runs')}


# --- nomem ---------------------------------------------------------------

def nomem(args):
    with kernel(args.build) as k:
        out = k.run('selftest tracefs_nomem', 600)
        check_alive(k)
    if 'not ok' in out or 'ok 1 - tracefs_nomem' not in out:
        raise Failure('selftest tracefs_nomem failed:\n' + out)
    injected = int(re.search(r'(\d+) faults injected', out)[1])
    print(f'  nomem: {injected} faults injected, each -ENOMEM with '
          f'nothing changed or kept', flush=True)
    return {'faults_injected': injected}


# --- fuzz ----------------------------------------------------------------

def console_fuzz(args):
    with kernel(args.build) as k:
        result = fuzz.Fuzzer(k, args.seed).run(args.batches)
        check_alive(k)
    print(f'  fuzz: seed {args.seed}, {result["batches"]} batches, '
          f'{result["inputs"]} inputs, {result["bytes"]} bytes typed, '
          f'shell alive after each', flush=True)
    return result


PARTS = (('storm', storm), ('rendezvous', rendezvous), ('graph', graph),
         ('soak', soak), ('nomem', nomem), ('fuzz', console_fuzz))


def summary(results):
    s = results.get('storm', {})
    print(f'stress: tracer switches survived: {s.get("tracer_switches", 0)}'
          f' (of {s.get("operations", 0)} storm operations)')
    print(f'stress: stop_machine rounds checked: '
          f'{results.get("rendezvous", {}).get("rounds", 0)}')
    print(f'stress: graph tracing starts checked: '
          f'{results.get("graph", {}).get("starts", 0)}')
    print(f'stress: guest seconds soaked: '
          f'{results.get("soak", {}).get("guest_seconds", 0)}')
    print(f'stress: faults injected: '
          f'{results.get("nomem", {}).get("faults_injected", 0)}')
    print(f'stress: fuzz batches survived: '
          f'{results.get("fuzz", {}).get("batches", 0)}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--build', default='build')
    parser.add_argument('--ops', type=int, default=10000)
    parser.add_argument('--rounds', type=int, default=2000)
    parser.add_argument('--graph-starts', type=int, default=300)
    parser.add_argument('--soak', type=float, default=60)
    parser.add_argument('--batches', type=int, default=40)
    parser.add_argument('--seed', type=int,
                        default=random.SystemRandom().randrange(1, 1 << 31))
    parser.add_argument('--only', choices=[name for name, _ in PARTS])
    args = parser.parse_args()
    os.chdir(ROOT)
    harness.BUILD = args.build
    results, failed = {'seed': args.seed}, []
    for name, part in PARTS:
        if args.only and name != args.only:
            continue
        started = time.monotonic()
        print(f'{name}:', flush=True)
        try:
            results[name] = part(args)
        except (Failure, harness.KernelError, TimeoutError) as e:
            failed.append(name)
            print(f'not ok {name}: {e}', flush=True)
            continue
        print(f'ok {name} ({time.monotonic() - started:.0f}s)', flush=True)
    with open(os.path.join(args.build, 'stress.json'), 'w') as f:
        json.dump(results, f, indent=2)
    summary(results)
    print(f'stress: {"FAILED: " + ", ".join(failed) if failed else "PASS"}'
          f' (seed {args.seed})')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
