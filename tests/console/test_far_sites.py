"""test_far_sites.py: a kernel whose traced sites are all beyond jal's
+-1 MiB reach of the trampolines (`make PAD_TEXT=3M`, build/pad: 3 MiB
of padding between the untraced objects and the traced ones). Each far
site calls its object's veneer (asm/ftrace_veneer.h), which `patchsite`
shows; the function and function_graph tracers trace through it as
they do through a near site."""

import re

from tracing import reset, write, trace_lines

SMP = 1
PAD_BUILD = True    # run_all.py runs it on --pad-build's kernel alone

MIB = 1 << 20


def site_and_tramp(k, func):
    """The site's address and ftrace_caller's, from patchsite."""
    site = int(re.search(r'site (0x[0-9a-f]+)', k.run(f'patchsite {func}'))[1],
               16)
    call = k.run('patchsite ftrace_call')
    return site, int(re.search(r'ftrace_call: (0x[0-9a-f]+)', call)[1], 16)


def test_patchsite_shows_the_veneer(k):
    reset(k)
    site, tramp = site_and_tramp(k, 'fib')
    assert site - tramp > MIB, (hex(site), hex(tramp))
    out = k.run('patchsite fib')
    assert '  insn:   nop\n' in out and 'veneer' not in out, out
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    out = k.run('patchsite fib')
    m = re.search(r'  insn:   jal t0, (0x[0-9a-f]+) <ftrace_caller_veneer>\n'
                  r'  veneer: (0x[0-9a-f]+) \(ftrace_caller_veneer\+0x0/0x8\):'
                  r' auipc t1, 0x[0-9a-f]+; jr -?\d+\(t1\) <ftrace_caller>\n',
                  out)
    assert m and m[1] == m[2], out
    assert abs(int(m[1], 16) - site) < MIB, out
    reset(k)
    out = k.run('patchsite fib')
    assert '  insn:   nop\n' in out and 'veneer' not in out, out


def test_function_trace_through_veneers(k):
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 10')
    funcs = [line.split(': ', 1)[1] for line in trace_lines(k)]
    reset(k)
    assert funcs[0] == 'fib <-fib_main', funcs[:3]
    assert funcs[1:] == ['fib <-fib'] * 176, funcs[:3]


def test_every_far_site_at_once(k):
    """No filter: every site of the kernel calls through a veneer."""
    reset(k)
    write(k, 'current_tracer', 'function')
    k.run('run fib 5')
    write(k, 'tracing_on', '0')
    funcs = [line.split(': ', 1)[1].split(' <-')[0]
             for line in trace_lines(k)]
    reset(k)
    assert funcs.count('fib') == 15, funcs     # fib(5): 2 * fib(6) - 1
    assert len(set(funcs)) > 10, sorted(set(funcs))


def test_graph_trace_through_veneers(k):
    """fib(3) is fib(2) and fib(1), fib(2) is fib(1) and fib(0): two
    calls with children, three leaves."""
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function_graph')
    k.run('run fib 3')
    lines = [line.split('|', 1)[1].strip() for line in trace_lines(k)
             if '|' in line and '==========' not in line]
    reset(k)
    assert lines == ['fib() {', 'fib() {', 'fib();', 'fib();', '}',
                     'fib();', '}'], lines
