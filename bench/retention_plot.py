"""Plot bench/retention_results.txt (written by bench/retention.sh): per
cycle, the size of both indexes and the buffers min(k) reads.

    python bench/retention_plot.py RESULTS_TXT OUTPUT_PNG
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_cycles(path):
    """{index: [(cycle, size_kB, min_buf, lim_buf)]} from the table rows."""
    series = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) != 9 or not fields[0].isdigit():
                continue
            cycle, index, size = int(fields[0]), fields[1], int(fields[2])
            series.setdefault(index, []).append(
                (cycle, size / 1024.0, int(fields[3]), int(fields[7])))
    return series


def main(path, output):
    series = read_cycles(path)
    fig, (size_ax, buf_ax) = plt.subplots(1, 2, figsize=(11, 4.5))
    colors = {"btree": "tab:blue", "bpindex": "tab:red"}
    for index, rows in sorted(series.items()):
        cycles = [r[0] for r in rows]
        color = colors.get(index)
        size_ax.plot(cycles, [r[1] for r in rows], marker="o", color=color,
                     label=index)
        buf_ax.plot(cycles, [r[2] for r in rows], marker="o", color=color,
                    label=f"{index}, min(k)")
        buf_ax.plot(cycles, [r[3] for r in rows], marker="x", linestyle="--",
                    color=color, label=f"{index}, first 100 keys")
    size_ax.set_xlabel("cycle (delete the oldest tenth, insert a tenth, VACUUM)")
    size_ax.set_ylabel("index size (MB)")
    size_ax.set_ylim(bottom=0)
    size_ax.set_title("index size")
    size_ax.legend()
    buf_ax.set_xlabel("cycle")
    buf_ax.set_ylabel("buffers read (shared hit + read)")
    buf_ax.set_ylim(bottom=0)
    buf_ax.set_title("buffers of a query from the left end")
    buf_ax.legend()
    fig.tight_layout()
    fig.savefig(output, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
