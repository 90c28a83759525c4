package apiservertest_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/kubejob"
	"github.com/mongobench/mongobench/internal/kubejob/apiservertest"
)

// TestDryRunRefuses: the check can fail. A valid Indexed Job is accepted;
// the same Job with a field Kubernetes does not know is refused (400,
// strict field validation) and with restartPolicy Always, which an
// Indexed Job forbids, is refused by validation (422).
func TestDryRunRefuses(t *testing.T) {
	srv := apiservertest.Start(t)
	s := kubejob.Spec{Name: "mb", Image: "mb:1", Parts: 2, Args: []string{"run"}, ResultsClaim: "res",
		CPU: "1", Memory: "1Gi", MetricsPort: 9100, CollectorImage: "busybox:1.37"}
	good, err := s.Manifest(nil)
	if err != nil {
		t.Fatal(err)
	}
	if sent, err := srv.DryRun(good, "default"); err != nil || len(sent) != 3 {
		t.Fatalf("a valid manifest: sent %v, %v", sent, err)
	}
	job := string(good[strings.Index(string(good), "apiVersion: batch/v1"):])
	job = job[:strings.Index(job, "\n---\n")]
	tests := []struct {
		name string
		edit func(string) string
		code int
	}{
		{"unknown field", func(j string) string {
			return strings.Replace(j, "  backoffLimit: 0", "  backoffLimit: 0\n  retries: 3", 1)
		}, http.StatusBadRequest},
		{"restartPolicy Always", func(j string) string {
			return strings.Replace(j, "restartPolicy: Never", "restartPolicy: Always", 1)
		}, http.StatusUnprocessableEntity},
	}
	for _, tt := range tests {
		edited := tt.edit(job)
		if edited == job {
			t.Fatalf("%s: the edit changed nothing", tt.name)
		}
		_, err := srv.DryRun([]byte(edited), "default")
		var se *apiservertest.StatusError
		if !errors.As(err, &se) || se.Code != tt.code {
			t.Errorf("%s: %v, want status %d", tt.name, err, tt.code)
		}
	}
}
