import re,sys
exec(open(__file__.replace('scipy_twosample.py', 'scipy_cases.py')).read())
from scipy import stats
def golist(a): return "[]float64{" + ", ".join(repr(float(v)) for v in a) + "}"
out=[]
for name,(x,y) in cases.items():
    out.append(f'\t"{name}": {{{golist(x)},\n\t\t{golist(y)}}},')
print("\n".join(out))
print()
ours={"two-sided":"TwoSided","greater":"Greater","less":"Less"}
ksours={"two-sided":"TwoSided","greater":"Less","less":"Greater"}
for name in cases:
    x,y=cases[name]
    for alt in ["two-sided","greater","less"]:
        u=stats.mannwhitneyu(x,y,alternative=alt,method='auto')
        print(f'\t{{"{name}", {ours[alt]}, {u.statistic!r}, {u.pvalue!r}}},')
print()
for name in cases:
    x,y=cases[name]
    for alt in ["two-sided","greater","less"]:
        k=stats.ks_2samp(x,y,alternative=alt,method='exact')
        print(f'\t{{"{name}", {ksours[alt]}, {k.statistic!r}, {k.pvalue!r}}}, // alternative={alt!r}')
