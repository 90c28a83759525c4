// Package fio decodes the JSON report of the fio disk tester
// (--output-format=json) into structs: the part of it a disk baseline
// needs, each job's read and write figures and latency percentiles.
package fio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Report is fio's JSON report.
type Report struct {
	Version  string     `json:"fio version"`
	Jobs     []Job      `json:"jobs"`
	DiskUtil []DiskUtil `json:"disk_util"`
}

// Job is one job of the report.
type Job struct {
	Name string `json:"jobname"`
	// Error is the errno the job ended with; 0 when it ran to its end.
	Error   int               `json:"error"`
	Options map[string]string `json:"job options"`
	Read    Direction         `json:"read"`
	Write   Direction         `json:"write"`
}

// Direction is what a job did in one direction (reads or writes).
type Direction struct {
	IOBytes  int64   `json:"io_bytes"`
	BWBytes  float64 `json:"bw_bytes"`
	IOPS     float64 `json:"iops"`
	TotalIOs int64   `json:"total_ios"`
	// RuntimeMs is how long the job ran in this direction.
	RuntimeMs int64 `json:"runtime"`
	// Completion latency (from submission to completion) and total
	// latency (from the job's issue), in nanoseconds. fio reports the
	// percentiles of the completion latency by default.
	Clat Latency `json:"clat_ns"`
	Lat  Latency `json:"lat_ns"`
}

// Latency is a latency distribution in nanoseconds.
type Latency struct {
	Min  int64   `json:"min"`
	Max  int64   `json:"max"`
	Mean float64 `json:"mean"`
	N    int64   `json:"N"`
	// Percentile maps fio's keys ("99.000000") to nanoseconds.
	Percentile map[string]int64 `json:"percentile"`
}

// At returns the latency at percentile p (99.9), if fio reported it.
func (l Latency) At(p float64) (int64, bool) {
	v, ok := l.Percentile[strconv.FormatFloat(p, 'f', 6, 64)]
	return v, ok
}

// DiskUtil is fio's view of a device the jobs used.
type DiskUtil struct {
	Name string  `json:"name"`
	Util float64 `json:"util"`
}

// Decode reads fio's JSON report. fio prints warnings on the same output
// before the report ("fio: ..."); what comes before the first '{' is
// skipped.
func Decode(out []byte) (*Report, error) {
	i := bytes.IndexByte(out, '{')
	if i < 0 {
		return nil, errors.New("fio's output holds no JSON report")
	}
	var r Report
	if err := json.Unmarshal(out[i:], &r); err != nil {
		return nil, fmt.Errorf("fio's JSON report: %w", err)
	}
	if len(r.Jobs) == 0 {
		return nil, errors.New("fio's JSON report lists no jobs")
	}
	for _, j := range r.Jobs {
		if j.Read.IOPS < 0 || j.Write.IOPS < 0 || j.Read.BWBytes < 0 || j.Write.BWBytes < 0 {
			return nil, fmt.Errorf("fio's JSON report: job %q has negative figures", j.Name)
		}
	}
	return &r, nil
}
