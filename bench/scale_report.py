#!/usr/bin/env python3
"""Writes the scaling table (bench/README.md, "Scaling") from rocshmem-emu-scale outputs.

  scale_report.py --raw DIR [--before DIR] [--barrier DIR] --out FILE [--machine TEXT] [--commit TEXT]

DIR holds one output per PE count (pes-N.txt: the "RESULT scale ..." lines of PE 0; java-N.txt: the same
from org.rocshmem.bench.ScaleMain). --before adds the
same rows measured with an earlier build, for a before/after column. --barrier holds interleaved
rocshmem-emu-bench --barrier-only outputs (BUILD-PES-ROUND.txt) to compare host barriers.
"""
import argparse
import os
import re
import statistics
import sys

RESULT = re.compile(r"RESULT scale op=(\S+) bytes=(\d+) pes=(\d+) value=([-\d.]+) unit=(\S+)")
BARRIER = re.compile(r"RESULT barrier_all_latency pes=(\d+) iters=\d+ median_us=([\d.]+)")

LABELS = {
    "host_barrier_all": "host barrier_all",
    "host_long_p_rate": "host long_p to the next PE, per PE",
    "host_fetch_add_contended": "host long fetch_add, every PE on PE 0",
    "host_sum_reduce": "host long sum_reduce",
    "host_sum_reduce_scatter": "host long sum_reduce_scatter (block per PE)",
    "host_broadcast": "host long broadcast",
    "stream_alltoallmem": "alltoallmem_on_stream + sync (per PE pair)",
    "stream_sum_reduce": "long sum_reduce_on_stream + sync",
    "kernel_launch_sync": "kernel launch + sync (1 x 64, empty)",
    "device_barrier_all_wg": "device barrier_all_wg (1 x 64)",
    "device_syncthreads": "device __syncthreads (1 x 64), reference",
    "device_long_p_rate": "device long_p (4 x 256) to the next PE, per PE",
    "device_sum_reduce_wg": "device sum_reduce_wg (1 x 64)",
    "java_host_barrier_all": "Java: Rocshmem.barrierAll",
    "java_host_long_p_rate": "Java: SymmetricLongs.p to the next PE, per PE",
    "java_host_fetch_add_contended": "Java: atomicFetchAdd, every PE on PE 0",
    "java_host_sum_reduce": "Java: Team.sumReduce (longs)",
    "java_stream_alltoallmem": "Java: Team.alltoallmem on a stream + synchronize",
}


def load(directory):
    rows = {}  # (op, bytes) -> {pes: (value, unit)}
    order = []
    for name in sorted(os.listdir(directory)):
        if not name.startswith(("pes-", "java-")):
            continue
        with open(os.path.join(directory, name), errors="replace") as f:
            for line in f:
                m = RESULT.search(line)
                if not m:
                    continue
                key = (m.group(1), int(m.group(2)))
                if key not in rows:
                    rows[key] = {}
                    order.append(key)
                rows[key][int(m.group(3))] = (float(m.group(4)), m.group(5))
    return rows, order


def size(b):
    if b == 0:
        return ""
    if b >= 1 << 20:
        return f"{b >> 20} MiB"
    if b >= 1 << 10:
        return f"{b >> 10} KiB"
    return f"{b} B"


def fmt(v):
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def get(rows, op, b, pes):
    cell = rows.get((op, b), {}).get(pes)
    return cell[0] if cell else None


def verdict(ok, by=""):
    return "**met**" if ok else "**missed**" + (f" by {by}" if by else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--before")
    ap.add_argument("--barrier")
    ap.add_argument("--out", required=True)
    ap.add_argument("--machine", default="")
    ap.add_argument("--commit", default="")
    ap.add_argument("--date", default="")
    a = ap.parse_args()

    rows, order = load(a.raw)
    before, _ = load(a.before) if a.before else ({}, [])
    pes = sorted({p for cells in rows.values() for p in cells})
    out = []
    out.append("# The emulator at 1 to 16 PEs (`rocshmem-emu-scale`)\n")
    out.append("Written by `bench/scale_report.py` from `rocshmem-emu-run -n N -- rocshmem-emu-scale` outputs "
               "(bench/README.md, \"Scaling\"). Every PE runs every row at once; the value is PE 0's median over "
               "5 trials. Times per call, rates per PE.\n")
    out.append("| | |\n|---|---|")
    if a.machine:
        out.append(f"| machine | {a.machine} |")
    if a.commit:
        out.append(f"| commit | {a.commit} |")
    if a.date:
        out.append(f"| date | {a.date} |")
    out.append("")

    # Targets (issue 29).
    t = []
    r2, r16 = get(rows, "host_sum_reduce", 8 << 20, 2), get(rows, "host_sum_reduce", 8 << 20, 16)
    if r2 and r16:
        t.append(("8 MiB sum reduction at 16 PEs ≤ 2× its 2-PE time",
                  f"{fmt(r16)} µs vs {fmt(r2)} µs: {r16 / r2:.2f}×", r16 <= 2 * r2, f"{r16 / (2 * r2) - 1:.0%}"))
    a2, a16 = get(rows, "stream_alltoallmem", 64 << 10, 2), get(rows, "stream_alltoallmem", 64 << 10, 16)
    if a2 and a16:
        bw2, bw16 = 2 * 65536 / a2 / 1e3, 16 * 65536 / a16 / 1e3  # GB/s received per PE
        t.append(("alltoall bandwidth-bound: 64 KiB per PE pair, GB/s received per PE at 16 PEs ≥ ½ of 2 PEs'",
                  f"{bw16:.2f} GB/s at 16 PEs ({fmt(a16)} µs), {bw2:.2f} GB/s at 2 PEs ({fmt(a2)} µs)",
                  bw16 >= 0.5 * bw2, f"{0.5 - bw16 / bw2:.2f}× of the 2-PE bandwidth"))
    worst = [(p, get(rows, "device_barrier_all_wg", 0, p)) for p in pes if p <= 8]
    worst = [(p, v) for p, v in worst if v is not None]
    if worst:
        wp, wv = max(worst, key=lambda x: x[1])
        t.append(("device barrier_all_wg ≤ 3 µs at 1 to 8 PEs",
                  ", ".join(f"{fmt(v)} µs at {p}" for p, v in worst), wv <= 3.0, f"{wv - 3:.2f} µs at {wp} PEs"))
    d2, d16 = get(rows, "device_long_p_rate", 8, 2), get(rows, "device_long_p_rate", 8, 16)
    if d2 and d16:
        t.append(("device put rate at 16 PEs ≥ 0.8× its 2-PE rate",
                  f"{fmt(d16)} vs {fmt(d2)} Mops/s per PE: {d16 / d2:.2f}×", d16 >= 0.8 * d2, f"{0.8 - d16 / d2:.3f}×"))
    if t:
        out.append("## Targets (issue 29)\n")
        out.append("| target | measured | verdict |\n|---|---|---|")
        for name, measured, ok, by in t:
            out.append(f"| {name} | {measured} | {verdict(ok, by)} |")
        out.append("")

    if a.barrier:
        runs = {}
        for name in sorted(os.listdir(a.barrier)):
            m = re.match(r"(.+?)-\d+-(\d+)\.txt$", name)
            if not m:
                continue
            with open(os.path.join(a.barrier, name), errors="replace") as f:
                for line in f:
                    b = BARRIER.search(line)
                    if b:
                        runs.setdefault((m.group(1), int(b.group(1))), []).append(float(b.group(2)) * 1000)
        if runs:
            out.append("## Host barrier_all, repeated runs (`rocshmem-emu-bench --barrier-only`; several builds: "
                       "interleaved)\n")
            out.append("| build | PEs | median ns per run | median of runs |\n|---|---|---|---|")
            for (build, n), vals in sorted(runs.items(), key=lambda x: (x[0][1], x[0][0])):
                out.append(f"| {build} | {n} | {', '.join(f'{v:.0f}' for v in vals)} | "
                           f"{statistics.median(vals):.0f} |")
            out.append("")

    out.append("## All rows\n")
    head = "| row | size | unit | " + " | ".join(f"{p} PE{'s' if p > 1 else ''}" for p in pes) + " |"
    out.append(head)
    out.append("|---|---|---|" + "---|" * len(pes))
    for key in order:
        op, b = key
        cells = rows[key]
        unit = next(iter(cells.values()))[1]
        vals = []
        for p in pes:
            v = cells.get(p)
            if v is None:
                vals.append("")
                continue
            old = before.get(key, {}).get(p)
            vals.append(fmt(v[0]) + (f" ({fmt(old[0])})" if old else ""))
        out.append(f"| {LABELS.get(op, op)} | {size(b)} | {unit} | " + " | ".join(vals) + " |")
    if before:
        out.append("\nIn parentheses: the same row with the build before this change (same machine, same run).")
    out.append("")
    with open(a.out, "w") as f:
        f.write("\n".join(out))
    print(f"scale_report.py: wrote {a.out} ({len(order)} rows, PEs {pes})")


if __name__ == "__main__":
    sys.exit(main())
