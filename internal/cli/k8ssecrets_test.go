package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/workload"
)

// TestK8sConfigMapMasksWhatTheParserReads writes a password into a -P file
// in every form the properties grammar decodes (a value or key continued
// over lines, \uXXXX escapes of any of its characters, ':' or white space
// for '=', escaped separators, CRLF line ends, a byte-order mark, comment
// lines) and prints the manifest: no form carries the password, or a
// piece of it, into the ConfigMap, and what the pods read from the
// ConfigMap is the file's properties with only their secrets masked.
func TestK8sConfigMapMasksWhatTheParserReads(t *testing.T) {
	t.Parallel()
	const secret = "hunter2"
	// pieces of the secret a line-by-line mask would leave behind.
	pieces := []string{secret, "hunt", "nter", "ter2", `\u0068`, `\u0075`, `h\u0075`}
	for _, tc := range []struct {
		name, file string
		key        string // the property that held the secret
	}{
		{"plain", "mongodb.url=mongodb://bob:hunter2@db:27017/ycsb\n", "mongodb.url"},
		{"a value continued", "mongodb.url=mongodb://bob:hun\\\n    ter2@db:27017/ycsb\n", "mongodb.url"},
		{"a value continued over three lines", "mongodb.url=mongodb://bob:h\\\n u\\\n  nter2@db:27017/ycsb\n", "mongodb.url"},
		{"a key continued", "mongodb.\\\n  url=mongodb://bob:hunter2@db:27017/ycsb\n", "mongodb.url"},
		{"\\u escapes of the separators", "mongodb.url=mongodb://bob\\u003ahunter2\\u0040db:27017/ycsb\n", "mongodb.url"},
		{"\\u escapes of the password", "mongodb.url=mongodb://bob:\\u0068\\u0075\\u006e\\u0074\\u0065\\u0072\\u0032@db:27017/ycsb\n", "mongodb.url"},
		{"other escapes", "mongodb.url=mongodb://bob:\\hunt\\er\\2@db:27017/ycsb\n", "mongodb.url"},
		{"':' as separator", "mongodb.url:mongodb://bob:hunter2@db:27017/ycsb\n", "mongodb.url"},
		{"white space as separator", "mongodb.url \t mongodb://bob:hunter2@db:27017/ycsb\n", "mongodb.url"},
		{"an escaped key", "mongodb\\.url = mongodb://bob:hunter2@db:27017/ycsb\n", "mongodb.url"},
		{"CRLF and a continuation", "mongodb.url=mongodb://bob:hun\\\r\n  ter2@db:27017/ycsb\r\n", "mongodb.url"},
		{"a byte-order mark", "\ufeffmongodb.url=mongodb://bob:hunter2@db:27017/ycsb\n", "mongodb.url"},
		{"a secret option", "mongodb.url=mongodb://db:27017/ycsb?authMechanism=PLAIN&pass\\\n word\\=hunter2\n", "mongodb.url"},
		{"tlsCertificateKeyFilePassword", "mongodb.url=mongodb://db:27017/ycsb?tls=true&tlsCertificateKeyFilePassword=hun\\\n ter2\n", "mongodb.url"},
		{"another property's URL", "notes=mongodb://bob:hun\\\n  ter2@db:27017/ycsb\n", "notes"},
		{"a property named password", "my.password=hun\\\n  ter2\n", "my.password"},
		{"a '!' comment", "! was mongodb://bob:hunter2@db:27017/ycsb\nfieldcount=3\n", ""},
		{"a '#' comment continued in vain", "# mongodb://bob:hun\\\nter2=1\n", "ter2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			file := filepath.Join(dir, "mine.properties")
			body := tc.file + "operationcount=10\nrecordcount=10\n"
			if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			want, err := workload.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			r := mongobench(t, "k8s", "--parts", "2", "--image", "mb:1", "--results-claim", "res",
				"run", "mongodb", "-P", file, "-p", "mongodb.url=mongodb://db:27017/ycsb")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, p := range pieces {
				if tc.key != "ter2" && strings.Contains(r.stdout, p) {
					t.Errorf("the manifest holds %q of the password:\n%s", p, r.stdout)
				}
			}
			if strings.Contains(r.stdout, "bob:hun") {
				t.Errorf("the manifest holds a comment's password:\n%s", r.stdout)
			}
			m := decodeManifest(t, r.stdout)
			if len(m.configMaps) != 1 {
				t.Fatalf("%d ConfigMaps, want 1", len(m.configMaps))
			}
			got, err := workload.Parse(strings.NewReader(m.configMaps[0].Data["mine.properties"]), "configmap")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got.Keys(), ",") != strings.Join(want.Keys(), ",") {
				t.Fatalf("the ConfigMap's properties %q, the file's %q", got.Keys(), want.Keys())
			}
			for _, k := range want.Keys() {
				wv, _ := want.Get(k)
				gv, _ := got.Get(k)
				switch {
				case k == tc.key && tc.key != "ter2":
					if gv == wv || strings.Contains(gv, secret) || !strings.Contains(gv, redact.Mask) {
						t.Errorf("%s = %q in the ConfigMap: want the file's %q with its secret masked", k, gv, wv)
					}
				case gv != wv:
					t.Errorf("%s = %q in the ConfigMap, %q in the file: only secrets may change", k, gv, wv)
				}
			}
		})
	}
}
