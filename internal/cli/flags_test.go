package cli

import (
	"strings"
	"testing"
)

// commandFlags are every command's flag definitions, unbound.
func commandFlags() map[string][]flagDef {
	var reload, noReload bool
	sw := &sweepOptions{}
	return map[string][]flagDef{
		"run":       benchFlags(&benchArgs{}),
		"sweep":     append(sweepFlags(sw, &reload, &noReload), helpFlag(&sw.help)),
		"calibrate": calibrateFlags(&calibrateArgs{}),
		"compare":   compareFlags(&compareOptions{}),
		"history":   historyFlags(&historyOptions{}),
		"report":    reportFlags(&reportOptions{}),
		"server":    serverFlags(&serverOptions{}),
		"merge":     mergeFlags(&mergeOptions{}),
	}
}

// TestFlagDefinitions checks what help and error messages rely on: every
// flag says what it does, no name is defined twice within a command, and
// every line of help ends without trailing blanks.
func TestFlagDefinitions(t *testing.T) {
	t.Parallel()
	for cmd, defs := range commandFlags() {
		seen := map[string]bool{}
		for _, d := range defs {
			if strings.TrimSpace(d.Usage) == "" {
				t.Errorf("%s %s: no usage", cmd, d.Spelled())
			}
			for _, n := range append([]string{d.Name}, d.Aliases...) {
				if seen[n] {
					t.Errorf("%s: -%s defined twice", cmd, n)
				}
				seen[n] = true
			}
		}
		for _, line := range strings.Split(flagsHelp(defs), "\n") {
			if strings.TrimRight(line, " ") != line {
				t.Errorf("%s: help line %q ends in blanks", cmd, line)
			}
		}
	}
}

// TestAcceptedFlagsListEveryFlag: the list an unknown flag is answered
// with names every flag the command's help shows, and each flag it names
// is one the command accepts.
func TestAcceptedFlagsListEveryFlag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmd  string
		args []string
	}{
		{"run", []string{"run", "mongodb", "--bogus"}},
		{"calibrate", []string{"calibrate", "--bogus"}},
		{"compare", []string{"compare", "a", "b", "--bogus"}},
		{"history", []string{"history", "--bogus"}},
		{"report", []string{"report", "a", "--bogus"}},
		{"server", []string{"server", "--bogus"}},
		{"merge", []string{"merge", "a.json", "--bogus"}},
		{"sweep", []string{"sweep", "mongodb", "--vary", "threadcount=1,2", "--bogus"}},
	}
	all := commandFlags()
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			t.Parallel()
			r := mongobench(t, tt.args...)
			if r.code != ExitBadInput {
				t.Fatalf("exit %d, want %d: %s", r.code, ExitBadInput, r.stderr)
			}
			_, list, ok := strings.Cut(r.stderr, "accepted flags are ")
			if !ok {
				t.Fatalf("no accepted flags in %q", r.stderr)
			}
			listed := map[string]bool{}
			for _, item := range strings.Split(strings.ReplaceAll(strings.TrimSpace(list), "; and sweep's ", ", "), ", ") {
				listed[strings.Fields(item)[0]] = true
			}
			for _, d := range all[tt.cmd] {
				if !listed[d.Spelled()] {
					t.Errorf("%s missing from %q", d.Spelled(), list)
				}
			}
		})
	}
}

// TestSweepPassesBenchFlagsOn: sweep takes its own flags out wherever they
// stand and hands the rest, YCSB's interleaved with positional words, to
// load's and run's parser, whose result it keeps.
func TestSweepPassesBenchFlagsOn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		threads  string
		files    []string
		repeat   int
		outDir   string
		wantHelp bool
	}{
		{"interleaved", []string{"mongodb", "-P", "workloada", "--repeat", "2", "-threads", "4", "--out-dir=d"}, "4", []string{"workloada"}, 2, "d", false},
		{"sweep flag between", []string{"mongodb", "--vary", "target=10,20", "-P", "workloadb"}, "", []string{"workloadb"}, 1, "", false},
		{"help from load/run's parser", []string{"mongodb", "-help"}, "", nil, 1, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := parseSweepArgs(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if o.help != tt.wantHelp {
				t.Fatalf("help %v, want %v", o.help, tt.wantHelp)
			}
			if tt.wantHelp {
				return
			}
			a := o.benchArgs
			var threads string
			for _, s := range a.settings {
				if s.key == "threadcount" {
					threads = s.value
				}
			}
			if threads != tt.threads || strings.Join(a.files, ",") != strings.Join(tt.files, ",") || o.repeat != tt.repeat || o.outDir != tt.outDir {
				t.Errorf("threads %q files %q repeat %d out-dir %q", threads, a.files, o.repeat, o.outDir)
			}
		})
	}
}
