"""tracing.py: helpers shared by the tracefs console tests."""

T = '/sys/kernel/tracing'
EINVAL = 'sh: write error: Invalid argument\n'


def reset(k):
    """Back to the defaults between tests: nop, no filters, empty."""
    for cmd in ('echo nop > current_tracer', 'echo > set_ftrace_filter',
                'echo > set_ftrace_notrace', 'echo > set_ftrace_pid',
                'echo 1 > tracing_on', 'echo local > trace_clock',
                'echo > trace'):
        k.run(cmd.replace('> ', f'> {T}/'))


def cat(k, name):
    return k.run(f'cat {T}/{name}')


def write(k, name, value, append=False):
    return k.run(f"echo {value} {'>>' if append else '>'} {T}/{name}")


def trace_lines(k, name='trace'):
    """The event lines of a trace file, headers left out."""
    return [l for l in cat(k, name).splitlines() if not l.startswith('#')]
