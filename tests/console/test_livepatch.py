"""test_livepatch.py: the livepatch demo (docs/livepatch.md) at the shell.

`klp` patches klp_demo_buggy_sum (the sum 1..n that stops at n - 1)
into klp_demo_fixed_sum through an IPMODIFY|SAVE_REGS|PERMANENT
ftrace_ops: calls give the fixed result while it is on (the tracers see
both functions), the buggy one again once it is off; a second patch of
the function is refused, and so is ftrace_enabled 0 while the patch is
on. `run klpdemo` calls the function on every CPU while the patch flips
and must see no result that is neither function's, nor one the patch
state rules out.
"""

import re
import time

from tracing import T, reset, cat, write, trace_lines

SMP = (1, 4)

DISABLED = 'klp_demo: disabled\n'
ENABLED = 'klp_demo: enabled (klp_demo_buggy_sum -> klp_demo_fixed_sum)\n'
BUGGY = 'klp_demo_buggy_sum(10) = 45 (buggy)\n'
FIXED = 'klp_demo_buggy_sum(10) = 55 (fixed)\n'
EBUSY = 'sh: write error: Device or resource busy\n'
FTRACE_ENABLED = '/proc/sys/kernel/ftrace_enabled'
STRESS = re.compile(r'klpdemo: (\d+) CPUs, (\d+) flips, (\d+) calls: '
                    r'(\d+) old, (\d+) new, (\d+) mixed, (\d+) stale\n')


def stress(k, rounds):
    out = k.run(f'run klpdemo {rounds}', timeout=120)
    m = STRESS.fullmatch(out)
    assert m, out
    cpus, flips, calls, old, new, mixed, stale = map(int, m.groups())
    assert cpus == k.smp, out
    assert flips == 2 * rounds, out
    assert calls == old + new + mixed, out
    return old, new, mixed, stale


def test_status_shows_the_bug(k):
    k.check(k.run('klp'), DISABLED + BUGGY)
    k.check(k.run('klp status'), DISABLED + BUGGY)


def test_enable_redirects_to_the_fix(k):
    k.check(k.run('klp enable'), ENABLED)
    k.check(k.run('klp status'), ENABLED + FIXED)
    k.check(cat(k, 'enabled_functions'), 'klp_demo_buggy_sum (1) R I  \n')
    out = k.run('patchsite klp_demo_buggy_sum')
    assert re.search(r'insn:   jal t0, 0x[0-9a-f]+ <ftrace_regs_caller>', out), out
    assert '  ops:    klp_demo\n' in out, out


def test_second_patch_is_busy(k):
    k.check(k.run('klp enable'), 'klp: klp_demo: Device or resource busy\n')
    k.check(k.run('klp status'), ENABLED + FIXED)


def test_ftrace_enabled_is_pinned(k):
    k.check(k.run(f'echo 0 > {FTRACE_ENABLED}'), EBUSY)
    k.check(k.run(f'cat {FTRACE_ENABLED}'), '1\n')
    k.check(k.run('klp status'), ENABLED + FIXED)


def test_tracer_sees_both_functions(k):
    reset(k)
    write(k, 'set_ftrace_filter', "'klp_demo_*'")
    write(k, 'current_tracer', 'function')
    k.run('klp status')
    funcs = [l.split(': ', 1)[1] for l in trace_lines(k)]
    k.check('\n'.join(funcs), 'klp_demo_buggy_sum <-klp_status\n'
            'klp_demo_fixed_sum <-klp_status')
    # In address order, whichever GCC placed first.
    assert sorted(cat(k, 'enabled_functions').splitlines()) == [
        'klp_demo_buggy_sum (2) R I  ', 'klp_demo_fixed_sum (1)      ']
    reset(k)
    k.check(k.run('klp status'), ENABLED + FIXED)


def test_graph_nests_the_new_function_in_the_old(k):
    reset(k)
    write(k, 'set_graph_function', 'klp_status')
    write(k, 'current_tracer', 'function_graph')
    k.run('klp status')
    calls = [l.split('|')[-1].strip() for l in trace_lines(k)]
    i = calls.index('klp_demo_buggy_sum() {')
    # A leaf, or opened and closed around an interrupt that came then.
    assert calls[i + 1] in ('klp_demo_fixed_sum();',
                            'klp_demo_fixed_sum() {'), calls
    assert calls[-1] == '}' and 'klp_demo_fixed_sum();' not in calls[:i], calls
    write(k, 'set_graph_function', '')
    reset(k)


def test_disable_brings_the_bug_back(k):
    k.check(k.run('klp disable'), DISABLED)
    k.check(k.run('klp status'), DISABLED + BUGGY)
    k.check(cat(k, 'enabled_functions'), '')
    assert '  insn:   nop\n' in k.run('patchsite klp_demo_buggy_sum')
    k.check(k.run('klp disable'), 'klp: klp_demo: not enabled\n')


def test_no_patch_while_ftrace_is_off(k):
    k.check(k.run(f'echo 0 > {FTRACE_ENABLED}'), '')
    k.check(k.run('klp enable'), 'klp: klp_demo: Device or resource busy\n')
    k.check(k.run(f'echo 1 > {FTRACE_ENABLED}'), '')
    k.check(k.run('klp status'), DISABLED + BUGGY)


def test_usage(k):
    usage = 'usage: klp [status|enable|disable]\n'
    k.check(k.run('klp patch'), usage)
    k.check(k.run('klp enable now'), usage)


def test_stress_sees_old_or_new_never_a_mix(k):
    old, new, mixed, stale = stress(k, 5)
    assert (mixed, stale) == (0, 0)
    assert old > 0 and new > 0
    k.check(k.run('klp status'), DISABLED + BUGGY)


def test_stress_from_enabled_ends_enabled(k):
    k.run('klp enable')
    old, new, mixed, stale = stress(k, 3)
    assert (mixed, stale) == (0, 0)
    assert old > 0 and new > 0
    k.check(k.run('klp status'), ENABLED + FIXED)
    k.check(k.run('klp disable'), DISABLED)


def test_ctrl_c_stops_stress_in_the_state_it_began(k):
    k.type('run klpdemo 1000\r')
    k.expect(r"run klpdemo 1000\n")
    time.sleep(1)
    k.type('\x03')
    out = k.read_until_prompt(timeout=60)
    m = STRESS.search(out)
    assert m and out.endswith('^C\n'), out
    flips, mixed, stale = int(m[2]), int(m[6]), int(m[7])
    assert flips % 2 == 0 and flips < 2000, out
    assert (mixed, stale) == (0, 0), out
    k.check(k.run('klp status'), DISABLED + BUGGY)
