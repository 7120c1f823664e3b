#!/usr/bin/env python3
"""Generate bench/RESULTS.md, the summary files and the plots from the
measurements of bench/run.sh.

    python3 bench/report.py bench/results bench/RESULTS.md

Reads results/raw.csv (one line per measurement: workload, variant, param,
index, rep, metric, value), results/run.json (the run's parameters and the
machine) and results/postgres.json (server version and settings). Writes
results/summary.csv, results/summary.json, results/*.png and RESULTS.md.
Every number of RESULTS.md comes from these files, except the thesis' own
ratios, which are the constants in THESIS below (chapter 6 of the thesis).
"""

import csv
import glob
import json
import os
import re
import statistics
import sys
from collections import defaultdict

# The thesis' ratios BP-tree / B+-tree (small BPA configuration against the
# B+-tree with node_size = 1024, chapter 6), all throughputs (higher is
# better for the BP-tree). Source named beside each.
THESIS = {
    ("insert", "random"): (1.15, "table 6.4"),
    ("find", "point"): (1.26, "table 6.4"),
    ("iterate_range", 100): (0.89, "table 6.5"),
    ("iterate_range", 1000): (1.23, "table 6.5"),
    ("iterate_range", 10000): (1.37, "table 6.5"),
    ("iterate_range", 100000): (1.41, "table 6.5"),
    ("map_range", 100): (0.80, "table 6.6"),
    ("map_range", 1000): (1.40, "table 6.6"),
    ("map_range", 10000): (1.70, "table 6.6"),
    ("map_range", 100000): (1.72, "table 6.6"),
    ("ycsb", "Load"): (1.13, "table 6.7"),
    ("ycsb", "A"): (1.07, "table 6.7"),
    ("ycsb", "B"): (1.10, "table 6.7"),
    ("ycsb", "C"): (1.09, "table 6.7"),
    ("ycsb", "E"): (0.84, "table 6.7"),
    ("ycsb", "X"): (1.20, "table 6.7"),
    ("ycsb", "Y"): (1.45, "table 6.7"),
}

YCSB = [
    ("Load", "100% insert"),
    ("A", "50% find, 50% insert"),
    ("B", "95% find, 5% insert"),
    ("C", "100% find"),
    ("E", "95% iterate_range (max_len 100), 5% insert"),
    ("X", "100% iterate_range (max_len 10,000)"),
    ("Y", "100% map_range (max_len 10,000)"),
]

INDEXES = ("btree", "bpindex")


def load(results):
    values = defaultdict(dict)
    with open(os.path.join(results, "raw.csv")) as f:
        for r in csv.DictReader(f):
            key = (r["workload"], r["variant"], r["param"], r["index"], r["metric"])
            values[key][int(r["rep"])] = float(r["value"])
    with open(os.path.join(results, "run.json")) as f:
        run = json.load(f)
    with open(os.path.join(results, "postgres.json")) as f:
        pg = json.load(f)
    return values, run, pg


class Row:
    """One compared measurement: per-repetition values of both indexes."""

    def __init__(self, section, label, unit, better, reps, thesis=None, key=None):
        self.section, self.label, self.unit, self.better = section, label, unit, better
        self.reps = reps  # {"btree": [..], "bpindex": [..]}
        self.thesis = THESIS.get(key) if key else None
        self.btree = statistics.median(reps["btree"]) if reps["btree"] else None
        self.bpindex = statistics.median(reps["bpindex"]) if reps["bpindex"] else None

    @property
    def ratio(self):
        if self.btree in (None, 0) or self.bpindex is None:
            return None
        return self.bpindex / self.btree

    @property
    def winner(self):
        r = self.ratio
        if r is None or r == 1:
            return "tie"
        if (r > 1) == (self.better == "higher"):
            return "bpindex"
        return "btree"

    @property
    def spread(self):
        """Largest (max - min) / median of the repetitions of either index."""
        out = None
        for idx in INDEXES:
            v = self.reps[idx]
            if len(v) > 1 and statistics.median(v) != 0:
                s = (max(v) - min(v)) / abs(statistics.median(v))
                out = s if out is None else max(out, s)
        return out

    @property
    def loss(self):
        """How much worse bpindex is, as a fraction (positive when it loses)."""
        r = self.ratio
        if r is None:
            return None
        return 1 - r if self.better == "higher" else r - 1

    def as_dict(self):
        return {
            "section": self.section, "workload": self.label, "unit": self.unit,
            "better": self.better, "btree": self.btree, "bpindex": self.bpindex,
            "ratio_bpindex_btree": self.ratio, "winner": self.winner, "spread": self.spread,
            "thesis_ratio": self.thesis[0] if self.thesis else None,
            "thesis_source": self.thesis[1] if self.thesis else None,
            "reps_btree": self.reps["btree"], "reps_bpindex": self.reps["bpindex"],
        }


def build_rows(values, run):
    def reps(workload, variant, param, idx, metric, scale=1.0):
        d = values.get((workload, variant, str(param), idx, metric), {})
        return [d[k] * scale for k in sorted(d)]

    def both(workload, variant, param, metric, scale=1.0):
        return {i: reps(workload, variant, param, i, metric, scale) for i in INDEXES}

    rows = []
    nk = run["nkeys"]
    mib = 1 / 1048576

    sec = "Build and size"
    for t in ("int8", "int4"):
        rows.append(Row(sec, f"build: CREATE INDEX, {nk:,} {t} keys", "s", "lower",
                        both("build", t, "", "ms", 0.001)))
        rows.append(Row(sec, f"build: index size, {nk:,} {t} keys", "MiB", "lower",
                        both("build", t, "", "bytes", mib)))
    rows.append(Row(sec, f"size after build (bench tables, {nk:,} int8 keys)", "MiB", "lower",
                    both("size", "after_build", "", "bytes", mib)))
    ins_param = next((k[2] for k in values if k[0] == "insert"), "")
    ins_rows = int(ins_param) if ins_param else 0
    for kind in ("random", "ascending"):
        rows.append(Row(sec, f"size after the insert workload ({kind}, +{ins_rows:,} keys)", "MiB",
                        "lower", both("insert", kind, ins_param, "bytes_after", mib)))

    sec = "Insert"
    none_rates = {}
    for kind in ("random", "ascending"):
        r = Row(sec, f"insert {ins_rows:,} {kind} keys, statements of 1,000 rows", "rows/s",
                "higher", both("insert", kind, ins_param, "rows_per_s"), key=("insert", kind))
        rows.append(r)
        none = reps("insert", kind, ins_param, "none", "rows_per_s")
        none_rates[kind] = statistics.median(none) if none else None
        # the index's own cost: time per row with the index minus without
        cost = {i: [] for i in INDEXES}
        if none_rates[kind]:
            for i in INDEXES:
                if getattr(r, i):
                    cost[i] = [1e6 / getattr(r, i) - 1e6 / none_rates[kind]]
        rows.append(Row(sec, f"index's own cost, {kind} keys (time with index - without)",
                        "µs/row", "lower", cost))

    sec = "Find"
    rows.append(Row(sec, "find: point lookups (pgbench, Index Scan)", "lookups/s", "higher",
                    both("find", "point", "", "tps"), key=("find", "point")))
    rows.append(Row(sec, f"find: probe join of {run['nprobe']:,} keys (nested loop, "
                         "inner Index Only Scan), execution time", "ms", "lower",
                    both("find", "probe_join", "", "ms")))

    sec = "iterate_range"
    for ml in run["max_lens"]:
        for variant, what in (("k", "SELECT k (Index Only Scan)"),
                              ("k_payload", "SELECT k, payload (Index Scan)")):
            rows.append(Row(sec, f"iterate_range max_len {ml:,}, {what}", "elements/s", "higher",
                            both("iterate_range", variant, ml, "tps", ml / 2),
                            key=("iterate_range", ml)))

    sec = "map_range"
    for ml in run["max_lens"]:
        rows.append(Row(sec, f"map_range max_len {ml:,}, count(*) end to end", "elements/s",
                        "higher", both("map_range", "count", ml, "tps", ml / 2),
                        key=("map_range", ml)))
        node = {}
        for i in INDEXES:
            ms = values.get(("map_range", "bitmap_node", str(ml), i, "ms"), {})
            n = values.get(("map_range", "bitmap_node", str(ml), i, "rows"), {})
            node[i] = [n[k] / (ms[k] / 1000) for k in sorted(ms) if k in n and ms[k] > 0]
        rows.append(Row(sec, f"map_range max_len {ml:,}, Bitmap Index Scan node only", "elements/s",
                        "higher", node, key=("map_range", ml)))

    sec = "map_range node time"
    for ml in run["max_lens"]:
        rows.append(Row(sec, f"Bitmap Index Scan node time, {run['nranges']:,} ranges of max_len {ml:,}",
                        "ms", "lower", both("map_range", "bitmap_node", ml, "ms")))

    for dist, name in (("uniform", "uniform"), ("zipfian", "zipfian")):
        sec = f"YCSB, {name} keys"
        for wl, desc in YCSB:
            rows.append(Row(sec, f"YCSB {wl} ({name}): {desc}", "ops/s", "higher",
                            both("ycsb", dist, wl, "tps"),
                            key=("ycsb", wl) if dist == "uniform" else None))
    return rows, none_rates


def fmt(v):
    if v is None:
        return "n/a"
    a = abs(v)
    if a >= 1e6:
        return f"{v / 1e6:,.2f} M"
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 10:
        return f"{v:.1f}"
    return f"{v:#.3g}"


def fmt_ratio(r):
    return "n/a" if r is None else f"{r:.2f}"


def fmt_loss(x):
    return f"{x * 100:.1f}%" if x < 0.1 else f"{x * 100:.0f}%"


def fmt_pct(s):
    return "" if s is None else f"{s * 100:.0f}%"


def plots(rows, run, results):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def series(prefix, suffix):
        xs, bt, bp = [], [], []
        for ml in run["max_lens"]:
            for r in rows:
                if r.label == f"{prefix} max_len {ml:,}, {suffix}":
                    xs.append(ml)
                    bt.append(r.btree)
                    bp.append(r.bpindex)
        return xs, bt, bp

    made = []
    for name, prefix, variants, title in (
            ("iterate_range.png", "iterate_range",
             (("SELECT k (Index Only Scan)", "index only"),
              ("SELECT k, payload (Index Scan)", "with heap column")),
             "iterate_range: ORDER BY k LIMIT len, len uniform in [0, max_len]"),
            ("map_range.png", "map_range",
             (("count(*) end to end", "count(*) end to end"),
              ("Bitmap Index Scan node only", "Bitmap Index Scan node only")),
             "map_range: count(*) of a range by Bitmap Index Scan")):
        fig, ax = plt.subplots(figsize=(8, 5))
        for (suffix, label), style in zip(variants, ("-", "--")):
            xs, bt, bp = series(prefix, suffix)
            ax.plot(xs, bt, style, marker="o", color="tab:blue", label=f"btree, {label}")
            ax.plot(xs, bp, style, marker="s", color="tab:red", label=f"bpindex, {label}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("max_len")
        ax.set_ylabel("expected elements per second (higher is better)")
        ax.set_title(f"{title}\n{run['nkeys']:,} keys, {run['clients']} clients, "
                     f"median of {run['reps']}", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(results, name), dpi=110)
        plt.close(fig)
        made.append(name)

    fig, ax = plt.subplots(figsize=(9, 5))
    wls = [wl for wl, _ in YCSB]
    groups = [("uniform", "ours, uniform keys", "tab:red"),
              ("zipfian", "ours, zipfian keys", "tab:orange"),
              ("thesis", "thesis (table 6.7, uniform)", "tab:gray")]
    width = 0.27
    for gi, (g, label, color) in enumerate(groups):
        ys = []
        for wl in wls:
            if g == "thesis":
                ys.append(THESIS[("ycsb", wl)][0])
            else:
                r = next(r for r in rows if r.label.startswith(f"YCSB {wl} ({g})"))
                ys.append(r.ratio or 0)
        xs = [i + (gi - 1) * width for i in range(len(wls))]
        bars = ax.bar(xs, ys, width, label=label, color=color)
        for b, y in zip(bars, ys):
            ax.annotate(f"{y:.2f}", (b.get_x() + b.get_width() / 2, y), ha="center",
                        va="bottom", fontsize=7)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(wls)))
    ax.set_xticklabels(wls)
    ax.set_ylabel("throughput bpindex / btree (higher is better for bpindex)")
    ax.set_title(f"YCSB: bpindex / btree, {run['nkeys']:,} keys, {run['clients']} clients, "
                 f"median of {run['reps']}", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(results, "ycsb_ratios.png"), dpi=110)
    plt.close(fig)
    made.append("ycsb_ratios.png")
    return made


def table(rows, direction):
    out = [direction, "",
           "| workload | unit | better | btree | bpindex | bpindex/btree | winner | thesis BP/B+ | spread |",
           "|---|---|---|---:|---:|---:|---|---:|---:|"]
    for r in rows:
        th = f"{r.thesis[0]:.2f} ({r.thesis[1]})" if r.thesis else "n/a"
        out.append(f"| {r.label} | {r.unit} | {r.better} | {fmt(r.btree)} | {fmt(r.bpindex)} | "
                   f"{fmt_ratio(r.ratio)} | {r.winner} | {th} | {fmt_pct(r.spread)} |")
    return out + [""]


SECTION_TEXT = {
    "Build and size": "Times and sizes: ratio bpindex/btree, **lower is better for bpindex**.",
    "Insert": "Rows per second: ratio bpindex/btree, **higher is better for bpindex**; "
              "the index's own cost (µs per inserted row): ratio bpindex/btree, "
              "**lower is better for bpindex** (see the column *better*).",
    "Find": "Lookups per second: ratio bpindex/btree, **higher is better for bpindex**; "
            "probe join time: ratio bpindex/btree, **lower is better for bpindex**.",
    "iterate_range": "Expected elements per second (tps × max_len / 2): ratio bpindex/btree, "
                     "**higher is better for bpindex**.",
    "map_range": "Expected elements per second: end to end, tps × max_len / 2; node only, the "
                 "entries the Bitmap Index Scan nodes returned divided by their summed time. "
                 "Ratio bpindex/btree, **higher is better for bpindex**.",
    "map_range node time": "Summed \"Actual Total Time\" of the Bitmap Index Scan node over a fixed "
                           "set of ranges (EXPLAIN (ANALYZE, FORMAT JSON)): ratio bpindex/btree, "
                           "**lower is better for bpindex**.",
    "YCSB, uniform keys": "Operations (transactions) per second: ratio bpindex/btree, "
                          "**higher is better for bpindex**.",
    "YCSB, zipfian keys": "Operations (transactions) per second: ratio bpindex/btree, "
                          "**higher is better for bpindex**. The thesis ran uniform keys only.",
}


# Performance targets: (what, regular expression for the row, bound on the
# ratio bpindex/btree of that row, "max" or "min"). Time and size ratios are
# bounded from above, throughput ratios from below; a throughput target T on
# a row measured as a time is the time ratio 1/T.
TARGETS = [
    ("build time, int8", r"^build: CREATE INDEX, [0-9,]+ int8", 0.8, "max"),
    ("index size, int4", r"^build: index size, [0-9,]+ int4", 0.6, "max"),
    ("index size, int8", r"^build: index size, [0-9,]+ int8", 0.8, "max"),
    ("insert, random keys (index's own cost, rate 1.15 or more)",
     r"^index's own cost, random", 1 / 1.15, "max"),
    ("insert, ascending keys (index's own cost, rate 1.0 or more)",
     r"^index's own cost, ascending", 1.0, "max"),
    ("find, probe join (rate 1.1 or more)", r"^find: probe join", 1 / 1.1, "max"),
    ("find, pgbench lookups", r"^find: point lookups", 1.0, "min"),
    ("iterate_range, max_len 100", r"^iterate_range max_len 100, SELECT k \(", 0.95, "min"),
    ("iterate_range, max_len 100,000", r"^iterate_range max_len 100,000, SELECT k \(", 1.5, "min"),
    ("map_range, Bitmap Index Scan node, max_len 100,000",
     r"^map_range max_len 100,000, Bitmap Index Scan node only", 1.8, "min"),
    ("YCSB A", r"^YCSB A \(uniform\)", 1.1, "min"),
    ("YCSB B", r"^YCSB B \(uniform\)", 1.1, "min"),
    ("YCSB C", r"^YCSB C \(uniform\)", 1.1, "min"),
    ("YCSB E", r"^YCSB E \(uniform\)", 0.95, "min"),
    ("YCSB X", r"^YCSB X \(uniform\)", 1.25, "min"),
    ("YCSB Y", r"^YCSB Y \(uniform\)", 1.5, "min"),
]


def targets_table(rows, explanations):
    """Each performance target, this run's ratio, and why where it is missed."""
    L = ["## Targets", "",
         "The ratios bpindex aims at (bpindex/btree of the row named; *at most* for times "
         "and sizes, *at least* for throughputs). Where one is missed, the profile in "
         "ANALYSIS.md shows where the time goes, including the throughput bpindex would "
         "reach if its own code took no time.", "",
         "| target | row | goal | this run | met | where the time goes |",
         "|---|---|---:|---:|---|---|"]
    for what, pattern, bound, kind in TARGETS:
        row = next((r for r in rows if re.search(pattern, r.label)), None)
        if row is None or row.ratio is None:
            continue
        met = row.ratio <= bound if kind == "max" else row.ratio >= bound
        why = "" if met else (explain(row, explanations) or "**not profiled yet**")
        goal = ("≤ " if kind == "max" else "≥ ") + f"{bound:.2f}"
        L.append(f"| {what} | {row.label} | {goal} | {fmt_ratio(row.ratio)} | "
                 f"{'yes' if met else '**no**'} | {why} |")
    return L + [""]


def load_explanations(path):
    """The sections of ANALYSIS.md: heading, anchor, workload patterns, summary.

    A section explains the workloads whose labels match one of the regular
    expressions in its `<!-- losses: re1 ;; re2 -->` comment; its
    `**In short:**` paragraph is the table's "why" cell.
    """
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        text = f.read()
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        heading = part.splitlines()[0].strip()
        anchor = re.sub(r"[^a-z0-9 _-]", "", heading.lower()).replace(" ", "-")
        m = re.search(r"<!-- losses: (.*?) -->", part, flags=re.S)
        short = re.search(r"\*\*In short:\*\* (.*?)(?:\n\n|$)", part, flags=re.S)
        if not m or not short:
            continue
        patterns = [re.compile(x.strip()) for x in m.group(1).split(";;") if x.strip()]
        out.append({"heading": heading, "anchor": anchor, "patterns": patterns,
                    "short": " ".join(short.group(1).split())})
    return out


def explain(row, explanations):
    """The "why" cell of a losing workload."""
    for e in explanations:
        if any(p.search(row.label) for p in e["patterns"]):
            return f"{e['short']} ([profile](ANALYSIS.md#{e['anchor']}))"
    return None


def load_history(results, run):
    """Ratios of earlier full runs (results/history/COMMIT.json), oldest first."""
    runs = []
    for path in glob.glob(os.path.join(results, "history", "*.json")):
        with open(path) as f:
            h = json.load(f)
        if h["commit"] != run["bpindex_commit"]:
            runs.append(h)
    return sorted(runs, key=lambda h: h["started"])


def save_history(rows, results, run):
    """Keep this full run's ratios for later runs to compare against."""
    if run["mode"] != "full":
        return
    os.makedirs(os.path.join(results, "history"), exist_ok=True)
    with open(os.path.join(results, "history", run["bpindex_commit"] + ".json"), "w") as f:
        json.dump({"commit": run["bpindex_commit"], "started": run["started"], "mode": run["mode"],
                   "rows": [{"workload": r.label, "ratio": r.ratio, "better": r.better}
                            for r in rows]}, f, indent=1)


def history_table(rows, history, run):
    """This run's ratios beside those of earlier full runs."""
    if not history:
        return []
    L = ["## Compared with earlier full runs", "",
         "Ratios bpindex/btree of the full runs kept in `results/history/` (one per commit), "
         "then this run; *change* is this run's ratio over the oldest one's, so above 1 means "
         "bpindex gained on btree where higher is better and lost where lower is better. "
         "ANALYSIS.md (section *What each change bought*) lists the commits in between.", "",
         "| workload | better | " + " | ".join(f"{h['commit']} ({h['started'][:10]})" for h in history)
         + f" | this run, {run['bpindex_commit']} | change |",
         "|---|---|" + "---:|" * (len(history) + 2)]
    for r in rows:
        old = [next((x["ratio"] for x in h["rows"] if x["workload"] == r.label), None)
               for h in history]
        change = (r.ratio / old[0]) if r.ratio is not None and old[0] else None
        L.append(f"| {r.label} | {r.better} | " + " | ".join(fmt_ratio(o) for o in old)
                 + f" | {fmt_ratio(r.ratio)} | {fmt_ratio(change)} |")
    return L + [""]


def pg18_section(bench_dir):
    """A pointer to the PostgreSQL 18 run (RESULTS-pg18.md), with its main ratios."""
    path = os.path.join(bench_dir, "results-pg18", "summary.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        ratios = {r["workload"]: r["ratio_bpindex_btree"] for r in json.load(f)}
    wanted = [w for w in ratios if w.startswith(("build:", "find:"))]
    L = ["## PostgreSQL 18", "",
         "A run of the same benchmark on PostgreSQL 18 is in [RESULTS-pg18.md](RESULTS-pg18.md) "
         "(`bash bench/run.sh --pg 18 --quick`, its files in `results-pg18/`). Its ratios "
         "bpindex/btree for the builds and point lookups:", "",
         "| workload | bpindex/btree |", "|---|---:|"]
    L += [f"| {w} | {fmt_ratio(ratios[w])} |" for w in wanted]
    return L + [""]


def committed_run(bench_dir, name):
    """The lines of a committed result file of bench/ (or None), its command and its date."""
    path = os.path.join(bench_dir, name)
    if not os.path.exists(path):
        return None, "", ""
    with open(path) as f:
        lines = [line.rstrip("\n") for line in f]
    command = next((line[2:] for line in lines if line.startswith("# bash")), "")
    when = next((line[len("# run: "):] for line in lines if line.startswith("# run: ")), "")
    return lines, command, when


def size_section(bench_dir):
    """The committed run of bench/size.sh: the size matrix, the cache effect and the plot."""
    lines, command, when = committed_run(bench_dir, "size_results.txt")
    if lines is None:
        return []
    L = ["## Index size", "",
         f"`{command}` ({when}): btree (with its deduplication) and bpindex on the same table for "
         "each dataset, after `CREATE INDEX` and after random inserts "
         "([size_results.txt](size_results.txt)). *leaf fill* is bpindex's entries over its "
         "leaves' capacity, *bytes/entry* its packed entry width.", "",
         "| dataset | phase | btree MiB | bpindex MiB | bpindex/btree | leaf fill | bytes/entry |",
         "|---|---|---:|---:|---:|---:|---:|"]
    for line in lines:
        f = line.split()
        if len(f) == 7 and f[1] in ("build", "insert"):
            L.append(f"| {f[0]} | {f[1]} | {int(f[2]) / 1024:,.1f} | {int(f[3]) / 1024:,.1f} | "
                     f"{f[4]} | {f[5]} | {f[6]} |")
    cache = [line for line in lines
             if line.split()[:1] and line.split()[0] in ("btree", "bpindex")
             and len(line.split()) == 6]
    setting = next((line for line in lines if line.startswith("shared_buffers:")), "")
    if cache:
        L += ["", f"The effect on ascending ids with {setting.replace(':', ' =')} (between the "
              "two indexes' sizes): point lookups and 10,000-row ranges, one run each, the "
              "buffers read from outside shared buffers and the time.", "",
              "| index | kind | queries | blocks read | blocks hit | ms |",
              "|---|---|---:|---:|---:|---:|"]
        L += ["| " + " | ".join(line.split()) + " |" for line in cache]
    L += [""] + [f"- {line}" for line in lines if line.startswith("target")]
    if os.path.exists(os.path.join(bench_dir, "size.png")):
        L += ["", "![bpindex size / btree size per dataset](size.png)"]
    return L + [""]


def retention_section(bench_dir):
    """The committed run of bench/retention.sh: its targets and its plot."""
    lines, command, when = committed_run(bench_dir, "retention_results.txt")
    if lines is None:
        return []
    verdicts = [line for line in lines if line.startswith(("bpindex size:", "target"))]
    L = ["## Retention", "",
         f"`{command}` ({when}): ascending keys, each cycle deletes the oldest tenth, adds a tenth at "
         "the top and runs VACUUM, bpindex and btree on the same data "
         "([retention_results.txt](retention_results.txt), every cycle's sizes, buffers and "
         "times).", ""]
    L += [f"- {v}" for v in verdicts]
    if os.path.exists(os.path.join(bench_dir, "retention.png")):
        L += ["", "![index size and buffers per retention cycle](retention.png)"]
    return L + [""]


def app_section(bench_dir):
    """The committed runs of bench/app.sh: the ratio of each shape per version, the plot."""
    lines, command, when = committed_run(bench_dir, "app_results.txt")
    if lines is None:
        return []
    versions = []
    ratios = {}
    version = None
    for line in lines:
        if line.startswith("## PostgreSQL "):
            version = line.split()[-1]
            versions.append(version)
            continue
        fields = [x.strip() for x in line.split("|")]
        if version is None or len(fields) != 6 or fields[0] == "shape":
            continue
        ratios.setdefault(fields[0], {})[version] = fields[3]
    runs = "; ".join(line[2:] for line in lines if line.startswith("# run: "))
    L = ["## Application shapes", "",
         "`bash bench/app.sh [--pg 18]` (" + runs.replace("run: ", "") + "): an application "
         "schema (customers, orders, events, a job queue) with every index a btree, and the same "
         "with every index a bpindex, in one cluster, alternating, medians of 7 and their spreads "
         "in [app_results.txt](app_results.txt); ANALYSIS.md (\"Application shapes\") profiles the "
         "rows above 1. Ratios bpindex/btree in time (the queue: btree's transactions per second "
         "over bpindex's; the churn: bpindex's growth over btree's): below 1, bpindex is ahead.", "",
         "| shape | " + " | ".join(f"PostgreSQL {v}" for v in versions) + " |",
         "|---|" + "---:|" * len(versions)]
    for shape, by_version in ratios.items():
        L.append(f"| {shape} | " + " | ".join(by_version.get(v, "-") for v in versions) + " |")
    missed = [shape for shape, by_version in ratios.items()
              if any(float(r) > 1.05 for r in by_version.values() if r not in ("-", ""))]
    L += ["", "- target (every shape at most 1.05): " +
          ("met" if not missed else "missed by " + ", ".join(missed))]
    if os.path.exists(os.path.join(bench_dir, "app.png")):
        L += ["", "![bpindex / btree per application shape](app.png)"]
    return L + [""]


def markdown(rows, none_rates, run, pg, pngs, explanations=(), history=(), bench_dir="."):
    m = run["machine"]
    st = pg["settings"]
    L = ["# bpindex benchmark results", "",
         "Generated by `bench/report.py` from the measurements of "
         f"`bash bench/run.sh{' --pg 18' if pg['version'].startswith('PostgreSQL 18') else ''}"
         f"{' --quick' if run['mode'] == 'quick' else ''}"
         f"{'' if run['clients'] == 2 else ' --clients ' + str(run['clients'])}` "
         "(bench/results/raw.csv); do not edit by hand, run the benchmark again.", "",
         "## Run", "",
         f"- date: {run['started']} (wall time {run['wall_s'] // 60} min {run['wall_s'] % 60} s)",
         f"- mode: {run['mode']}: {run['nkeys']:,} keys, {run['ninsert']:,} inserted keys "
         f"(insert workload), {run['nprobe']:,} probe keys, {run['nranges']:,} EXPLAIN ranges per "
         f"map_range point, {run['clients']} pgbench clients, {run['reps']} repetitions per index "
         f"and workload ({run.get('insert_reps', run['reps'])} for the insert workload, whose "
         f"runs last about a second; btree and bpindex alternating, btree first in odd "
         f"repetitions), "
         f"pgbench runs of {run['duration_range_s']} s (iterate_range, map_range) and "
         f"{run['duration_point_s']} s (find, YCSB); every number is the median of the repetitions",
         f"- machine: {m['nproc']} CPUs ({m['cpu']}), {m['mem_gib']} GiB memory",
         f"- PostgreSQL: {pg['version']}",
         f"- bpindex: extension version {pg['bpindex_version']}, commit {run['bpindex_commit']}",
         "- settings of the throwaway cluster: " + ", ".join(f"`{k}={v}`" for k, v in st.items()),
         "- server environment: " + (", ".join(f"`{e}`" for e in run.get("server_environment", []))
                                     or "none set (glibc's adaptive malloc thresholds)"),
         "", "Columns: *btree* and *bpindex* are medians, *bpindex/btree* their ratio, *winner* the "
         "index on the better side of it, *thesis BP/B+* the thesis' own ratio BP-tree/B⁺-tree "
         "(chapter 6, small BPA configuration against the B⁺-tree with 1 KiB nodes; always a "
         "throughput ratio, higher is better for the BP-tree; n/a where the thesis gives none), "
         "*spread* the largest (max − min) / median of either index's repetitions (run-to-run noise).",
         ""]
    L += ["## Results", ""]
    sections = []
    for r in rows:
        if r.section not in sections:
            sections.append(r.section)
    for s in sections:
        L += [f"### {s}", ""]
        L += table([r for r in rows if r.section == s], SECTION_TEXT[s])
        if s == "Insert":
            L += ["The same load into the table without an index (reference for the index's own "
                  "cost): " + ", ".join(f"{fmt(v)} rows/s ({k} keys)" for k, v in none_rates.items()),
                  ""]
    L += ["## Plots", ""]
    for p in pngs:
        L += [f"![{p}](results/{p})", ""]

    losers = sorted([r for r in rows if r.winner == "btree"], key=lambda r: -r.loss)
    L += ["## Where bpindex loses", "",
          "Filled in by the generator: every workload whose ratio is on btree's side "
          "(throughput ratio below 1, time or size ratio above 1), worst first. A loss smaller "
          "than the run-to-run spread is marked as such.", ""]
    if losers:
        L += ["The *why* column comes from the profiles in [ANALYSIS.md](ANALYSIS.md); a loss "
              "that no profile there covers says so.", "",
              "| workload | bpindex/btree | better | bpindex worse by | within spread? | why (from profiles) |",
              "|---|---:|---|---:|---|---|"]
        for r in losers:
            within = "yes" if r.spread is not None and r.loss <= r.spread else "no"
            why = explain(r, explanations)
            if why is None:
                why = "**not profiled yet**"
                print(f"report: no profile in ANALYSIS.md explains: {r.label}", file=sys.stderr)
            L.append(f"| {r.label} | {fmt_ratio(r.ratio)} | {r.better} | {fmt_loss(r.loss)} | "
                     f"{within} | {why} |")
        L.append("")
    else:
        L += ["bpindex is on the better side of every ratio in this run.", ""]

    L += targets_table(rows, explanations)
    L += history_table(rows, history, run)
    L += size_section(bench_dir)
    L += retention_section(bench_dir)
    L += app_section(bench_dir)
    if not pg["version"].startswith("PostgreSQL 18"):
        L += pg18_section(bench_dir)

    L += ["## Method", "",
          "- **Data.** Keys are `hashint8extended(id, 1) >> 1` for id 1..N: uniform random int8 "
          "over [-2^62, 2^62), generated once into table `keys` and copied into `bench_btree` and "
          "`bench_bpindex` (columns `k int8`, `payload int8`, same rows in the same order), each "
          "with its index on `k` (default reloptions), then `VACUUM ANALYZE` and `pg_prewarm` of "
          "tables and indexes.",
          "- **build**: `CREATE INDEX` on a copy of the keys (`int8`, and `int4` = `k >> 31`) after a "
          "`CHECKPOINT`, timed by psql; size by `pg_relation_size`.",
          "- **insert**: before every run a fresh copy of the N-key table is built (with its index, "
          "or without one), vacuumed, prewarmed and checkpointed; pgbench clients then insert the "
          "same keys (random: `hashint8extended(i, 2) >> 1`; ascending: 2^62 + i) in statements of "
          "1,000 rows, batch numbers from a sequence. The index's own cost is "
          "1/rate(with index) − 1/rate(without index), from the medians.",
          "- **find**: pgbench point lookups `SELECT payload ... WHERE k = $1` of existing keys; the "
          "probe join counts the matches of a random sample of the keys against the table with "
          "hash and merge joins and memoize off (nested loop, inner Index Only Scan), timed by "
          "`EXPLAIN (ANALYZE, TIMING OFF)`.",
          "- **iterate_range**: `SELECT count(*) FROM (SELECT k [, payload] ... WHERE k >= $start "
          "ORDER BY k LIMIT $len) s`, `$start` uniform, `$len` uniform in [0, max_len] "
          "(seqscan, bitmapscan and sort disabled so both indexes use their ordered scan).",
          "- **map_range**: `SELECT count(*) ... WHERE k >= $start AND k < $start + $len × 2^63/N` "
          "with index and index-only scans and seqscan disabled (Bitmap Index Scan); the node time "
          "comes from a fixed set of ranges run through `EXPLAIN (ANALYZE, FORMAT JSON)`.",
          "- **YCSB**: pgbench scripts with weights (`-f find@95 -f insert@5`, ...); an insert is "
          "one row with a fresh key (uniform: random over the key domain; zipfian: just above a "
          "hot key); scans are iterate_range with the payload (E, X) or map_range (Y). Zipfian "
          "variant: ids drawn by `random_zipfian(1, N, 1.01)` (pgbench's smallest exponent; YCSB "
          "uses 0.99) and scattered by `permute()`. Rows inserted by a run are deleted and "
          "vacuumed away after it and every inserting run starts after a `CHECKPOINT`, so each "
          "run starts from the same rows (leaves that split stay split, for both indexes alike).",
          "- Every access path is checked before it is measured (generic plans of the pgbench "
          "queries, see results/plans.txt); after the run `bpindex_check(heapallindexed)` verifies "
          "bench_bpindex.",
          "", "## Files", "",
          "- `results/raw.csv`: every measurement (workload, variant, param, index, rep, metric, value)",
          "- `results/summary.csv`, `results/summary.json`: the rows above with every repetition",
          "- `results/run.json`, `results/postgres.json`: run parameters, machine, server settings",
          "- `results/plans.txt`: the checked plans; `results/pgbench.log`: every pgbench output",
          ""]
    return "\n".join(L)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: report.py RESULTS_DIR RESULTS_MD")
    results, md = sys.argv[1], sys.argv[2]
    values, run, pg = load(results)
    rows, none_rates = build_rows(values, run)
    missing = [r.label for r in rows if r.btree is None or r.bpindex is None]
    if missing:
        print("report: no measurements for: " + "; ".join(missing), file=sys.stderr)
    with open(os.path.join(results, "summary.json"), "w") as f:
        json.dump([r.as_dict() for r in rows], f, indent=1)
    with open(os.path.join(results, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["section", "workload", "unit", "better", "btree", "bpindex",
                    "ratio_bpindex_btree", "winner", "spread", "thesis_ratio", "thesis_source",
                    "reps_btree", "reps_bpindex"])
        for r in rows:
            d = r.as_dict()
            w.writerow([d["section"], d["workload"], d["unit"], d["better"], d["btree"],
                        d["bpindex"], d["ratio_bpindex_btree"], d["winner"], d["spread"],
                        d["thesis_ratio"], d["thesis_source"],
                        " ".join(f"{v:g}" for v in d["reps_btree"]),
                        " ".join(f"{v:g}" for v in d["reps_bpindex"])])
    pngs = plots(rows, run, results)
    bench_dir = os.path.dirname(os.path.abspath(md))
    explanations = load_explanations(os.path.join(bench_dir, "ANALYSIS.md"))
    history = load_history(results, run)
    with open(md, "w") as f:
        f.write(markdown(rows, none_rates, run, pg, pngs, explanations, history, bench_dir))
    save_history(rows, results, run)
    print(f"report: wrote {md} and {len(pngs)} plots, summary.csv and summary.json in {results}")


if __name__ == "__main__":
    main()
