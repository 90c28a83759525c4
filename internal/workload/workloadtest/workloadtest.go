// Package workloadtest builds workloads for tests of other packages.
package workloadtest

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/workload"
)

// Spec resolves properties given as "key=value" lines, for the run phase
// (transactions) or the load phase, failing the test on bad input.
func Spec(t testing.TB, transactions bool, props ...string) *workload.Spec {
	t.Helper()
	p, err := workload.Parse(strings.NewReader(strings.Join(props, "\n")), "test")
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := workload.Resolve(p, transactions)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
