// Package plots draws Records: the HTML report with its inline SVG plots,
// the same plots as PNG files or PDF pages (mpibench report), and the
// plots of the violated performance guidelines (mpibench guidelines check
// -o). It links gonum/plot and its fonts, about 11 MB of executable, so
// only the analysis binary (mpibench-analyze, built with -tags nompi)
// imports it; the MPI binary, resident in every rank, leaves it out and
// keeps the text renderers of package report.
package report
