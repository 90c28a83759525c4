// Package workloads holds YCSB's standard workload files (A to F), embedded
// so that -P workloada works with no file on disk.
package workloads

import "embed"

// Files holds workloada … workloadf.
//
//go:embed workloada workloadb workloadc workloadd workloade workloadf
var Files embed.FS
