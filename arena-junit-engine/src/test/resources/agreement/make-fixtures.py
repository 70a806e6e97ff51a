# Computes agreement-fixtures.json, the independent figures AgreementTest checks the engine's statistics against:
# Cohen's kappa by scikit-learn (sklearn.metrics.cohen_kappa_score) and Spearman's rho by SciPy
# (scipy.stats.spearmanr, average ranks for ties). Run once with: python3 make-fixtures.py > agreement-fixtures.json
# (made with scikit-learn 1.9.1 and SciPy 1.17.1). The inputs are fixed below; nothing is random.
import json

import scipy
import sklearn
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score

kappa_fixtures = [
    # Wikipedia's example: 50 proposals, 20 yes/yes, 5 A-yes/B-no, 10 A-no/B-yes, 15 no/no (kappa 0.4)
    {"name": "wikipedia 50 proposals",
     "first": [1] * 20 + [1] * 5 + [0] * 10 + [0] * 15,
     "second": [1] * 20 + [0] * 5 + [1] * 10 + [0] * 15},
    {"name": "a judge that agrees on 9 of 12",
     "first": [1, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1],
     "second": [1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1]},
    {"name": "worse than chance",
     "first": [1, 0, 1, 0, 1, 0, 1, 1],
     "second": [0, 1, 0, 1, 1, 0, 0, 0]},
    {"name": "three categories",
     "first": [0, 0, 1, 1, 2, 2, 0, 1, 2, 0],
     "second": [0, 1, 1, 1, 2, 0, 0, 2, 2, 0]},
]
spearman_fixtures = [
    {"name": "no ties",
     "first": [0.1, 0.4, 0.35, 0.8, 0.9, 0.55],
     "second": [0.2, 0.3, 0.5, 0.7, 1.0, 0.6]},
    {"name": "ties on both sides",
     "first": [1.0, 0.5, 0.5, 0.0, 1.0, 0.5, 0.0, 1.0],
     "second": [0.9, 0.6, 0.4, 0.1, 0.9, 0.7, 0.3, 0.8]},
    {"name": "verdict-like scores with ties",
     "first": [1, 1, 0, 0, 1, 0, 1, 0, 1, 1],
     "second": [1, 0.75, 0.25, 0, 1, 0.5, 0.75, 0, 0.25, 1]},
    {"name": "reversed",
     "first": [1, 2, 3, 4, 5],
     "second": [5, 6, 2, 1, 0]},
]
for fixture in kappa_fixtures:
    fixture["kappa"] = float(cohen_kappa_score(fixture["first"], fixture["second"]))
for fixture in spearman_fixtures:
    fixture["rho"] = float(spearmanr(fixture["first"], fixture["second"]).statistic)
print(json.dumps({"made_with": {"scikit-learn": sklearn.__version__, "scipy": scipy.__version__},
                  "kappa": kappa_fixtures, "spearman": spearman_fixtures}, indent=1))
