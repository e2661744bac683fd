"""test_lazy_dirs.py: the directories boot leaves empty and fills on
first use (kernel/fs/vfs.c:vfs_mkdir_lazy): events/, options/,
per_cpu/, trace_stat/ and the fault-injection knobs. Each is first
touched here in another way, on a kernel nothing else has used: a
path through it, a listing, a completion, rmdir's emptiness check, a
write; each must find the directory full."""

from tracing import T

D = '/sys/kernel/debug'


def test_first_use_fills(k):
    # a path through events/, the first thing that touches it
    k.check(k.run(f'cat {T}/events/sched/sched_switch/enable'), '0\n')
    # a listing of options/
    assert len(k.run(f'ls {T}/options').split()) >= 40
    assert 'print-parent' in k.run(f'ls {T}/options').split()
    # rmdir sees per_cpu/ full, as it was when boot made it
    k.check(k.run(f'rmdir {T}/per_cpu'),
            f"rmdir: '{T}/per_cpu': Directory not empty\n")
    k.check(k.run(f'ls {T}/per_cpu/cpu0/stats'), f'{T}/per_cpu/cpu0/stats\n')
    # a write below a debugfs knob directory
    k.check(k.run(f'echo 0 > {D}/failslab/times'), '')
    k.check(k.run(f'cat {D}/failslab/times'), '0\n')
    k.check(k.run(f'ls {D}/fail_page_alloc'), 'interval\nprobability\ntimes\n')
    k.check(k.run(f'cat {T}/trace_stat/function0 | head -n 1'),
            '  Function                               Hit    Time            '
            'Avg             s^2\n')
