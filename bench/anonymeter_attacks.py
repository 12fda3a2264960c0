"""anonymeter 1.1's attacks on data written by bench/anonymeter.R, for the side-by-side
benchmarks: its own singling-out queries dumped as rows (query, column, op, value) with
its success counts, and its sampled inference and linkability risks per seed, with
timings. Usage: python anonymeter_attacks.py <dir> <task> [args]."""
import json
import sys
import time

import numpy as np
import pandas as pd

import anonymeter.evaluators.singling_out_evaluator as so
from anonymeter.evaluators import InferenceEvaluator, LinkabilityEvaluator, SinglingOutEvaluator

work = sys.argv[1]
task = sys.argv[2]
types = json.load(open(f"{work}/types.json"))
text_cols = [c for c, t in types.items() if t == "text"]


def load(name):
    return pd.read_csv(f"{work}/{name}.csv", dtype={c: str for c in text_cols}, keep_default_na=True)


train, syn, control = load("train"), load("syn"), load("control")

OPS = {"Eq": "==", "LtEq": "<=", "GtEq": ">=", "Lt": "<", "Gt": ">", "NotEq": "!="}


def leaf(x):
    while isinstance(x, dict):
        x = next(iter(x.values()))
    return x


def predicates(node):
    """The predicates of a conjunction, from polars' JSON form of an expression."""
    if "BinaryExpr" in node:
        b = node["BinaryExpr"]
        if b["op"] == "And":
            return predicates(b["left"]) + predicates(b["right"])
        return [(b["left"]["Column"], OPS[b["op"]], leaf(b["right"]["Literal"]))]
    f = node["Function"]
    if f["function"] == {"Boolean": "IsNull"}:
        return [(f["input"][0]["Column"], "is.na", None)]
    raise ValueError(f"unexpected expression {node}")


def dump(queries, path):
    rows = []
    for i, q in enumerate(queries):
        for col, op, val in predicates(json.loads(q.meta.serialize(format="json"))):
            rows.append({"query": i + 1, "column": col, "op": op, "value": None if val is None else str(val)})
    pd.DataFrame(rows, columns=["query", "column", "op", "value"]).to_csv(path, index=False)


if task == "singling_out":
    mode, n_attacks, n_cols, seed = sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
    generated = {}
    original = so._generate_singling_out_queries

    def recording(**kwargs):
        generated["queries"] = original(**kwargs)
        return generated["queries"]

    so._generate_singling_out_queries = recording
    ev = SinglingOutEvaluator(ori=train, syn=syn, n_attacks=n_attacks, n_cols=n_cols, control=control, seed=seed)
    t0 = time.perf_counter()
    ev.evaluate(mode=mode)
    seconds = time.perf_counter() - t0
    queries = generated["queries"]
    dump(queries, f"{work}/queries_{mode}.csv")
    main = len(so._evaluate_queries_and_return_successful(df=ev._ori, queries=queries))
    ctrl = len(so._evaluate_queries_and_return_successful(df=ev._control, queries=queries))
    risk = ev.risk()
    json.dump({"n_queries": len(queries), "main": main, "control": ctrl, "seconds": seconds,
               "risk": risk.value, "ci": list(risk.ci)}, open(f"{work}/so_{mode}.json", "w"))

elif task in ("inference", "linkability"):
    seeds = [int(s) for s in sys.argv[3].split(",")]
    out = []
    for seed in seeds:
        np.random.seed(seed)
        t0 = time.perf_counter()
        if task == "inference":
            secret = sys.argv[4]
            aux = sys.argv[5].split(",") if len(sys.argv) > 5 else [c for c in train.columns if c != secret]
            ev = InferenceEvaluator(ori=train, syn=syn, aux_cols=aux, secret=secret, n_attacks=500, control=control)
        else:
            aux_a, aux_b, k = sys.argv[4].split(","), sys.argv[5].split(","), int(sys.argv[6])
            ev = LinkabilityEvaluator(ori=train, syn=syn, aux_cols=(aux_a, aux_b), n_attacks=500, n_neighbors=k,
                                      control=control)
        ev.evaluate(n_jobs=2)
        seconds = time.perf_counter() - t0
        res = ev.results()
        risk = ev.risk()
        out.append({"seed": seed, "seconds": seconds, "risk": risk.value, "low": risk.ci[0], "high": risk.ci[1],
                    "rate": res.attack_rate.value, "rate_control": res.control_rate.value,
                    "rate_baseline": res.baseline_rate.value})
    json.dump(out, open(f"{work}/{task}.json", "w"))
