"""test_proc.py: /proc and /sys/devices/system/cpu/online in Linux 6.1's
formats: kallsyms (shared/reference/linux-6.1/q-g-more-files.txt, the
same text trace.dat carries), interrupts, cpuinfo, meminfo, /proc/self,
/proc/PID/stat and comm, a task's directory appearing and vanishing,
and the errors a Linux user would get."""

import re

from tracing import EINVAL

ENOENT = 'No such file or directory'
KALLSYMS = re.compile(r'^[0-9a-f]{16} [tTdDbBrR] \S+$')
# fs/proc/array.c:do_task_stat: 52 fields after "pid (comm) state"
STAT = re.compile(r'^(\d+) \((.+)\) ([RSZ])((?: -?\d+){49})$')


def run(k, cmd, **kw):
    return k.run(cmd, **kw).rstrip('\n')


def ncpus(k):
    return int(run(k, 'nproc'))


def test_kallsyms(k):
    """Done when: every line is ADDRESS TYPE NAME, sorted, fib is a T or
    t at its patchsite address, and trace.dat's copy is the same text."""
    lines = run(k, 'cat /proc/kallsyms | head -n 5').splitlines()
    k.check(len(lines), 5)
    for line in lines:
        assert KALLSYMS.match(line), line
    fib = run(k, "grep ' fib$' /proc/kallsyms")
    assert re.fullmatch(r'[0-9a-f]{16} [tT] fib', fib), fib
    site = re.search(r'site (0x[0-9a-f]+)', run(k, 'patchsite fib'))[1]
    k.check(int(fib.split()[0], 16), int(site, 16))
    total = int(run(k, 'cat /proc/kallsyms | wc -l'))
    assert total > 400, total


def test_interrupts(k):
    """Done when: the CPU header and the timer, PLIC and IPI lines have
    Linux's columns, and the timer's count grows."""
    n = ncpus(k)
    text = run(k, 'cat /proc/interrupts').splitlines()
    k.check(text[0], ' ' * 11 + ''.join(f'CPU{c:<8d}' for c in range(n)))
    counts = r'((?:[ \d]{10} ){%d})' % n
    timer = [re.match(r'^ +\d+: ' + counts + r' RISC-V INTC   5 Edge      '
                      r'riscv-timer$', line) for line in text]
    timer = [m for m in timer if m]
    k.check(len(timer), 1)
    uart = [line for line in text if line.endswith('ttyS0')]
    k.check(len(uart), 1)
    assert re.match(r'^ +\d+: ' + counts + r' SiFive PLIC  10 Edge      '
                    r'ttyS0$', uart[0]), uart[0]
    ipis = [line for line in text if line.startswith('IPI')]
    k.check([re.sub(r'^IPI\d:(?: +\d+){%d}  ' % n, '', x) for x in ipis],
            ['Rescheduling interrupts', 'Function call interrupts',
             'CPU stop interrupts', 'IRQ work interrupts',
             'Timer broadcast interrupts'])
    before = int(timer[0][1].split()[0])
    run(k, 'sleep 1')
    line = run(k, "grep riscv-timer /proc/interrupts")
    assert int(line.split()[1]) > before, line


def test_cpuinfo_and_online(k):
    """Done when: each CPU has processor, hart, isa and mmu as RISC-V
    Linux prints them, and cpu/online is a CPU list."""
    n = ncpus(k)
    blocks = run(k, 'cat /proc/cpuinfo').split('\n\n')
    blocks = [b for b in blocks if b.strip()]
    k.check(len(blocks), n)
    for cpu, block in enumerate(blocks):
        assert re.fullmatch(r'processor\t: %d\nhart\t\t: \d+\n'
                            r'isa\t\t: rv64[a-z_]+\nmmu\t\t: sv\d\d\n?'
                            % cpu, block), block
    k.check(run(k, 'cat /sys/devices/system/cpu/online'),
            '0' if n == 1 else f'0-{n - 1}')


def test_meminfo(k):
    """Done when: MemTotal, MemFree and MemAvailable are padded as
    Linux's show_val_kb pads them, and agree with `free`."""
    text = run(k, 'cat /proc/meminfo').splitlines()
    names = ['MemTotal:', 'MemFree:', 'MemAvailable:']
    k.check([line[:16].rstrip() for line in text], names)
    for line in text:
        assert re.fullmatch(r'.{16}[ \d]{7}\d kB', line), line
    total = int(text[0].split()[1])
    k.check(total, int(run(k, 'free').splitlines()[1].split()[1]))


def test_self_stat_comm(k):
    """Done when: /proc/self is the reader (cat is the shell's builtin,
    so the shell), stat has Linux's 52 fields, and ls /proc lists self."""
    stat = run(k, 'cat /proc/self/stat')
    m = STAT.match(stat)
    assert m, stat
    k.check((m[1], m[2], m[3]), (run(k, 'echo $$'), 'sh', 'R'))
    fields = m[4].split()
    k.check(len(fields) + 3, 52)
    k.check(run(k, 'cat /proc/self/comm'), 'sh')
    assert 'self' in run(k, 'ls /proc').split()


def test_task_dir_appears_and_vanishes(k):
    """Done when: a background task's /proc/PID shows its comm and a
    sleeping state, and is gone (ENOENT) once it has been reaped."""
    run(k, 'sleep 3 &')
    pid = run(k, 'echo $!')
    k.check(run(k, f'cat /proc/{pid}/comm'), 'sleep')
    stat = STAT.match(run(k, f'cat /proc/{pid}/stat'))
    k.check((stat[1], stat[3]), (pid, 'S'))
    assert pid in run(k, 'ls /proc').split()
    run(k, 'wait', timeout=10)
    k.check(run(k, f'cat /proc/{pid}/comm'),
            f'cat: /proc/{pid}/comm: {ENOENT}')
    assert pid not in run(k, 'ls /proc').split()


def test_errors(k):
    """Done when: a pid that never was is ENOENT, the files refuse
    writes, and /proc takes no new files."""
    k.check(run(k, 'cat /proc/99999/stat'),
            f'cat: /proc/99999/stat: {ENOENT}')
    k.check(k.run('echo 1 > /proc/meminfo'), EINVAL)
    assert 'denied' in run(k, 'echo 1 > /proc/new'), 'created a file'
    k.check(run(k, 'cat /proc/meminfo | wc -l'), '3')
