// Package report draws Records: the HTML report with its inline SVG plots,
// the same plots as PNG files or PDF pages (mpibench report), and the
// plots of the violated performance guidelines (mpibench guidelines check
// -o). It builds without MPI. Its plotting libraries (gonum/plot and its
// fonts) are linked into the one mpibench binary; they cost a rank that
// never draws only shared file pages (docs/memory.md).
package report
