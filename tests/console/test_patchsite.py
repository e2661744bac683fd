"""test_patchsite.py: the live views of ftrace's patch sites.

`patchsite FUNC` shows a function's site as the boot-time patching left
it (one nop), `patchsite ftrace_call` what the trampoline calls, and
`ftrace_debug` logs what the patcher writes. Bad names get an error and
the shell carries on.
"""

import re

SMP = (1, 4)


def test_site_is_a_nop_after_boot(k):
    out = k.run('patchsite fib')
    # fib+0x0, or with -pg (FTRACE=mcount) the call of _mcount past the
    # prologue.
    assert re.match(r'fib: site 0x[0-9a-f]+ \(fib\+0x[0-9a-f]+/0x[0-9a-f]+\)\n',
                    out), out
    assert '  bytes:  13 00 00 00\n' in out, out
    assert '  insn:   nop\n' in out, out
    assert '  record: refcount 0 flags 0\n' in out, out
    assert '  ops:    -\n' in out, out


def test_trampoline_calls_the_stub(k):
    out = k.run('patchsite ftrace_call')
    assert out.startswith('ftrace_call: 0x'), out
    assert re.search(r'insn:   jal 0x[0-9a-f]+ <ftrace_stub>', out), out
    out = k.run('patchsite ftrace_graph_call')
    assert '  insn:   nop\n' in out, out


def test_bad_names(k):
    k.check(k.run('patchsite no_such_function_xyz'),
            'patchsite: no_such_function_xyz: no such function\n')
    k.check(k.run('patchsite'),
            'usage: patchsite FUNCTION | TRACEPOINT | ftrace_call | '
            'ftrace_graph_call\n')
    out = k.run('patchsite ftrace_stub')
    assert 'not a traceable function' in out, out
    k.check(k.run('echo still here'), 'still here\n')


def test_ftrace_debug_switch(k):
    k.check(k.run('ftrace_debug'), 'off\n')
    k.check(k.run('ftrace_debug on'), '')
    k.check(k.run('ftrace_debug'), 'on\n')
    k.check(k.run('ftrace_debug off'), '')
    k.check(k.run('ftrace_debug maybe'), 'usage: ftrace_debug [on|off]\n')


def test_site_follows_the_tracer(k):
    """What `echo function > current_tracer` walks: the filter marks
    the record, `function` patches the site into a call to ftrace_caller
    and ftrace_call into the tracer's callback; `nop` puts both back."""
    t = '/sys/kernel/tracing'
    k.run(f'echo fib > {t}/set_ftrace_filter')
    out = k.run('patchsite fib')
    assert '  insn:   nop\n' in out, out
    k.run(f'echo function > {t}/current_tracer')
    out = k.run('patchsite fib')
    assert re.search(r'insn:   jal t0, 0x[0-9a-f]+ <ftrace_caller>\n', out), out
    assert 'record: refcount 1 flags 0x84000000 enabled call-ops\n' in out, out
    assert '  ops:    function\n' in out, out
    out = k.run('patchsite ftrace_call')
    assert re.search(r'<function_trace_call>', out), out
    out = k.run('patchsite sort')
    assert '  insn:   nop\n' in out, out
    k.run(f'echo nop > {t}/current_tracer')
    k.run(f'echo > {t}/set_ftrace_filter')
    out = k.run('patchsite fib')
    assert '  insn:   nop\n' in out and 'refcount 0' in out, out
    out = k.run('patchsite ftrace_call')
    assert '<ftrace_stub>' in out, out


def test_ftrace_debug_logs_each_patch(k):
    t = '/sys/kernel/tracing'
    k.run(f'echo fib > {t}/set_ftrace_filter')
    k.run('ftrace_debug on')
    out = k.run(f'echo function > {t}/current_tracer')
    k.run('ftrace_debug off')
    k.run(f'echo nop > {t}/current_tracer')
    k.run(f'echo > {t}/set_ftrace_filter')
    # The three steps: ftrace_call to the list function, the site, then
    # ftrace_call to the tracer's own callback.
    steps = [l for l in out.splitlines()
             if 'ftrace_call+0x0' in l or ' fib+0x0' in l]
    assert len(steps) == 3, out
    assert steps[0].endswith('<ftrace_ops_list_func>'), out
    assert re.search(r'fib\+0x0/0x[0-9a-f]+: 00000013 nop -> [0-9a-f]{8} '
                     r'jal t0, 0x[0-9a-f]+ <ftrace_caller>$', steps[1]), out
    assert steps[2].endswith('<function_trace_call>'), out
