"""Plot bench/size_results.txt (written by bench/size.sh): bpindex's size
as a fraction of btree's per dataset, after CREATE INDEX and after the
inserts, with the issue's targets.

    python bench/size_plot.py RESULTS_TXT OUTPUT_PNG
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TARGETS = {"asc_int8": 0.35, "asc_timestamptz": 0.35, "random_int8": 0.75,
           "int8_1000": 0.8, "int4_100": 0.8}


def read_ratios(path):
    """{dataset: {phase: ratio}} from the table rows, in file order."""
    ratios = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) == 7 and fields[1] in ("build", "insert"):
                ratios.setdefault(fields[0], {})[fields[1]] = float(fields[4])
    return ratios


def main(path, output):
    ratios = read_ratios(path)
    names = list(ratios)
    fig, ax = plt.subplots(figsize=(11, 4.5))
    width = 0.38
    for k, phase in enumerate(("build", "insert")):
        xs = [i + (k - 0.5) * width for i in range(len(names))]
        ax.bar(xs, [ratios[n].get(phase, 0) for n in names], width,
               label="after CREATE INDEX" if phase == "build"
               else "after the inserts")
    for i, name in enumerate(names):
        limit = TARGETS.get(name, 1.0)
        ax.hlines(limit, i - 0.45, i + 0.45, colors="black", linestyles="dashed")
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_ylabel("bpindex size / btree size")
    ax.set_title("Index size, bpindex against btree (dashed: target)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(output, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
