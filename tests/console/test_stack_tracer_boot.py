"""test_stack_tracer_boot.py: `stacktrace` on the kernel command line
turns the stack tracer on from boot, as in Linux. With 4 CPUs the
other CPUs are up by then, so the tracer's sites must change in a real
stop_machine round (kernel/stop_machine.c refuses to patch without one
once another CPU is online)."""

from tracing import cat

APPEND = 'stacktrace'
SMP = (1, 4)


def test_on_from_boot(k):
    k.check(k.run('cat /proc/sys/kernel/stack_tracer_enabled'), '1\n')
    assert int(cat(k, 'stack_max_size')) > 0
    assert 'Stack tracer disabled' not in cat(k, 'stack_trace')
    k.run('echo 0 > /proc/sys/kernel/stack_tracer_enabled')
    k.check(cat(k, 'enabled_functions'), '')
