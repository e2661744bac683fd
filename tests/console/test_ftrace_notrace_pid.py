"""test_ftrace_notrace_pid.py: set_ftrace_notrace_pid as Linux 6.1's:
`no pid` when empty, the function tracer skips the tasks it lists (and
a pid in both it and set_ftrace_pid), `>` empties it at open so a bad
write leaves `no pid`, and `>>` adds."""

import re

from tracing import EINVAL, reset, cat, write, trace_lines

TASK = re.compile(r'^ +\S+-(\d+) +\[\d{3}\] ')


def pids_traced(k):
    """The pids of the shell's vfs_open calls while it cats a file."""
    write(k, 'trace', '')
    k.run('cat /proc/meminfo > /dev/null')
    write(k, 'tracing_on', '0')
    found = {m[1] for m in map(TASK.match, trace_lines(k)) if m}
    write(k, 'tracing_on', '1')
    return found


def clean(k):
    write(k, 'set_ftrace_notrace_pid', '')
    reset(k)


def test_list_and_errors(k):
    """Done when: empty reads `no pid`, pids list one a line, sorted,
    base 0 (`0x10` is 16), a bad word is EINVAL and `>` had emptied
    the list first."""
    clean(k)
    k.check(cat(k, 'set_ftrace_notrace_pid'), 'no pid\n')
    k.check(write(k, 'set_ftrace_notrace_pid', '7 0x10'), '')
    k.check(write(k, 'set_ftrace_notrace_pid', '3', append=True), '')
    k.check(cat(k, 'set_ftrace_notrace_pid'), '3\n7\n16\n')
    k.check(cat(k, 'set_ftrace_pid'), 'no pid\n')
    k.check(write(k, 'set_ftrace_notrace_pid', 'abc'), EINVAL)
    k.check(cat(k, 'set_ftrace_notrace_pid'), 'no pid\n')


def test_function_tracer_skips_them(k):
    """Done when: the shell's calls are traced, then not once its pid is
    in the list, also when set_ftrace_pid lists it too, and again once
    the list is empty."""
    clean(k)
    sh = k.run('echo $$').strip()
    write(k, 'set_ftrace_filter', 'vfs_open')
    write(k, 'current_tracer', 'function')
    assert sh in pids_traced(k)
    write(k, 'set_ftrace_notrace_pid', sh)
    assert sh not in pids_traced(k)
    write(k, 'set_ftrace_pid', sh)
    k.check(pids_traced(k), set())
    write(k, 'set_ftrace_notrace_pid', '')
    k.check(pids_traced(k), {sh})
    clean(k)
