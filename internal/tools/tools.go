//go:build tools

// Package tools pins the versions of the tools the tests run (go.mod,
// go.sum): scripts/errcheck.sh runs errcheck with "go run", from the
// module cache that "go mod download" fills, with no network after it.
package tools

import _ "github.com/kisielk/errcheck"
