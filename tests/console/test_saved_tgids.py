"""test_saved_tgids.py: saved_tgids and the record-tgid option, as Linux
6.1's (kernel/trace/trace.c: saved_tgids_show, trace_alloc_tgid_map):
empty until record-tgid is set (q-g), then `PID TGID` for each task
switched in while it is on, by pid, kept after it is cleared. Every
task here is its own thread group, so TGID is the pid, in saved_tgids
and in the trace's TGID column."""

import re

from tracing import reset, cat, write, trace_lines

SMP = (1,)
FIB = re.compile(r'^ +fib-(\d+) +(?:\( *(\d+)\) )?\[\d{3}\] ')


def fib_pid(k):
    """The pid of a `run fib 3`, as the function tracer saw it; the
    TGID column, there with record-tgid, must be the pid."""
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 3')
    lines = trace_lines(k)
    pids = {FIB.match(l).groups() for l in lines}
    assert len(pids) == 1, lines
    pid, tgid = pids.pop()
    assert tgid in (pid, None), lines
    reset(k)
    return int(pid)


def tgids(k):
    pairs = [tuple(map(int, l.split(' '))) for l in
             cat(k, 'saved_tgids').splitlines()]
    assert all(pid == tgid for pid, tgid in pairs), pairs
    assert [p for p, _ in pairs] == sorted({p for p, _ in pairs}), pairs
    return {p for p, _ in pairs}


def test_empty_until_record_tgid(k):
    k.check(cat(k, 'saved_tgids'), '')


def test_tasks_switched_in_while_on(k):
    write(k, 'options/record-tgid', '1')
    first = fib_pid(k)
    write(k, 'options/record-tgid', '0')
    second = fib_pid(k)
    saved = tgids(k)
    assert first in saved and second not in saved, (first, second, saved)
