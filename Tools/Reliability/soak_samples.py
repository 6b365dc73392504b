"""`meshport serve`'s resources over a soak (Tools/Reliability/soak.py): sampled from /proc,
their growth after the warm-up, and the plot and raw samples written into artifacts/."""
import csv
import json
import os
from pathlib import Path

# The three series the goals are on: (sample key, name in the report, unit).
SERIES = (("rss_kb", "RSS", "kB"), ("fds", "open fds", "fds"), ("threads", "threads", "threads"))


def sample(pid, t):
    """One sample of process PID at T seconds: VmRSS and RssAnon (kB), open fds, threads.
    Raises FileNotFoundError when the process is gone."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value.split()
    return {"t": round(t, 1), "rss_kb": int(fields["VmRSS"][0]), "rss_anon_kb": int(fields["RssAnon"][0]),
            "fds": len(os.listdir(f"/proc/{pid}/fd")), "threads": int(fields["Threads"][0])}


def warm_up(run_seconds):
    """The warm-up before growth is measured: a fifth of the run, at least 2 minutes, never more
    than half of it."""
    return min(max(0.2 * run_seconds, 120.0), 0.5 * run_seconds)


def growth(samples, key, warm_up_seconds):
    """(percent, baseline, end) of KEY: the mean of the last tenth of the samples against the
    mean of as many samples right after the warm-up, each window's values in a list beside its
    mean, as (mean, values); None without samples after the warm-up."""
    after = [s[key] for s in samples if s["t"] >= warm_up_seconds]
    if not after:
        return None
    n = max(1, round(0.1 * len(samples)))
    base = after[:n]
    end = [s[key] for s in samples[-n:]]
    base_mean, end_mean = sum(base) / len(base), sum(end) / len(end)
    return (end_mean - base_mean) / base_mean * 100, (base_mean, base), (end_mean, end)


def write(samples, folder, warm_up_seconds, title):
    """samples.csv, samples.json and soak.png (the three series against minutes, the warm-up
    shaded) in FOLDER; returns the PNG's path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    columns = ["t", "rss_kb", "rss_anon_kb", "fds", "threads"]
    with open(folder / "samples.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(samples)
    (folder / "samples.json").write_text(json.dumps({"warm_up_seconds": warm_up_seconds, "samples": samples}, indent=1) + "\n")

    import matplotlib
    matplotlib.use("Agg")  # headless: no display on a build machine
    from matplotlib import pyplot

    minutes = [s["t"] / 60 for s in samples]
    figure, axes = pyplot.subplots(3, 1, sharex=True, figsize=(9, 8))
    axes[0].plot(minutes, [s["rss_kb"] / 1024 for s in samples], label="VmRSS")
    axes[0].plot(minutes, [s["rss_anon_kb"] / 1024 for s in samples], label="RssAnon (its own memory)")
    axes[0].set_ylabel("MB")
    axes[0].legend(loc="center right")
    axes[1].plot(minutes, [s["fds"] for s in samples], color="tab:green")
    axes[1].set_ylabel("open fds")
    axes[2].plot(minutes, [s["threads"] for s in samples], color="tab:red")
    axes[2].set_ylabel("threads")
    axes[2].set_xlabel("minutes since the first DM was due")
    for ax in axes:
        ax.axvspan(0, warm_up_seconds / 60, color="0.9", zorder=0)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    axes[0].set_title(title, fontsize=10)
    figure.tight_layout()
    path = folder / "soak.png"
    figure.savefig(path, dpi=100)
    pyplot.close(figure)
    return path
