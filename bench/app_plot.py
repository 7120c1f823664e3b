"""Plot bench/app_results.txt (written by bench/app.sh): per shape and
PostgreSQL version, the ratio bpindex / btree (below 1: bpindex ahead).

    python bench/app_plot.py RESULTS_TXT OUTPUT_PNG
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_ratios(path):
    """{version: [(shape, ratio)]} from the table rows of each section."""
    sections = {}
    version = None
    with open(path) as f:
        for line in f:
            if line.startswith("## PostgreSQL "):
                version = line.split()[-1]
                sections[version] = []
                continue
            fields = [x.strip() for x in line.split("|")]
            if version is None or len(fields) != 6 or fields[0] == "shape":
                continue
            try:
                sections[version].append((fields[0], float(fields[3])))
            except ValueError:
                continue
    return sections


def main(path, output):
    sections = read_ratios(path)
    shapes = []
    for rows in sections.values():
        for shape, _ in rows:
            if shape not in shapes:
                shapes.append(shape)
    fig, ax = plt.subplots(figsize=(11, 0.45 * len(shapes) + 1.5))
    height = 0.8 / max(len(sections), 1)
    colors = {"15": "tab:blue", "18": "tab:red"}
    for i, (version, rows) in enumerate(sorted(sections.items())):
        ratios = dict(rows)
        ys = [s_i + i * height for s_i, s in enumerate(shapes) if s in ratios]
        xs = [ratios[s] for s in shapes if s in ratios]
        ax.barh(ys, xs, height=height, color=colors.get(version),
                label=f"PostgreSQL {version}")
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_yticks([s_i + 0.4 - height / 2 for s_i in range(len(shapes))])
    ax.set_yticklabels(shapes, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("bpindex / btree (time; below 1: bpindex ahead)")
    ax.legend()
    ax.set_title("Application shapes: bpindex against btree, medians")
    fig.tight_layout()
    fig.savefig(output, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
