"""test_snapshot.py: the snapshot buffer, as Linux 6.1's
(shared/reference/linux-6.1/q-e-snapshot.txt): the help text while it
is freed and while it is allocated but empty, `echo 1` swapping the
live buffer into it, `echo 2` clearing it, `echo 0` freeing it, the
errnos, and per_cpu/cpuN/snapshot swapping one CPU."""

import re

from tracing import T, EINVAL, reset, cat, write, trace_lines

SMP = 2

HELP = ('# tracer: nop\n'
        '#\n'
        '#\n'
        '# * Snapshot is {} *\n'
        '#\n'
        '# Snapshot commands:\n'
        '# echo 0 > snapshot : Clears and frees snapshot buffer\n'
        '# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n'
        '#                      Takes a snapshot of the main buffer.\n'
        '# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n'
        '#                      (Doesn\'t have to be \'2\' works with any number that\n'
        '#                       is not a \'0\' or \'1\')\n')
FREED = HELP.format('freed')
ALLOCATED = HELP.format('allocated')
EMPTY = re.compile(r'# entries-in-buffer/entries-written: 0/0   #P:2\n')
MARK = re.compile(r'^ +\S+-\d+ +\[(\d{3})\] [.dNhH0-9]{5} +\d+\.\d{6}: '
                  r'tracing_mark_write: (\S+)$')


def marks(k, name):
    return [(int(m[1]), m[2]) for m in map(MARK.match, trace_lines(k, name))
            if m]


def clean(k):
    write(k, 'events/sched/sched_switch/trigger', "'!snapshot'", append=True)
    write(k, 'snapshot', '0')
    reset(k)


def test_help_errnos_and_free(k):
    """Done when: the freed help, `3` when freed (accepted, no buffer),
    `x` EINVAL, and `0` on a CPU's file EINVAL, as in Linux."""
    clean(k)
    k.check(cat(k, 'snapshot'), FREED)
    k.check(write(k, 'snapshot', '3'), '')
    k.check(cat(k, 'snapshot'), FREED)
    k.check(write(k, 'snapshot', 'x'), EINVAL)
    k.check(write(k, 'snapshot', ''), EINVAL)
    k.check(write(k, 'per_cpu/cpu0/snapshot', '0'), EINVAL)
    k.check(k.run(f'ls -l {T}/snapshot').split()[0], '-rw-r-----')


def swap_clear_free(k):
    write(k, 'trace_marker', 'before')
    k.check(write(k, 'snapshot', '1'), '')
    k.check([m[1] for m in marks(k, 'snapshot')], ['before'])
    assert EMPTY.search(cat(k, 'trace'))
    write(k, 'trace_marker', 'after')
    k.check([m[1] for m in marks(k, 'trace')], ['after'])
    k.check(write(k, 'snapshot', '1'), '')
    k.check([m[1] for m in marks(k, 'snapshot')], ['after'])
    k.check([m[1] for m in marks(k, 'trace')], ['before'])
    k.check(write(k, 'snapshot', '2'), '')
    k.check(cat(k, 'snapshot'), ALLOCATED)
    k.check(write(k, 'snapshot', '0'), '')
    k.check(cat(k, 'snapshot'), FREED)
    clean(k)


def test_swap_clear_free(k):
    """Done when: `echo 1` moves the live events into the snapshot and
    leaves `trace` empty; `echo 2` empties the snapshot (allocated help);
    `echo 0` frees it; the freed memory comes back. The second round is
    measured: kmalloc's caches keep the pages the first one's refills
    took."""
    clean(k)
    swap_clear_free(k)
    free_before = k.run('free')
    swap_clear_free(k)
    k.check(k.run('free'), free_before)


def test_per_cpu_swap(k):
    """Done when: per_cpu/cpuN/snapshot swaps only CPU N's events."""
    clean(k)
    write(k, 'trace_marker', 'one')
    (cpu, _), = marks(k, 'trace')
    k.check(write(k, f'per_cpu/cpu{1 - cpu}/snapshot', '1'), '')
    k.check(marks(k, 'trace'), [(cpu, 'one')])
    k.check(marks(k, f'per_cpu/cpu{1 - cpu}/snapshot'), [])
    k.check(write(k, f'per_cpu/cpu{cpu}/snapshot', '1'), '')
    k.check(marks(k, 'trace'), [])
    k.check(marks(k, f'per_cpu/cpu{cpu}/snapshot'), [(cpu, 'one')])
    k.check(marks(k, 'snapshot'), [(cpu, 'one')])
    clean(k)


def test_swap_under_function_tracer(k):
    """Done when: `echo 1` while the function tracer writes on both
    CPUs leaves both buffers readable, the snapshot full of function
    lines from both CPUs, and `echo 0` frees it with tracing still on."""
    clean(k)
    write(k, 'current_tracer', 'function')
    k.check(write(k, 'snapshot', '1'), '')
    write(k, 'current_tracer', 'nop')
    lines = trace_lines(k, 'snapshot')
    assert len(lines) > 10 and all(' <-' in l for l in lines), lines[:5]
    k.check(sorted({l.split('[')[1][:3] for l in lines}), ['000', '001'])
    k.check(write(k, 'snapshot', '0'), '')
    k.check(cat(k, 'tracing_on'), '1\n')
    clean(k)


SW = 'events/sched/sched_switch'
SWITCH_TS = re.compile(r'^ +\S+-\d+ +\[\d{3}\] \S{5} +(\d+\.\d{6}): '
                       r'sched_switch: ')
NO_TRIGGERS = ('# Available triggers:\n'
               '# traceon traceoff snapshot stacktrace enable_event '
               'disable_event\n')


def switch_times(k, name):
    return [float(m[1]) for m in map(SWITCH_TS.match, trace_lines(k, name))
            if m]


def test_trigger_snapshot_count(k):
    """Done when: `snapshot:1 if next_comm == "ping"` on sched_switch
    takes one snapshot at the first switch to ping, in the scheduler
    with interrupts off: the snapshot holds the switches up to that one,
    the trace those after; the trigger reads back as Linux's and
    `!snapshot` removes it."""
    clean(k)
    write(k, f'{SW}/enable', '1')
    k.run('run fib 2')
    write(k, f'{SW}/trigger', '\'snapshot:1 if next_comm == "ping"\'')
    k.check(cat(k, f'{SW}/trigger'),
            'snapshot:count=1 if next_comm == "ping"\n')
    k.run('run pingpong 20')
    write(k, f'{SW}/enable', '0')
    k.check(cat(k, f'{SW}/trigger'),
            'snapshot:count=0 if next_comm == "ping"\n')
    snap = [l for l in trace_lines(k, 'snapshot') if 'sched_switch:' in l]
    before, after = switch_times(k, 'snapshot'), switch_times(k, 'trace')
    assert len(before) > 3 and len(after) > 10, (len(before), len(after))
    assert 'next_comm=ping ' in snap[-1], snap[-1]
    assert not any('next_comm=ping ' in l for l in snap[:-1]), snap
    assert max(before) <= min(after), (max(before), min(after))
    write(k, f'{SW}/trigger', "'!snapshot'")
    k.check(cat(k, f'{SW}/trigger'), NO_TRIGGERS)
    k.check(cat(k, f'{SW}/enable'), '0\n')
    clean(k)


def test_trigger_snapshot_readback(k):
    """Done when: the unlimited and filtered forms read back as Linux's,
    a second one is refused (EEXIST), and the trigger allocates the
    snapshot buffer."""
    clean(k)
    write(k, f'{SW}/trigger', "'snapshot if prev_pid == 1'")
    k.check(cat(k, f'{SW}/trigger'), 'snapshot:unlimited if prev_pid == 1\n')
    k.check(write(k, f'{SW}/trigger', 'snapshot'),
            'sh: write error: File exists\n')
    k.check(cat(k, 'snapshot'), ALLOCATED)
    write(k, f'{SW}/trigger', "'!snapshot'")
    k.check(cat(k, f'{SW}/trigger'), NO_TRIGGERS)
    clean(k)


def test_function_probe_snapshot(k):
    """Done when: `fib:snapshot:1` takes one snapshot at fib's first
    call and reads back as Linux's (`fib:snapshot:count=N`, and
    `:unlimited` without a count)."""
    clean(k)
    write(k, 'set_ftrace_filter', "'fib:snapshot:1'")
    k.check(cat(k, 'set_ftrace_filter'),
            '#### all functions enabled ####\nfib:snapshot:count=1\n')
    write(k, 'trace_marker', 'before')
    k.run('run fib 3')
    write(k, 'trace_marker', 'after')
    k.check(cat(k, 'set_ftrace_filter'),
            '#### all functions enabled ####\nfib:snapshot:count=0\n')
    k.check([m[1] for m in marks(k, 'snapshot')], ['before'])
    k.check([m[1] for m in marks(k, 'trace')], ['after'])
    write(k, 'set_ftrace_filter', "'!fib:snapshot:0'", append=True)
    write(k, 'set_ftrace_filter', "'fib:snapshot'")
    k.check(cat(k, 'set_ftrace_filter'),
            '#### all functions enabled ####\nfib:snapshot:unlimited\n')
    write(k, 'set_ftrace_filter', "'!fib:snapshot'", append=True)
    k.check(cat(k, 'set_ftrace_filter'), '#### all functions enabled ####\n')
    clean(k)


def test_probe_without_buffer_stops_tracing(k):
    """Done when: a snapshot probe that fires after `echo 0 > snapshot`
    freed the buffer says so in the trace, twice as Linux's
    tracing_snapshot_instance does, and turns tracing off there."""
    clean(k)
    write(k, 'set_ftrace_filter', "'fib:snapshot'")
    write(k, 'snapshot', '0')
    k.run('run fib 3')
    k.check(cat(k, 'tracing_on'), '0\n')
    said = [l.split(': ', 1)[1] for l in trace_lines(k)]
    k.check(said, ['tracing_snapshot_instance: *** SNAPSHOT NOT ALLOCATED ***',
                   'tracing_snapshot_instance: *** stopping trace here!   ***'])
    write(k, 'set_ftrace_filter', "'!fib:snapshot'", append=True)
    clean(k)
