// Package workloads holds YCSB's standard workload files (A to F) and the
// field reports' custom ones (S6), embedded so that -P workloada works with
// no file on disk.
package workloads

import "embed"

// Files holds workloada … workloadf and workload_s6, and the native
// workloads (insert1k.yaml, tasks.yaml, shop.yaml).
//
//go:embed workloada workloadb workloadc workloadd workloade workloadf workload_s6 insert1k.yaml tasks.yaml shop.yaml
var Files embed.FS
