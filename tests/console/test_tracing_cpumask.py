"""test_tracing_cpumask.py: tracing_cpumask as Linux 6.1's
(shared/reference/linux-6.1/m1-plain-reads-default.txt: `3` on two
CPUs): a hex digit per 4 CPUs, every CPU by default; a CPU left out
records nothing; EINVAL and EOVERFLOW for bad text, the mask kept."""

import re

from tracing import T, EINVAL, reset, cat, write, trace_lines

EOVERFLOW = 'sh: write error: Value too large for defined data type\n'
EVENT_CPU = re.compile(r'^ +\S+-\d+ +\[(\d{3})\] ')


def test_default_and_errors(k):
    """Done when: the default is every CPU, bad text is refused with
    Linux's errno, and the mask is left as it was."""
    n = int(k.run('nproc'))
    every = f'{(1 << n) - 1:x}\n'
    k.check(cat(k, 'tracing_cpumask'), every)
    k.check(write(k, 'tracing_cpumask', 'x'), EINVAL)
    k.check(write(k, 'tracing_cpumask', '1x'), EINVAL)
    k.check(write(k, 'tracing_cpumask', '1,0,0'), EOVERFLOW)
    k.check(write(k, 'tracing_cpumask', '10000000000000000'), EOVERFLOW)
    k.check(cat(k, 'tracing_cpumask'), every)
    k.check(write(k, 'tracing_cpumask', '1'), '')
    k.check(cat(k, 'tracing_cpumask'), '1\n')
    k.check(write(k, 'tracing_cpumask', 'ff'), '')
    k.check(cat(k, 'tracing_cpumask'), every)


def test_masked_cpu_records_nothing(k):
    """Done when: with only CPU 0 in the mask, the tick of every CPU
    leaves events of CPU 0 alone; with all back, each CPU's appear."""
    n = int(k.run('nproc'))
    reset(k)
    write(k, 'set_ftrace_filter', 'scheduler_tick')
    write(k, 'tracing_cpumask', '1')
    write(k, 'current_tracer', 'function')
    k.run('sleep 1')
    write(k, 'tracing_on', '0')
    cpus = {m[1] for m in map(EVENT_CPU.match, trace_lines(k)) if m}
    k.check(cpus, {'000'})
    write(k, 'tracing_cpumask', 'f')
    write(k, 'trace', '')
    write(k, 'tracing_on', '1')
    k.run('sleep 1')
    write(k, 'tracing_on', '0')
    cpus = {m[1] for m in map(EVENT_CPU.match, trace_lines(k)) if m}
    reset(k)
    k.check(cpus, {f'{c:03d}' for c in range(n)})
