#!/usr/bin/env python3
"""mkinitramfs.py: pack a host folder into a newc cpio archive for -initrd.

    scripts/mkinitramfs.py DIR OUT

The archive holds DIR's directories and regular files, by their paths
under DIR, with their permission bits (so a script marked executable
stays so), as `find . | cpio -o -H newc` would make it; the kernel
unpacks it into / at boot (kernel/fs/initramfs.c). Symbolic links and
other file types are left out, with a warning.
"""

import os
import stat
import sys


def entry(name, mode, data=b'', ino=0):
    """One newc entry: header, name and data, each padded to 4 bytes."""
    name_b = name.encode() + b'\0'
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_b), 0]
    head = b'070701' + b''.join(b'%08X' % f for f in fields)
    out = head + name_b
    out += b'\0' * (-len(out) % 4)
    out += data + b'\0' * (-len(data) % 4)
    return out


def pack(root):
    parts, ino = [], 1
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel = os.path.relpath(dirpath, root)
        if rel != '.':
            mode = os.stat(dirpath).st_mode
            parts.append(entry(rel, stat.S_IFDIR | stat.S_IMODE(mode), ino=ino))
            ino += 1
        for f in sorted(filenames):
            path = os.path.join(dirpath, f)
            st = os.lstat(path)
            name = os.path.normpath(os.path.join(rel, f))
            if not stat.S_ISREG(st.st_mode):
                print(f'mkinitramfs: {name}: not a regular file, left out',
                      file=sys.stderr)
                continue
            with open(path, 'rb') as fh:
                data = fh.read()
            parts.append(entry(name, stat.S_IFREG | stat.S_IMODE(st.st_mode),
                               data, ino))
            ino += 1
    parts.append(entry('TRAILER!!!', 0))
    return b''.join(parts)


def main():
    if len(sys.argv) != 3 or not os.path.isdir(sys.argv[1]):
        sys.exit('usage: mkinitramfs.py DIR OUT')
    with open(sys.argv[2], 'wb') as out:
        out.write(pack(sys.argv[1]))


if __name__ == '__main__':
    main()
