"""test_options.py: the trace options that change what is recorded or
how it prints, each against Linux 6.1's format: funcgraph-overrun
(kernel/trace/trace_functions_graph.c: print_graph_return), hex and bin
(kernel/trace/trace_output.c: print_hex_fmt, print_bin_fmt, the
function event's hex and binary handlers), verbose
(trace_print_lat_context and trace_default_header), func-no-repeats
(kernel/trace/trace_functions.c and trace_func_repeats_print),
function-fork (set_ftrace_pid following forks and exits), and
sleep-time and graph-time in the function profiler."""

import re

from tracing import reset, cat, write, trace_lines

SMP = (1,)
DEPTH = 50              # function_graph's ret_stack (FTRACE_RETFUNC_DEPTH)


def test_funcgraph_overrun(k):
    """`run deep 60` calls deep() 61 times nested: the first 50 fill the
    ret_stack, 11 more are counted, and every closing brace of the
    hooked ones is followed by ` (Overruns: 11)` once the option is
    set; a leaf line (`deep();`) has none, as in Linux."""
    reset(k)
    write(k, 'set_ftrace_filter', 'deep')
    write(k, 'current_tracer', 'function_graph')
    k.check(k.run('run deep 60'), 'deep(60) = 60\n')
    plain = trace_lines(k)
    assert not any('Overruns' in l for l in plain), plain
    write(k, 'options/funcgraph-overrun', '1')
    lines = trace_lines(k)
    write(k, 'options/funcgraph-overrun', '0')
    reset(k)
    braces = [i for i, l in enumerate(lines) if l.endswith('}')]
    assert len(braces) == DEPTH - 1, lines
    for i in braces:
        k.check(lines[i + 1], ' (Overruns: 11)')
    assert sum(l.endswith('deep();') for l in lines) == 1, lines
    assert len(lines) == DEPTH + 2 * (DEPTH - 1), lines
