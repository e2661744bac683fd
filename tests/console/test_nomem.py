"""test_nomem.py: allocation failures as a user at the console sees
them. With /sys/kernel/debug/failslab (kmalloc) or fail_page_alloc set
to fail the Nth allocation from now (probability 100, interval N, times
1), each tracefs command is tried for N = 1, 2, ... until it runs
through. Every try that fails must print only Linux's error (`sh: write
error: Cannot allocate memory`, or the open's or cat's) and leave every
tracefs file reading as before. So the filter and pid files are written
with `>>` and one name: `>` empties them at open, and the words before
a failure stay, as in Linux. The in-kernel tracefs_nomem selftest
sweeps more operations and also checks that nothing is leaked."""

from tracing import T, reset

D = '/sys/kernel/debug'
SWEEP_MAX = 80
ENOMEM = 'Cannot allocate memory'
STATE = ('current_tracer', 'set_ftrace_filter', 'set_ftrace_notrace',
         'set_ftrace_pid', 'set_graph_function', 'buffer_size_kb',
         'per_cpu/cpu0/buffer_size_kb', 'buffer_total_size_kb',
         'enabled_functions', 'tracing_on')
# (setup, the command tried)
OPS = (
    ([f'echo crc32_le > {T}/set_ftrace_filter'],
     f'echo fib >> {T}/set_ftrace_filter'),
    ([f'echo fib > {T}/set_ftrace_filter'],
     f"echo 'fib:traceoff:3' >> {T}/set_ftrace_filter"),
    ([f'echo 5 > {T}/set_ftrace_pid'], f'echo 2 3 >> {T}/set_ftrace_pid'),
    ([], f'echo 300 > {T}/per_cpu/cpu0/buffer_size_kb'),
    ([f'echo fib > {T}/set_ftrace_filter'],
     f'echo function > {T}/current_tracer'),
    ([f'echo fib > {T}/set_ftrace_filter'], f'cat {T}/set_ftrace_filter'),
    ([f'echo fib > {T}/set_ftrace_filter'],
     f'echo function_graph > {T}/current_tracer'),
    ([], f'echo fib >> {T}/set_graph_function'),
)


def state(k):
    return k.run('cat ' + ' '.join(f'{T}/{name}' for name in STATE))


def set_up(k, setup):
    reset(k)
    k.run(f'echo > {T}/set_graph_function')
    k.run("echo '!fib:traceoff:0' >> " + f'{T}/set_ftrace_filter')
    k.run(f'echo 1408 > {T}/buffer_size_kb')
    for cmd in setup:
        k.check(k.run(cmd), '')


def try_failing(k, attr, n, cmd):
    """Run cmd with the nth allocation of attr's kind failing; what it
    printed. The failure is disarmed after (writing times may take it
    itself, when cmd did not)."""
    k.run(f'echo {n} > {D}/{attr}/interval')
    k.run(f'echo 1 > {D}/{attr}/times')
    out = k.run(cmd)
    k.run(f'echo 0 > {D}/{attr}/times')
    k.check(k.run(f'cat {D}/{attr}/times'), '0\n')
    return out


def sweep(k, attr, setup, cmd):
    """A failed try changes nothing (checked), so the next starts from
    the same state without setting it up again."""
    set_up(k, setup)
    before = state(k)
    for n in range(1, SWEEP_MAX):
        out = try_failing(k, attr, n, cmd)
        if ENOMEM not in out:
            return n
        assert out.count('\n') == 1, f'{cmd}, allocation {n}:\n{out}'
        k.check(state(k), before)
    raise AssertionError(f'{cmd}: still failing after {SWEEP_MAX} tries')


def sweep_all(k, attr):
    """For each command, the try that ran through."""
    k.run(f'echo 0 > {D}/{attr}/times')
    k.run(f'echo 100 > {D}/{attr}/probability')
    try:
        return [sweep(k, attr, setup, cmd) for setup, cmd in OPS]
    finally:
        k.run(f'echo 0 > {D}/{attr}/probability')
        k.run(f'echo 1 > {D}/{attr}/interval')
        k.run(f'echo 1 > {D}/{attr}/times')
        set_up(k, [])


def test_failslab(k):
    tries = sweep_all(k, 'failslab')
    assert all(n > 1 for n in tries), tries     # each one allocates


def test_fail_page_alloc(k):
    tries = sweep_all(k, 'fail_page_alloc')
    # The resize takes its 74 pages 64 at a time: the second batch
    # failing must give back the first.
    assert tries[3] > 2, tries


def test_knobs_read_back(k):
    for attr in ('failslab', 'fail_page_alloc'):
        k.check(k.run(f'cat {D}/{attr}/probability {D}/{attr}/interval '
                      f'{D}/{attr}/times'), '0\n1\n1\n')
        k.check(k.run(f'echo 101 > {D}/{attr}/probability'),
                'sh: write error: Invalid argument\n')
