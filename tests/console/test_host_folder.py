"""test_host_folder.py: a host folder shared over virtio-9p, as a person
uses it at /mnt/host: listing, reading, writing and creating files the
host then sees, a 1 MiB file both ways, what the host changes seen at
once, the host's errors as errnos; and a kernel booted without the
device says so and goes on.
"""

import atexit
import os
import shutil
import tempfile

import harness

SMP = (1, 4)
SHARE = tempfile.mkdtemp(prefix='rvftrace-host-folder-')
atexit.register(shutil.rmtree, SHARE, ignore_errors=True)
QEMU_ARGS = harness.share_args(SHARE)
MIB = 1024 * 1024


def host(name):
    return os.path.join(SHARE, name)


def put(name, data):
    with open(host(name), 'wb' if isinstance(data, bytes) else 'w') as f:
        f.write(data)


def get(name):
    with open(host(name), 'rb') as f:
        return f.read()


def test_boot_mounts_it(k):
    log = k.run('dmesg')
    assert 'virtio-mmio: 0x10008000 irq 8: device 9, version 2\n' in log, log
    assert "9p: the host's folder is /mnt/host (msize 65536)\n" in log, log


def test_list(k):
    put('a.txt', 'a\n')
    put('b.txt', 'bb\n')
    os.mkdir(host('dir'))
    put('dir/inner', 'inner\n')
    k.check(''.join(sorted(k.run('ls /mnt/host').splitlines(True))),
            'a.txt\nb.txt\ndir\n')
    k.check(''.join(sorted(k.run('ls -l /mnt/host').splitlines(True))),
            '-rw-r--r--        2 a.txt\n'
            '-rw-r--r--        3 b.txt\n'
            'drwxr-xr-x        0 dir\n')
    k.check(k.run('ls /mnt/host/dir'), 'inner\n')


def test_read_a_host_file(k):
    put('hello.txt', 'hello from the host\n')
    k.check(k.run('cat /mnt/host/hello.txt'), 'hello from the host\n')
    k.check(k.run('cd /mnt/host/dir'), '')
    k.check(k.run('cat inner'), 'inner\n')
    k.check(k.run('pwd'), '/mnt/host/dir\n')
    k.run('cd /')


def test_write_and_create(k):
    k.check(k.run('echo made in the guest > /mnt/host/created'), '')
    assert get('created') == b'made in the guest\n'
    k.check(k.run('echo and more >> /mnt/host/created'), '')
    assert get('created') == b'made in the guest\nand more\n'
    k.check(k.run('echo over > /mnt/host/created'), '')
    assert get('created') == b'over\n'
    k.check(k.run('ls -l /mnt/host/created'), '-rw-r--r--        5 '
            '/mnt/host/created\n')


def test_host_changes_are_seen(k):
    put('later', 'first\n')
    k.check(k.run('cat /mnt/host/later'), 'first\n')
    put('later', 'second, longer\n')
    k.check(k.run('cat /mnt/host/later'), 'second, longer\n')
    os.remove(host('later'))
    k.check(k.run('cat /mnt/host/later'),
            'cat: /mnt/host/later: No such file or directory\n')
    assert 'later' not in k.run('ls /mnt/host').split()


def test_large_file_both_ways(k):
    data = os.urandom(MIB)
    put('big', data)
    k.check(k.run('ls -l /mnt/host/big'), f'-rw-r--r-- {MIB:8} '
            '/mnt/host/big\n')
    k.check(k.run('cat /mnt/host/big > /tmp/big', timeout=60), '')
    k.check(k.run('ls -l /tmp/big'), f'-rw-r--r-- {MIB:8} /tmp/big\n')
    k.check(k.run('cat /tmp/big > /mnt/host/back', timeout=60), '')
    assert get('back') == data


def test_host_errors_are_errnos(k):
    k.check(k.run('cat /mnt/host/nosuch'),
            'cat: /mnt/host/nosuch: No such file or directory\n')
    k.check(k.run('ls /mnt/host/nosuch'), "ls: cannot access "
            "'/mnt/host/nosuch': No such file or directory\n")
    k.check(k.run('cat /mnt/host/dir'), 'cat: /mnt/host/dir: Is a directory\n')
    k.check(k.run('cat /mnt/host/a.txt/x'),
            'cat: /mnt/host/a.txt/x: Not a directory\n')
    # An errno only the host gives: its number comes back as it is.
    os.symlink('loop', host('loop'))
    k.check(k.run('cat /mnt/host/loop'),
            'cat: /mnt/host/loop: Too many levels of symbolic links\n')
    os.remove(host('loop'))


def test_no_device_is_said_and_boot_goes_on(k):
    with harness.Kernel(smp=1) as bare:
        log = bare.run('dmesg')
        assert 'virtio-mmio: no device\n' in log, log
        assert '9p: no virtio-9p device tagged "host": /mnt/host not ' \
            'mounted\n' in log, log
        bare.check(bare.run('ls /mnt/host'), "ls: cannot access "
                   "'/mnt/host': No such file or directory\n")
        assert bare.poweroff() == 0


def test_host_removes_the_shells_directory(k):
    os.makedirs(host('gone/deeper'))
    put('gone/deeper/f', 'f\n')
    k.check(k.run('cd /mnt/host/gone/deeper'), '')
    shutil.rmtree(host('gone'))
    k.run('ls /mnt/host')
    # New inodes, which would take the memory of freed ones.
    os.mkdir(host('many'))
    for i in range(40):
        put(f'many/file{i:02}', f'{i}\n')
    assert len(k.run('ls /mnt/host/many').split()) == 40
    k.check(k.run('pwd'), '/mnt/host/gone/deeper\n')
    k.check(k.run('cat f'), 'cat: f: No such file or directory\n')
    k.check(k.run('cd /'), '')
    assert 'gone' not in k.run('ls /mnt/host').split()


def test_mkdir_rm_mv_reach_the_host(k):
    k.check(k.run('mkdir /mnt/host/made'), '')
    assert os.path.isdir(host('made'))
    k.check(k.run('echo moving > /mnt/host/made/a'), '')
    k.check(k.run('mv /mnt/host/made/a /mnt/host/made/b'), '')
    assert sorted(os.listdir(host('made'))) == ['b']
    assert get('made/b') == b'moving\n'
    k.check(k.run('echo in the guest > /tmp/local'), '')
    k.check(k.run('mv /tmp/local /mnt/host/made'), '')
    assert get('made/local') == b'in the guest\n'
    k.check(k.run('ls /tmp/local'),
            "ls: cannot access '/tmp/local': No such file or directory\n")
    k.check(k.run('rmdir /mnt/host/made'),
            "rmdir: '/mnt/host/made': Directory not empty\n")
    k.check(k.run('rm /mnt/host/made/b /mnt/host/made/local'), '')
    k.check(k.run('rmdir /mnt/host/made'), '')
    assert not os.path.exists(host('made'))
