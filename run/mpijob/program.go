//go:build !imbonly

package mpijob

// Program is the binary in every record's context.tool and the headers:
// mpibench, or mpibench-imb, the IMB family's binary (program_imb.go).
const Program = "mpibench"
