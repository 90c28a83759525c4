package bench

import (
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
)

// recordNative adds to the results' configuration the native workload f
// and its parameters' values (native.Config), which the YCSB properties
// there do not say; nothing for a YCSB phase.
func recordNative(meta *results.Meta, f *native.File) {
	if f == nil {
		return
	}
	if meta.Config == nil {
		meta.Config = map[string]string{}
	}
	for k, v := range f.Config() {
		meta.Config[k] = redact.URL(v)
	}
}
