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
