// Package report draws Records: the HTML report with its inline SVG plots,
// the same plots as PNG files or PDF pages (mpibench report), and the
// plots of the violated performance guidelines (mpibench guidelines check
// -o). It builds without MPI. Its plotting libraries (gonum/plot and its
// fonts) are linked into the one mpibench binary; a rank, which never
// draws, pays for them in shared file pages and in what their init
// functions allocate (gonum/plot parses its fonts at start-up). This
// package parses its templates on first use (docs/memory.md).
package report
