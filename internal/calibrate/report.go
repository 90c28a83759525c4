package calibrate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteReport prints the report as tables and one verdict per goal.
func WriteReport(w io.Writer, r *Report) error {
	var bw strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&bw, format, args...) }

	repeats := "1 run per point"
	if r.Repeats > 1 {
		repeats = fmt.Sprintf("medians of %d runs per point", r.Repeats)
	}
	p("mongobench calibrate: %s, %s operations per measurement, %s records of %d × %d B, %s\n",
		r.Workload, thousands(float64(r.Operations)), thousands(float64(r.RecordCount)), r.FieldCount, r.FieldLength, repeats)
	p("null server: %s at %s", r.Server, r.ServerURI)
	if r.URLOptions != "" {
		p(" (with %s)", r.URLOptions)
	}
	p("\n")
	h := r.Host
	quota := "no cgroup CPU quota"
	if h.CgroupCPUs > 0 {
		quota = "cgroup quota " + cpus(h.CgroupCPUs) + " CPUs"
	}
	gogc := ""
	if h.GOGC != "" {
		gogc = ", GOGC=" + h.GOGC
	}
	p("client: %d CPUs, GOMAXPROCS %d, %s: may use %s CPUs; %s %s/%s, driver %s%s\n",
		h.CPUs, h.GOMAXPROCS, quota, cpus(h.AllowedCPUs), h.GoVersion, h.OS, h.Arch, orNone(h.DriverVersion), gogc)
	if r.Partial {
		p("PARTIAL: interrupted; the points below were measured in full, the others are missing\n")
	}

	p("\n%s, mongobench on each wire path (mongodb.path: driver, lean) beside the bare driver loop (FindOne by _id, reply kept raw):\n", r.Workload)
	header := fmt.Sprintf("%-20s %7s  %-10s %9s %8s %8s %8s %8s %7s %7s %8s %5s %9s\n",
		"point", "threads", "path", "ops/s", "CPU/op", "user", "sys", "server", "p50", "p99", "RSS", "util", "overhead")
	units := fmt.Sprintf("%-20s %7s  %-10s %9s %8s %8s %8s %8s %7s %7s %8s %5s %9s\n",
		"", "", "", "", "µs", "µs", "µs", "µs/op", "µs", "µs", "MiB", "", "")
	p("%s%s", header, units)
	for _, pt := range r.Sweep {
		p("%s", row(pt.Name, pt.Threads, "mongobench", pt.Mongobench, signedPct(pt.OverheadPct)))
		if pt.Lean != nil {
			p("%s", row("", 0, "lean", *pt.Lean, signedPct(pt.LeanOverheadPct)))
		}
		if pt.Bare != nil {
			p("%s", row("", 0, "bare", *pt.Bare, ""))
		}
	}

	if len(r.Extras) > 0 {
		p("\nother phases at %d threads, against %s's %d-thread CPU/op (×ref):\n", RefThreads, r.Workload, RefThreads)
		p("%s", strings.Replace(header, "overhead", "    ×ref", 1))
		p("%s", units)
		for _, pt := range r.Extras {
			ref := ""
			if pt.VsRef != nil {
				ref = fmt.Sprintf("%.2f×", *pt.VsRef)
			}
			p("%s", row(pt.Name, pt.Threads, "mongobench", pt.Mongobench, ref))
			if pt.Lean != nil {
				p("%s", row("", 0, "lean", *pt.Lean, ""))
			}
		}
	}
	if ol := r.OpenLoop; ol != nil {
		p("\nthe open loop at -target %s beside the closed loop, %d threads each, mongodb.path=%s, %s operations per measurement;\n",
			thousands(ol.Target), ol.Threads, ol.Path, thousands(float64(ol.Operations)))
		p("schedule lag: how long after its due time an operation started:\n")
		cols := "%-20s %7s  %-10s %9s %8s %8s %8s %8s %7s %7s %8s %5s %8s %8s %9s\n"
		p(cols, "point", "threads", "loop", "ops/s", "CPU/op", "user", "sys", "server", "p50", "p99", "RSS", "util", "lag p50", "lag p99", "×closed")
		p(cols, "", "", "", "", "µs", "µs", "µs", "µs/op", "µs", "µs", "MiB", "", "µs", "µs", "")
		p("%s", row(r.Workload, ol.Threads, "closed", ol.Closed, ""))
		ratio := ""
		if ol.Ratio > 0 {
			ratio = fmt.Sprintf("%.2f×", ol.Ratio)
		}
		p("%s", row("", 0, "-target", ol.Open, fmt.Sprintf("%8d %8d %9s", ol.Open.LagP50Us, ol.Open.LagP99Us, ratio)))
	}
	if len(r.LeanFallbacks) > 0 {
		p("\nthe lean path left to the driver's:\n")
		for _, f := range r.LeanFallbacks {
			p("  %s\n", f)
		}
	}

	p("\ngoals:\n")
	for _, g := range r.Goals {
		verdict := "not measured"
		if g.Measured {
			verdict = "holds"
			if !g.Holds {
				verdict = "DOES NOT HOLD"
			}
		}
		p("  %-13s  %s: %s\n", verdict, g.Name, g.Detail)
	}

	p("\nCPU/op is the client process's user+system CPU time (getrusage) per operation, driver, runtime and\n")
	p("garbage collector included; overhead = a path's CPU/op over the bare loop's, minus one. \"mongobench\"\n")
	p("is the driver's path (mongodb.path=driver), \"lean\" mongobench's own encoding over the driver's connections.\n")
	switch r.Server {
	case ServerInProcess:
		p("The null server ran inside the client's process: its CPU is counted as the client's.\n")
	case ServerExternal:
		p("The null server was started elsewhere: if it shares this machine, it competes with the client for CPU.\n")
	case ServerChild:
		p("The null server ran as a child process on the same machine: its CPU is not the client's (column \"server\").\n")
	}
	out := bufio.NewWriter(w)
	for line := range strings.Lines(bw.String()) {
		out.WriteString(strings.TrimRight(line, " \n"))
		out.WriteByte('\n')
	}
	return out.Flush()
}

// signedPct formats an overhead in percent with its sign; nil is empty.
func signedPct(v *float64) string {
	if v == nil {
		return ""
	}
	s := fmt.Sprintf("%+.1f%%", *v)
	if s == "-0.0%" {
		// An overhead too small to show has no sign either.
		s = "+0.0%"
	}
	return s
}

func row(name string, threads int, path string, f Figures, last string) string {
	th := ""
	if threads > 0 {
		th = strconv.Itoa(threads)
	}
	server := ""
	if f.ServerCPUPerOpUs > 0 {
		server = fmt.Sprintf("%.1f", f.ServerCPUPerOpUs)
	}
	failed := ""
	if f.Failed > 0 {
		failed = fmt.Sprintf("  (%d failed)", f.Failed)
	}
	return fmt.Sprintf("%-20s %7s  %-10s %9s %8.1f %8.1f %8.1f %8s %7d %7d %8.1f %4.0f%% %9s%s\n",
		name, th, path, thousands(f.OpsPerSec), f.CPUPerOpUs, f.UserPerOpUs, f.SystemPerOpUs, server,
		f.P50Us, f.P99Us, float64(f.PeakRSSBytes)/(1<<20), 100*f.Utilization, last, failed)
}

// thousands formats v rounded to a whole number with comma separators.
func thousands(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatInt(int64(math.Round(v)), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func cpus(c float64) string { return strconv.FormatFloat(c, 'f', -1, 64) }

func orNone(s string) string {
	if s == "" {
		return "(unknown version)"
	}
	return s
}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("calibrate report: %w", err)
	}
	return nil
}
