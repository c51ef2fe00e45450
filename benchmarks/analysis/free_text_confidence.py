#!/usr/bin/env python3
"""Two checks of the free-text confidence, held out across the three free-text sets (2026-11-30).

Question: can the free-text confidence cover more queries at 0.95 on a catalog it was not fitted on,
given the evidence the ranking already has? Two ideas named in docs/search-measurements.md ("Open"):

1. Evidence about the whole candidate list, not only the first two: the softmax weight of the top hit over
   the best 30 fused scores (temperatures 0.3, 0.6, 1.0), how many candidates crowd within 0.25 / 0.5 of
   the top, and its lead over the third and fifth.
2. A model that can bend: gradient-boosted trees (depth 2 and 3, logistic loss) instead of one logistic,
   fitted on two sets, each weighted equally, and measured on the third.

This is an analysis replica, not shipped code: the logistic reproduces ConfidenceFit's held-out numbers
exactly, and the trees are a minimal second-order boosting written for this check only (numpy is the one
library these machines have for Python). Nothing here feeds the product.

Input: the dumps of RetrievalBenchmark, made with --dump DIR/<set> --dump-candidates DIR/<set>-cand.tsv
for the sets meta (MetaTool, --sample 3000), gorilla (Gorilla-HF) and seal (Seal-Tools' instructions);
docs/search-measurements.md gives the commands. Usage: free_text_confidence.py DIR [METATOOL_DIR]

With METATOOL_DIR (the shared set's folder) it also counts MetaTool's confident mistakes: top hits that clear a
threshold with a tool other than the labelled one, and how many of those queries are labelled with one of the
set's "merged" tools (MetaTool merged overlapping plugins into one tool, but the catalog keeps the plugins too).
"""
import json
import os
import sys

import numpy as np

FEATURES = ["zDense", "zLexical", "margin", "agree", "cos", "title", "queryTerms", "twin", "cosMargin",
            "nameCover"]  # the free-text model's inputs (ConfidenceModel.FEATURES; the rest are 0 for free text)
SPREAD = ["soft0.3", "soft0.6", "soft1.0", "crowd0.25", "crowd0.5", "lead3", "lead5"]
SETS = ["meta", "gorilla", "seal"]
THRESHOLD = 0.95


def load(directory, name):
    """Rows of the top hit (features, right or not) and the spread features of its query's candidates."""
    x, y, query = [], [], []
    path = f"{directory}/{name}-hybrid.tsv"
    with open(path) as f:
        for i, line in enumerate(f):
            parts = line.rstrip("\n").split("\t")
            if parts[0] not in ("0", "1"):
                refuse(path, i + 1, f"the label '{parts[0]}' is not 0 or 1; not a --dump file")
            if len(parts) > 1:  # a query without hits has no features
                if len(parts) - 1 < len(FEATURES):
                    refuse(path, i + 1, f"{len(parts) - 1} features, fewer than the {len(FEATURES)} read here")
                x.append([number(path, i + 1, v) for v in parts[1:1 + len(FEATURES)]])
                y.append(int(parts[0]))
                query.append(i)
    fused = {}
    path = f"{directory}/{name}-cand.tsv"
    with open(path) as f:
        if not next(f, "").startswith("#queries\t"):
            refuse(path, 1, "expected '#queries<TAB>N'; not a --dump-candidates file")
        for n, line in enumerate(f, start=2):
            parts = line.split("\t")
            if len(parts) < 4 or not parts[0].isdigit():
                refuse(path, n, "expected query number, right tools, right, fused score, features")
            fused.setdefault(int(parts[0]), []).append(number(path, n, parts[3]))
    spread = [spread_features(np.sort(np.array(fused.get(q, [0.0])))[::-1]) for q in query]
    return np.array(x), np.array(y), np.array(spread)


def refuse(path, line, why):
    sys.exit(f"{path}:{line}: {why}")


def number(path, line, text):
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not np.isfinite(value):
        refuse(path, line, f"'{text.strip()}' is not a finite number")
    return value


def spread_features(f):
    soft = [1 / np.exp((f - f[0]) / t).sum() for t in (0.3, 0.6, 1.0)]
    crowd = [np.log1p((f >= f[0] - w).sum() - 1) for w in (0.25, 0.5)]
    lead = [f[0] - f[min(k, len(f) - 1)] for k in (2, 4)]
    return soft + crowd + lead


def fit_logistic(blocks, l2=1e-3):
    """ConfidenceFit.fit: L2-regularised logistic regression by Newton's method, each block weighted equally."""
    w = np.zeros(blocks[0][0].shape[1] + 1)
    for _ in range(60):
        grad, hess = np.zeros_like(w), np.zeros((len(w), len(w)))
        for x, y in blocks:
            xb = np.hstack([np.ones((len(x), 1)), x])
            p = 1 / (1 + np.exp(-xb @ w))
            grad += xb.T @ (p - y) / len(y)
            hess += (xb * (p * (1 - p))[:, None]).T @ xb / len(y)
        grad[1:] += l2 * w[1:]
        hess[1:, 1:] += l2 * np.eye(len(w) - 1)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).sum() < 1e-9:
            break
    return lambda z: 1 / (1 + np.exp(-(np.hstack([np.ones((len(z), 1)), z]) @ w)))


def fit_trees(blocks, rounds, depth, rate=0.1, lam=1.0, min_leaf=40):
    """Second-order gradient boosting of regression trees on the logistic loss, each block weighted equally."""
    x = np.vstack([b[0] for b in blocks])
    y = np.concatenate([b[1] for b in blocks])
    weight = np.concatenate([np.full(len(b[1]), 1 / len(b[1])) for b in blocks])
    weight /= weight.mean()
    score, trees = np.zeros(len(y)), []
    for _ in range(rounds):
        p = 1 / (1 + np.exp(-score))
        tree = grow(x, weight * (p - y), weight * p * (1 - p), np.arange(len(y)), depth, lam, min_leaf)
        trees.append(tree)
        score += rate * predict(tree, x)
    return lambda z: 1 / (1 + np.exp(-rate * sum(predict(t, z) for t in trees)))


def grow(x, g, h, rows, depth, lam, min_leaf):
    leaf = ("leaf", -g[rows].sum() / (h[rows].sum() + lam))
    if depth == 0 or len(rows) < 2 * min_leaf:
        return leaf
    total_g, total_h, best = g[rows].sum(), h[rows].sum(), (0.0, None, None)
    for j in range(x.shape[1]):
        order = np.argsort(x[rows, j])
        values, cg, ch = x[rows, j][order], np.cumsum(g[rows][order]), np.cumsum(h[rows][order])
        for k in range(min_leaf, len(rows) - min_leaf, max(1, len(rows) // 64)):
            if values[k] == values[k - 1]:
                continue
            gl, hl = cg[k - 1], ch[k - 1]
            gain = gl * gl / (hl + lam) + (total_g - gl) ** 2 / (total_h - hl + lam) - total_g ** 2 / (total_h + lam)
            if gain > best[0]:
                best = (gain, j, (values[k] + values[k - 1]) / 2)
    if best[1] is None:
        return leaf
    _, j, cut = best
    left, right = rows[x[rows, j] <= cut], rows[x[rows, j] > cut]
    return ("split", j, cut, grow(x, g, h, left, depth - 1, lam, min_leaf),
            grow(x, g, h, right, depth - 1, lam, min_leaf))


def predict(tree, x):
    if tree[0] == "leaf":
        return np.full(len(x), tree[1])
    _, j, cut, left, right = tree
    out, goes_left = np.empty(len(x)), x[:, j] <= cut
    out[goes_left], out[~goes_left] = predict(left, x[goes_left]), predict(right, x[~goes_left])
    return out


def at_threshold(p, y):
    cleared = p >= THRESHOLD
    return (y[cleared].mean() if cleared.any() else float("nan")), cleared.mean()


def best_cut(p, y):
    """The largest coverage any cut on this score reaches at 95 % precision, chosen on the answers."""
    precision = np.cumsum(y[np.argsort(-p)]) / np.arange(1, len(y) + 1)
    ok = np.where(precision >= 0.95)[0]
    return (ok.max() + 1) / len(y) if len(ok) else 0.0


def held_out(data, columns, fitter, label):
    print(label)
    for test in SETS:
        train = [s for s in SETS if s != test]
        model = fitter([(columns(data[s]), data[s][1]) for s in train])
        p, y = model(columns(data[test])), data[test][1]
        precision, coverage = at_threshold(p, y)
        print(f"  {'+'.join(train):>13} -> {test:<7} at {THRESHOLD}: {precision * 100:5.1f} / {coverage * 100:4.1f}"
              f"   best cut at 95 %: {best_cut(p, y) * 100:4.1f}")


def confident_mistakes(directory, metatool):
    with open(f"{metatool}/queries.jsonl") as f:
        gold = {q["id"]: q["gold"] for q in map(json.loads, f)}
    with open(f"{metatool}/tools.jsonl") as f:
        merged = {t["id"] for t in map(json.loads, f) if t["merged_tool"]}
    with open(f"{directory}/meta-hybrid-hits.tsv") as f:
        hits = [line.rstrip("\n").split("\t") for line in f]  # query id, top tool, confidence, BM25 alone
    print(f"MetaTool, shipped confidence: {sum(any(g in merged for g in gold[h[0]]) for h in hits)} of {len(hits)}"
          " queries are labelled with a merged tool")
    for threshold in (0.5, 0.8, 0.9, 0.95):
        cleared = [h for h in hits if float(h[2]) >= threshold]
        wrong = [h for h in cleared if h[1] not in gold[h[0]]]
        print(f"  at {threshold}: {len(cleared)} cleared, {len(wrong)} with another tool than the labelled one,"
              f" {sum(any(g in merged for g in gold[h[0]]) for h in wrong)} of them labelled with a merged tool")


def main(directory):
    missing = [f"{directory}/{s}{suffix}" for s in SETS for suffix in ("-hybrid.tsv", "-cand.tsv")
               if not os.path.isfile(f"{directory}/{s}{suffix}")]
    if missing:
        sys.exit("missing dumps (make them as docs/search-measurements.md says): " + ", ".join(missing))
    data = {s: load(directory, s) for s in SETS}
    base = lambda d: d[0]
    held_out(data, base, fit_logistic, "logistic, today's features (as shipped: ConfidenceFit)")
    for i, name in enumerate(SPREAD):
        held_out(data, lambda d, i=i: np.hstack([d[0], d[2][:, i:i + 1]]), fit_logistic, f"logistic + {name}")
    held_out(data, base, lambda b: fit_trees(b, rounds=150, depth=2), "boosted trees, depth 2, 150 rounds")
    held_out(data, base, lambda b: fit_trees(b, rounds=100, depth=3), "boosted trees, depth 3, 100 rounds")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: free_text_confidence.py DIR [METATOOL_DIR]"
                 " (DIR: the --dump and --dump-candidates files; METATOOL_DIR: the shared MetaTool set)")
    main(sys.argv[1])
    if len(sys.argv) == 3:
        confident_mistakes(sys.argv[1], sys.argv[2])
