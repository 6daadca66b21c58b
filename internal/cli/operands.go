package cli

import "flag"

// Operands reads args with the flags of fs, flags and operands in any
// order (flag.Parse stops at the first operand; this goes on after it),
// and returns the operands. "--" makes the next argument an operand.
// flag.ErrHelp comes back as it is, for -h; any other error is a
// UsageError.
func Operands(fs *flag.FlagSet, args []string) ([]string, error) {
	operands := []string{}
	for {
		if err := fs.Parse(args); err == flag.ErrHelp {
			return nil, err
		} else if err != nil {
			return nil, Usagef("%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}
