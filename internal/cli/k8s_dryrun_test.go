package cli

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/kubejob/apiservertest"
)

// TestK8sManifestsServerSideDryRun sends every kind of manifest `k8s`
// prints to a real kube-apiserver as a server-side dry run with strict
// field validation: what a cluster would refuse (an unknown field, a
// restartPolicy an Indexed Job forbids, a name too long once the
// controller suffixes it, a quantity out of range) fails here, where
// decoding with k8s.io/api's types cannot tell. It skips in one line
// when no API server binaries are named (scripts/k8s-apiserver.sh).
func TestK8sManifestsServerSideDryRun(t *testing.T) {
	srv := apiservertest.Start(t)
	t.Logf("kube-apiserver %s", srv.Version)
	run := []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://db:27017/ycsb"}
	base := []string{"--image", "registry.example.com/mongobench:1.0", "--results-claim", "bench-results"}
	longest := strings.Repeat("n", 46) + "1" // the longest name k8s accepts: 47 characters
	tests := []struct {
		name      string
		args      []string
		namespace string
	}{
		{"one part", append(append([]string{"--parts", "1"}, base...), run...), "default"},
		{"url secret, namespace, workload file", append(append([]string{"--parts", "8", "--url-secret", "mongobench-url", "--namespace", "bench",
			"--name", "ycsb-a", "--cpu", "500m", "--memory", "2Gi"}, base...),
			"run", "mongodb", "-P", "workloada", "-P", "testdata/k8s/workload_mine", "-threads", "64", "-target", "80000"), "bench"},
		{"no metrics port, load", append(append([]string{"--parts", "3", "--metrics-port", "0"}, base...),
			"load", "mongodb", "-P", "workloadc", "-p", "mongodb.url=mongodb://db:27017/ycsb"), "default"},
		{"longest name, many parts", append(append([]string{"--parts", "500", "--name", longest, "--metrics-port", "65535"}, base...), run...), "default"},
		{"longest namespace", append(append([]string{"--parts", "2", "--namespace", strings.Repeat("s", 63)}, base...), run...), strings.Repeat("s", 63)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mongobench(t, append([]string{"k8s"}, tt.args...)...)
			if r.code != ExitOK {
				t.Fatalf("k8s exit %d: %s", r.code, r.stderr)
			}
			if err := srv.Namespace(tt.namespace); err != nil {
				t.Fatal(err)
			}
			sent, err := srv.DryRun([]byte(r.stdout), tt.namespace)
			if err != nil {
				t.Fatalf("refused after %v: %v\n%s", sent, err, r.stdout)
			}
			if len(sent) < 3 {
				t.Fatalf("only %v were sent", sent)
			}
			t.Logf("accepted: %s", strings.Join(sent, ", "))
		})
	}
}
