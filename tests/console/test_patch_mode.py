"""test_patch_mode.py: the patch mode as a user sets it (docs/tour.md,
stage 11): `ftrace_patch=live` on the command line, then
/proc/sys/kernel/ftrace_patch_mode between updates, a bad name refused
with EINVAL as a sysctl refuses one, and tracing the same in both
modes."""

from harness import Kernel
from tracing import EINVAL, reset, trace_lines, write

APPEND = 'ftrace_patch=live'
SMP = (1, 4)
MODE = '/proc/sys/kernel/ftrace_patch_mode'


def test_command_line_chooses_live(k):
    k.check(k.run(f'cat {MODE}'), 'live\n')


def fib_calls_traced(k):
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 10')
    lines = trace_lines(k)
    reset(k)
    return len(lines)


def test_both_modes_trace_alike(k):
    assert fib_calls_traced(k) == 177
    k.check(k.run(f'echo stop_machine > {MODE}'), '')
    k.check(k.run(f'cat {MODE}'), 'stop_machine\n')
    assert fib_calls_traced(k) == 177
    k.check(k.run(f'echo live > {MODE}'), '')
    k.check(k.run(f'cat {MODE}'), 'live\n')


def test_bad_name_refused(k):
    k.check(k.run(f'echo fast > {MODE}'), EINVAL)
    k.check(k.run(f'cat {MODE}'), 'live\n')


def test_bad_command_line_keeps_stop_machine(k):
    with Kernel(smp=k.smp, append='ftrace_patch=fast') as other:
        assert 'ftrace: ftrace_patch=fast: no such mode (stop_machine, ' \
               'live): stop_machine' in other.output, other.tail()
        other.check(other.run(f'cat {MODE}'), 'stop_machine\n')
