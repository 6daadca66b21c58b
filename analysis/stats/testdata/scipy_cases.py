# Reference values for stats/ranksum_test.go and stats/ks_test.go.
import numpy as np, scipy
from scipy import stats
rng = np.random.default_rng(20160523)
def r(a): return [float(round(v, 3)) for v in a]
cases = {
 "small": (r([1.1,2.3,3.5,4.2,5.9]), r([2.0,3.1,6.4,7.7,8.5,9.0])),
 "ties": ([1.0,2,2,3,5], [2.0,3,4,4,6,7]),
 "launches": (r(rng.normal(10,1,10)), r(rng.normal(11,1,10))),
 "eight": (r(rng.normal(0,1,8)), r(rng.normal(0.5,1,30))),
 "alltied": ([3.0,3,3], [3.0,3]),
 "rounded": ([float(v) for v in np.round(rng.normal(5,2,40))], [float(v) for v in np.round(rng.normal(6,2,35))]),
 "unequal": (r(rng.normal(0,1,7)), r(rng.normal(1,1,12))),
 "large": (r(rng.exponential(1,60)), r(rng.exponential(1.5,45))),
}
