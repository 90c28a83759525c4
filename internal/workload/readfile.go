package workload

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/mongobench/mongobench/workloads"
)

// ReadFile reads a -P file from disk, or one of the built-in workloads
// when the name is workloada … workloadf or workload_s6 (alone or under
// workloads/) and no such file exists, so YCSB's command lines work from
// any directory.
func ReadFile(name string) (*Properties, error) {
	if _, err := os.Stat(name); err == nil {
		return ParseFile(name)
	}
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	if data, err := fs.ReadFile(workloads.Files, base); err == nil && (base == name || strings.TrimSuffix(name, base) == "workloads/") {
		return Parse(strings.NewReader(string(data)), base)
	}
	return nil, fmt.Errorf("cannot read workload file %s: no such file (built in: workloada, workloadb, workloadc, workloadd, workloade, workloadf, workload_s6)", name)
}
