package cli

import (
	"strconv"
	"strings"
	"testing"
)

// valueList is n values of a property, joined for --vary.
func valueList(n int) string {
	v := make([]string, n)
	for i := range v {
		v[i] = strconv.Itoa(i + 1)
	}
	return strings.Join(v, ",")
}

// TestSweepRefusesHugeMatrix: a --vary matrix past sweep.MaxPoints is
// refused with one line giving its size and the bound, exit 2, before
// anything is planned or run.
func TestSweepRefusesHugeMatrix(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := mongobench(t, "sweep", "run", "mongodb", "-P", "workloadc", "--no-store", "--out-dir", dir,
		"--vary", "fieldcount="+valueList(20), "--vary", "fieldlength="+valueList(20),
		"--vary", "recordcount="+valueList(20), "--vary", "threadcount="+valueList(20))
	want := "mongobench: sweep: --vary makes a matrix of 160000 points (20 × 20 × 20 × 20 values), more than the 10000 a sweep may plan: vary fewer properties or fewer values\n"
	if r.code != ExitBadInput || r.stderr != want {
		t.Errorf("exit %d, stderr %q; want %d, %q", r.code, r.stderr, ExitBadInput, want)
	}
}

// TestSweepPlanningStops: a signal heard while the points are planned
// ends the sweep with its code, before anything runs.
func TestSweepPlanningStops(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, code := range []int{ExitSIGINT, ExitSIGTERM} {
		r := interrupted([]string{"sweep", "run", "mongodb", "-P", "workloadc", "--no-store", "--out-dir", dir,
			"-p", "mongodb.url=mongodb://127.0.0.1:1/x",
			"--vary", "fieldcount=" + valueList(100), "--vary", "threadcount=" + valueList(100)}, code)
		if r.code != code || !strings.Contains(r.stderr, "interrupted") {
			t.Errorf("exit %d, stderr %q; want %d and the interruption said", r.code, r.stderr, code)
		}
		if strings.Contains(r.stdout, "[OVERALL]") {
			t.Errorf("a point ran: %s", r.stdout)
		}
	}
}
