// Command mongobench benchmarks MongoDB with YCSB's workloads and command
// lines. See the README for usage.
package main

import (
	"os"

	"github.com/mongobench/mongobench/internal/cli"
)

func main() {
	reexec()
	os.Exit(cli.RunProcess(os.Args[1:]))
}
