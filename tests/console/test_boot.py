"""test_boot.py: what the kernel says at boot matches how QEMU started
it (harts, RAM, command line), and the shell's first basics: unknown
commands, `selftest` and `poweroff`."""

import re

from harness import Kernel, check

APPEND = 'rvftrace.test=boot hello'


def banner_facts(output):
    m = re.search(r'rvftrace: hart \d+ boots, (\d+) hart\(s\), '
                  r'(\d+) MiB RAM at 0x[0-9a-f]+, timebase (\d+) Hz', output)
    assert m, 'no boot banner'
    return int(m[1]), int(m[2]), int(m[3])


def test_banner_counts_harts(k):
    harts, _, _ = banner_facts(k.output)
    assert harts == k.smp, f'{harts} harts reported, -smp {k.smp}'


def test_every_cpu_online(k):
    m = re.search(r'smp: (\d+) CPU\(s\) online', k.output)
    assert m, 'no "CPU(s) online" line'
    assert int(m[1]) == k.smp, f'{m[1]} CPUs online, -smp {k.smp}'


def test_banner_ram_and_timebase(k):
    _, mib, timebase = banner_facts(k.output)
    assert mib == 256, f'{mib} MiB reported, -m 256M'
    assert timebase == 10_000_000, f'timebase {timebase} Hz'


def test_ram_follows_dash_m(k):
    with Kernel(smp=k.smp, mem='128M') as small:
        _, mib, _ = banner_facts(small.output)
        assert mib == 128, f'{mib} MiB reported, -m 128M'


def test_command_line_from_append(k):
    m = re.search(r'rvftrace: command line: (.*)', k.output)
    assert m, 'no command line in the banner'
    # run_all.py --append adds its words after the module's own.
    check(m[1][:len(APPEND)], APPEND)


def test_unknown_command(k):
    check(k.run('foo'), 'sh: foo: not found\n')


def test_empty_line(k):
    check(k.run(''), '')


def test_selftest_command_prints_ktap(k):
    # One suite: the whole run is -append selftest's job (run_all.py).
    out = k.run('selftest vfs', timeout=120)
    lines = out.splitlines()
    assert lines[0] == 'KTAP version 1', f'first line {lines[0]!r}'
    plan = re.fullmatch(r'1\.\.(\d+)', lines[1])
    assert plan, f'no plan line: {lines[1]!r}'
    suites = [line for line in lines if re.match(r'(not )?ok \d+ - ', line)]
    assert len(suites) == int(plan[1]), f'{len(suites)} of {plan[1]} suites'
    assert re.search(r'^# Totals: pass:\d+ fail:0 ', out, re.M), \
        'failures: ' + ', '.join(re.findall(r'^ *not ok \d+ - (.*)$', out,
                                            re.M))


def test_poweroff_exits_qemu_with_zero(k):
    assert k.poweroff() == 0
