//go:build imbonly

package mpijob

// Program: the IMB family's binary (-tags imbonly), which mpibench runs
// for the IMB commands; its records and headers name it.
const Program = "mpibench-imb"
