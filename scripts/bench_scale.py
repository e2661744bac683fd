#!/usr/bin/env python3
"""bench_scale.py: the cost of switching tracers against the number of
harts, in both patch modes (`make bench-scale`).

usage: bench_scale.py BUILD OUT.json DOC.md SVG [HARTS...]
       bench_scale.py --doc FIGURES.json DOC.md SVG

The first form boots BUILD under `qemu -icount shift=0,sleep=off` on
each number of harts (1, 2, 4, 8, 16, 32, 64 by default), types `bench
modes` at the shell (kernel/shell/cmd_bench.c:bench_patch_modes), and
writes what it printed to OUT.json, keyed by the number of harts. The
second (also run by the first) rewrites, in DOC.md, the table between
the BEGIN and END marker lines from FIGURES.json, with a text chart,
and draws the same as an SVG. Each figure is an exact count of the
instructions of the whole machine, the same on every run.

Booting 64 harts and switching twice per mode takes a minute or two:
this is not part of `make test`.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..',
                                'tests', 'console'))
import harness  # noqa: E402

HARTS = (1, 2, 4, 8, 16, 32, 64)
MODES = ('stop_machine', 'live')
BEGIN = '<!-- figures from docs/bench_scale.json: make bench-scale ' \
        'rewrites them -->'
END = '<!-- end of the figures from docs/bench_scale.json -->'
# key, its title in the table and the charts
MEASURES = [
    ('switch_one_insns', 'nop -> function, 1-function filter'),
    ('patch_all_insns_per_site', 'nop -> function, every site, per site'),
    ('longest_stall_insns', 'longest stop of the other harts'),
]
BAR = 40        # characters of the longest bar of a text chart


def measure(build, harts):
    """`bench modes` on this many harts: {key: number}."""
    k = harness.Kernel(build=build, smp=harts, timeout=300,
                       qemu_args=harness.ICOUNT)
    with k:
        out = k.run('bench modes', timeout=900)
    values = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == 'bench:':
            num = float(parts[2])
            values[parts[1]] = int(num) if num.is_integer() else num
    missing = [f'{m}_{key}' for m in MODES for key, _ in MEASURES
               if f'{m}_{key}' not in values]
    if missing:
        raise SystemExit(f'bench modes on {harts} harts printed no '
                         f'{", ".join(missing)}:\n{out}')
    return values


def whole(value):
    return f'{round(value):,}'


def table(figures):
    """The markdown table: a row per number of harts, a column per
    measure and mode."""
    cols = [(key, m) for key, _ in MEASURES for m in MODES]
    head = '| harts | ' + ' | '.join(
        f'{title}, {m}' for key, title in MEASURES for m in MODES) + ' |'
    lines = [head, '| ---: |' + ' ---: |' * len(cols)]
    for harts in sorted(figures, key=int):
        v = figures[harts]
        lines.append(f'| {harts} | ' + ' | '.join(
            whole(v[f'{m}_{key}']) for key, m in cols) + ' |')
    return lines


def text_chart(figures, key, title):
    """One measure as bars, a pair (stop_machine, live) per hart count."""
    top = max(1, max(figures[h][f'{m}_{key}'] for h in figures
                     for m in MODES))
    lines = [f'{title} (instructions; one `#` is {whole(top / BAR)}):', '']
    for harts in sorted(figures, key=int):
        for m in MODES:
            value = figures[harts][f'{m}_{key}']
            bar = '#' * max(1, round(value / top * BAR))
            lines.append(f'{harts:>3} {m:<12} {bar} {whole(value)}')
    return lines


def doc_block(figures):
    lines = [BEGIN] + table(figures) + ['']
    for key, title in MEASURES:
        lines += ['```'] + text_chart(figures, key, title) + ['```', '']
    return lines + [END]


def rewrite_doc(text, figures):
    lines = text.split('\n')
    if BEGIN not in lines or END not in lines:
        raise SystemExit(f'the document lacks the marker lines {BEGIN!r} '
                         f'and {END!r}')
    start, end = lines.index(BEGIN), lines.index(END)
    return '\n'.join(lines[:start] + doc_block(figures) + lines[end + 1:])


def svg(figures):
    """Both measures as line charts, side by side, log2 harts across."""
    width, height, pad = 360, 240, 50
    colours = {'stop_machine': '#c0392b', 'live': '#2471a3'}
    harts = sorted(figures, key=int)
    parts = []
    for i, (key, title) in enumerate(MEASURES):
        x0 = i * (width + pad) + pad
        top = max(1, max(figures[h][f'{m}_{key}'] for h in harts
                         for m in MODES))

        def x(j):
            return x0 + j * width / max(1, len(harts) - 1)

        def y(v):
            return pad + height - v / top * height

        parts.append(f'<text x="{x0}" y="{pad - 20}" font-size="13">'
                     f'{title}</text>')
        parts.append(f'<line x1="{x0}" y1="{pad + height}" '
                     f'x2="{x0 + width}" y2="{pad + height}" '
                     'stroke="black"/>')
        parts.append(f'<line x1="{x0}" y1="{pad}" x2="{x0}" '
                     f'y2="{pad + height}" stroke="black"/>')
        parts.append(f'<text x="{x0 - 4}" y="{pad + 4}" font-size="10" '
                     f'text-anchor="end">{whole(top)}</text>')
        for j, h in enumerate(harts):
            parts.append(f'<text x="{x(j):.1f}" y="{pad + height + 14}" '
                         f'font-size="10" text-anchor="middle">{h}</text>')
        parts.append(f'<text x="{x0 + width / 2}" y="{pad + height + 30}" '
                     'font-size="11" text-anchor="middle">harts</text>')
        for m in MODES:
            points = ' '.join(f'{x(j):.1f},{y(figures[h][f"{m}_{key}"]):.1f}'
                              for j, h in enumerate(harts))
            parts.append(f'<polyline points="{points}" fill="none" '
                         f'stroke="{colours[m]}" stroke-width="2"/>')
    for n, m in enumerate(MODES):
        parts.append(f'<text x="{pad}" y="{2 * pad + height + 10 + 14 * n}" '
                     f'font-size="11" fill="{colours[m]}">{m}</text>')
    total_w = len(MEASURES) * (width + pad) + pad
    total_h = 2 * pad + height + 40
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" '
            f'height="{total_h}" font-family="sans-serif">\n'
            + '\n'.join(parts) + '\n</svg>\n')


def write_doc(figures, doc, svg_path):
    with open(doc) as f:
        text = f.read()
    with open(doc, 'w') as f:
        f.write(rewrite_doc(text, figures))
    with open(svg_path, 'w') as f:
        f.write(svg(figures))


def main(argv):
    if len(argv) == 4 and argv[0] == '--doc':
        with open(argv[1]) as f:
            write_doc(json.load(f), argv[2], argv[3])
        return 0
    if len(argv) < 4:
        raise SystemExit(__doc__)
    build, out, doc, svg_path = argv[:4]
    harts = [int(h) for h in argv[4:]] or HARTS
    figures = {}
    for n in harts:
        figures[str(n)] = measure(build, n)
        print(f'{n} harts: ' + ', '.join(
            f'{m}_{key} {whole(figures[str(n)][f"{m}_{key}"])}'
            for key, _ in MEASURES for m in MODES), flush=True)
    with open(out, 'w') as f:
        json.dump(figures, f, indent=1, sort_keys=True)
    write_doc(figures, doc, svg_path)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
