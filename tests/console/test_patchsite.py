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
            'usage: patchsite FUNCTION | ftrace_call | ftrace_graph_call\n')
    out = k.run('patchsite ftrace_stub')
    assert 'not a traceable function' in out, out
    k.check(k.run('echo still here'), 'still here\n')


def test_ftrace_debug_switch(k):
    k.check(k.run('ftrace_debug'), 'off\n')
    k.check(k.run('ftrace_debug on'), '')
    k.check(k.run('ftrace_debug'), 'on\n')
    k.check(k.run('ftrace_debug off'), '')
    k.check(k.run('ftrace_debug maybe'), 'usage: ftrace_debug [on|off]\n')
