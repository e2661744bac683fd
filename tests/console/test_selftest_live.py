"""test_selftest_live.py: the tracing selftests typed at the shell while
a tracer runs, as a user may. Each case must pass beside the tracer or
skip saying why; either way every tracing file reads as before, no site
failed to verify (ftrace_bug), and a later run with tracing back at its
defaults passes in full and leaves the defaults as they were."""

import re

from tracing import T

SUITES = ('ftrace,fgraph,function_tracer,function_graph,function_profiler,'
          'stack_tracer,ring_buffer,tracefs_nomem')
STATE = tuple(f'{T}/{name}' for name in (
    'current_tracer', 'tracing_on', 'trace_options', 'buffer_size_kb',
    'set_ftrace_filter', 'set_ftrace_notrace', 'set_ftrace_pid',
    'set_graph_function', 'set_graph_notrace', 'max_graph_depth',
    'tracing_thresh', 'options/funcgraph-irqs', 'function_profile_enabled',
    'stack_trace_filter', 'stack_max_size', 'enabled_functions')) + (
    '/proc/sys/kernel/ftrace_enabled', '/proc/sys/kernel/stack_tracer_enabled')
CASE = re.compile(r'^    (not )?ok \d+ - (\S+)(?: # SKIP(.*))?$', re.M)
TOTALS = re.compile(r'^# Totals: pass:\d+ fail:(\d+) skip:\d+ total:(\d+)$',
                    re.M)
# Why a case skips while something traces (trace_selftest.c and the
# suites' own checks); a run at the defaults has none of these.
BUSY = re.compile(r' in use|in enabled_functions|ftrace_enabled is 0')
TIMEOUT = 300
# One CPU: selftest[smp4] already runs these suites on four, and here
# they run three times over (the ftrace suite alone takes minutes at
# -smp 4 on a loaded host).
SMP = (1,)


def state(k):
    return k.run('cat ' + ' '.join(STATE))


def run_suites(k):
    """Run the suites; every case's (name, skip reason or None)."""
    out = k.run(f'selftest {SUITES}', timeout=TIMEOUT)
    totals = TOTALS.search(out)
    assert totals, f'no totals:\n{out}'
    cases = list(CASE.finditer(out))
    assert len(cases) == int(totals[2]), out
    failed = [m[2] for m in cases if m[1]]
    assert not failed, f'failed: {failed}\n{out}'
    silent = [m[2] for m in cases if m[3] is not None and not m[3].strip()]
    assert not silent, f'skipped without a reason: {silent}'
    return [(m[2], m[3] and m[3].strip()) for m in cases]


def assert_no_ftrace_bug(k):
    bugs = [line for line in k.run('dmesg').splitlines()
            if 'ftrace: failed to' in line]
    assert not bugs, '\n'.join(bugs)


def check_beside(k, tracer):
    k.check(k.run(f'echo {tracer} > {T}/current_tracer'), '')
    before = state(k)
    run_suites(k)
    k.check(state(k), before)
    assert_no_ftrace_bug(k)
    k.check(k.run(f'echo nop > {T}/current_tracer'), '')


def test_beside_function(k):
    check_beside(k, 'function')


def test_beside_function_graph(k):
    check_beside(k, 'function_graph')


def test_beside_a_filtered_tracer(k):
    # The selftests' own targets traced: their counts start at one.
    k.check(k.run(f"echo 'ftrace_test_target* fib' > {T}/set_ftrace_filter"),
            '')
    check_beside(k, 'function')
    k.check(k.run(f'echo > {T}/set_ftrace_filter'), '')


def test_clean_run_after(k):
    before = state(k)
    busy = [(name, why) for name, why in run_suites(k)
            if why and BUSY.search(why)]
    assert not busy, f'skipped at the defaults: {busy}'
    k.check(state(k), before)
    assert_no_ftrace_bug(k)
