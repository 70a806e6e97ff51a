# Computes interval-fixtures.json, the independent 95% intervals AgreementTest checks the engine's bootstrap against:
# SciPy's percentile bootstrap (scipy.stats.bootstrap, paired, 100,000 resamples) of Cohen's kappa and Spearman's rho,
# whose point values are checked against scikit-learn's cohen_kappa_score and SciPy's spearmanr first. The statistics
# are written out with NumPy so that SciPy can resample them vectorised. The inputs are drawn once from a fixed seed.
# Run once with: python3 make-interval-fixtures.py > interval-fixtures.json (made with SciPy 1.17.1, scikit-learn 1.9.1).
import json, numpy as np
from scipy.stats import bootstrap, spearmanr
from sklearn.metrics import cohen_kappa_score
rng = np.random.default_rng(20261201)
def noisy(truth, flip):
    return [t if rng.random() > flip else 1 - t for t in truth]
k = []
w1 = [1]*20+[1]*5+[0]*10+[0]*15; w2=[1]*20+[0]*5+[1]*10+[0]*15
k.append({"name":"wikipedia 50 proposals","first":w1,"second":w2})
t = [int(x) for x in rng.random(40) < 0.6]; k.append({"name":"a judge flipping 15% of 40 verdicts","first":t,"second":noisy(t,0.15)})
t = [int(x) for x in rng.random(60) < 0.3]; k.append({"name":"a judge flipping 35% of 60 rare passes","first":t,"second":noisy(t,0.35)})
s = []
x = rng.random(30); s.append({"name":"30 graded scores, close","first":list(map(float,np.round(x,3))),"second":list(map(float,np.round(np.clip(x+rng.normal(0,0.15,30),0,1),3)))})
x = rng.random(40); s.append({"name":"40 graded scores, loose","first":list(map(float,np.round(x,3))),"second":list(map(float,np.round(np.clip(x+rng.normal(0,0.4,40),0,1),3)))})
x = rng.integers(0,5,25)/4; s.append({"name":"25 scores in quarters against graded scores (ties)","first":list(map(float,x)),"second":list(map(float,np.round(np.clip(0.3+0.4*x+rng.normal(0,0.25,25),0,1),2)))})
from scipy.stats import rankdata
def kappa_v(a, b, axis=-1):
    a = np.asarray(a, float); b = np.asarray(b, float)
    po = np.mean(a == b, axis=axis)
    pa = np.mean(a, axis=axis); pb = np.mean(b, axis=axis)
    pe = pa * pb + (1 - pa) * (1 - pb)
    with np.errstate(divide='ignore', invalid='ignore'):
        return (po - pe) / (1 - pe)
def rho_v(a, b, axis=-1):
    ra = rankdata(a, axis=axis); rb = rankdata(b, axis=axis)
    ra = ra - ra.mean(axis=axis, keepdims=True); rb = rb - rb.mean(axis=axis, keepdims=True)
    with np.errstate(divide='ignore', invalid='ignore'):
        return (ra * rb).sum(axis=axis) / np.sqrt((ra * ra).sum(axis=axis) * (rb * rb).sum(axis=axis))
def interval(stat, a, b):
    r = bootstrap((np.array(a), np.array(b)), stat, paired=True, vectorized=True, n_resamples=100000, batch=10000,
                  method='percentile', confidence_level=0.95, random_state=np.random.default_rng(1))
    return float(r.confidence_interval.low), float(r.confidence_interval.high)
for f in k:
    f["kappa"] = float(cohen_kappa_score(f["first"], f["second"]))
    f["low"], f["high"] = interval(kappa_v, f["first"], f["second"])
    assert abs(kappa_v(f["first"], f["second"]) - f["kappa"]) < 1e-12
for f in s:
    f["rho"] = float(spearmanr(f["first"], f["second"]).statistic)
    f["low"], f["high"] = interval(rho_v, f["first"], f["second"])
    assert abs(rho_v(f["first"], f["second"]) - f["rho"]) < 1e-12
import scipy, sklearn
print(json.dumps({"made_with": {"scipy": scipy.__version__, "scikit-learn": sklearn.__version__}, "kappa": k, "spearman": s}, indent=1))
