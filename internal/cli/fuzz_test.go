package cli

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzCommandLine feeds arbitrary command lines to the load/run parser and
// validator (everything up to connecting): they must be accepted or refused
// with a one-line bad-input error, never panic, and never echo a password.
func FuzzCommandLine(f *testing.F) {
	f.Add("mongodb\x00-P\x00workloada\x00-threads\x0016")
	f.Add("mongodb\x00-s\x00-p\x00mongodb.url=mongodb://u:S3NTINELpw@h:1,h:2/db?w=1\x00-target\x00-5")
	f.Add("-p\x00recordcount=\x00-P\x00workloads/workloadz")
	f.Add("://u:S3NTINELpw@\x00-P\x00workloada")
	f.Add("mongodb\x00--warmup\x0010x\x00--max-errors\x00-1")
	// The flag definitions' own forms: aliases, switches given a value,
	// -name=value, a value refused by its definition after one accepted.
	f.Add("-db\x00mongodb\x00-help\x00-s=false")
	f.Add("mongodb\x00--max-error-rate=0.5\x00--max-error-rate=2\x00--no-store=true")
	f.Add("mongodb\x00-threads=4\x00-p=x\x00--store=\x00--drop=maybe")
	f.Add("mongodb\x00-P\x00workloada\x00stray\x00-l\x00a\x1bb")
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		for _, command := range []string{"load", "run"} {
			var out, errb bytes.Buffer
			cfg, err := resolveBench(command, args, Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
			if err == nil && cfg == nil {
				t.Fatal("no error and no configuration")
			}
			if err != nil {
				if _, ok := err.(badInput); !ok {
					t.Fatalf("%q: error %v is not a bad-input error", args, err)
				}
				// A password is what stands between "user:" and "@" in a URL;
				// the message printed is oneLine's.
				if strings.Contains(oneLine(err.Error()), "://u:S3NTINELpw@") {
					t.Fatalf("error shows the password: %v", oneLine(err.Error()))
				}
			}
			if strings.Contains(errb.String(), "://u:S3NTINELpw@") {
				t.Fatalf("warnings show the password: %s", errb.String())
			}
		}
	})
}
