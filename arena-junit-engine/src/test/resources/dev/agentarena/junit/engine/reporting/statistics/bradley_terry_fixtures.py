"""Independent figures for BradleyTerryTest: the Bradley-Terry fits of three fixtures, computed with SciPy.

Run once with `python3 bradley_terry_fixtures.py > bradley-terry-fixtures.json` (SciPy 1.17.1, NumPy 2.4.6). Each
fixture is a list of cells [i, j, x, share, count]: `count` comparisons of model i against model j with covariate x,
where i's share of the outcome was `share` (1 a win, 0.5 a tie, 0 a loss). The log-likelihood is that of a fractional
logistic regression, P(i beats j) = 1 / (1 + exp(-(t_i - t_j + g * x))), with `prior` ties added to every compared
pair; it is maximised by scipy.optimize.minimize (BFGS, gtol 1e-12) with t_0 fixed at 0, and the t are centred at 0.
Ratings are 1000 + 400 * t / ln(10).
"""
import json
import math

import numpy as np
from scipy.optimize import minimize
from scipy.special import log_expit

FIXTURES = {
    "three-models-with-ties": {
        "models": 3, "covariate": False, "prior": 0.0,
        "cells": [[0, 1, 0, 1.0, 7], [0, 1, 0, 0.0, 3], [0, 1, 0, 0.5, 2],
                  [1, 2, 0, 1.0, 6], [1, 2, 0, 0.0, 4],
                  [0, 2, 0, 1.0, 9], [0, 2, 0, 0.0, 2], [0, 2, 0, 0.5, 1]],
    },
    "four-models-quarter-shares-with-prior": {
        "models": 4, "covariate": False, "prior": 1.0,
        "cells": [[0, 1, 0, 0.75, 5], [0, 1, 0, 0.25, 2], [0, 1, 0, 1.0, 4],
                  [1, 2, 0, 1.0, 3], [1, 2, 0, 0.5, 6], [1, 2, 0, 0.0, 1],
                  [2, 3, 0, 1.0, 8], [2, 3, 0, 0.75, 1],
                  [0, 3, 0, 1.0, 10]],
    },
    "three-models-length-covariate": {
        "models": 3, "covariate": True, "prior": 0.0,
        "cells": [[0, 1, 0.5, 1.0, 6], [0, 1, -0.5, 1.0, 2], [0, 1, 0.5, 0.0, 1], [0, 1, -0.5, 0.0, 4],
                  [1, 2, 0.25, 1.0, 5], [1, 2, -0.25, 0.0, 3], [1, 2, 0.0, 0.5, 2], [1, 2, 0.75, 0.0, 2],
                  [0, 2, 0.0, 1.0, 5], [0, 2, 0.5, 0.0, 2], [0, 2, -0.75, 0.5, 3]],
    },
}


def fit(spec):
    m = spec["models"]
    cells = [list(c) for c in spec["cells"]]
    if spec["prior"] > 0:
        seen = []
        for c in spec["cells"]:
            if (c[0], c[1]) not in seen:
                seen.append((c[0], c[1]))
        cells += [[i, j, 0.0, 0.5, spec["prior"]] for i, j in seen]
    cells = np.array(cells, dtype=float)

    def negative(params):
        t = np.concatenate([[0.0], params[:m - 1]])
        g = params[m - 1] if spec["covariate"] else 0.0
        d = t[cells[:, 0].astype(int)] - t[cells[:, 1].astype(int)] + g * cells[:, 2]
        return -np.sum(cells[:, 4] * (cells[:, 3] * log_expit(d) + (1 - cells[:, 3]) * log_expit(-d)))

    k = m - 1 + (1 if spec["covariate"] else 0)
    result = minimize(negative, np.zeros(k), method="BFGS", options={"gtol": 1e-12, "maxiter": 10000})
    t = np.concatenate([[0.0], result.x[:m - 1]])
    t = t - t.mean()
    out = {"theta": [float(v) for v in t], "ratings": [float(1000 + 400 * v / math.log(10)) for v in t]}
    if spec["covariate"]:
        out["gamma"] = float(result.x[m - 1])
    return out


print(json.dumps({name: dict(spec, expected=fit(spec)) for name, spec in FIXTURES.items()}, indent=2))
