// Package apiservertest starts a real Kubernetes API server (etcd and
// kube-apiserver, on loopback) for tests, and sends manifests to it as a
// server-side dry run: the validation, defaulting and cross-field rules
// that decoding a manifest with k8s.io/api's types cannot check. It is
// envtest's idea without its dependencies: the binaries are named by an
// environment variable, and a test skips in one line when they are absent.
package apiservertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// AssetsEnv names the directory holding the etcd and kube-apiserver
// binaries (scripts/k8s-apiserver.sh build prints it).
const AssetsEnv = "MONGOBENCH_K8S_ASSETS"

// Server is a running API server and the token that may do anything on it.
type Server struct {
	URL    string
	token  string
	client *http.Client
	// Version is what the server says it is (its /version gitVersion).
	Version string
}

// Start starts etcd and kube-apiserver from the binaries AssetsEnv names,
// or skips the test in one line when it is not set. Both stop at the
// test's end.
func Start(t testing.TB) *Server {
	t.Helper()
	assets := os.Getenv(AssetsEnv)
	if assets == "" {
		t.Skipf("%s is not set: no kube-apiserver to dry-run manifests against (scripts/k8s-apiserver.sh build, then export %s=<its bin directory>)", AssetsEnv, AssetsEnv)
	}
	for _, b := range []string{"etcd", "kube-apiserver"} {
		if _, err := os.Stat(filepath.Join(assets, b)); err != nil {
			t.Fatalf("%s=%s has no %s: %v", AssetsEnv, assets, b, err)
		}
	}
	dir := t.TempDir()
	etcdPort, peerPort, apiPort := freePort(t), freePort(t), freePort(t)
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(etcdPort)
	start(t, dir, "etcd", filepath.Join(assets, "etcd"),
		"--data-dir", filepath.Join(dir, "etcd"),
		"--listen-client-urls", etcdURL, "--advertise-client-urls", etcdURL,
		"--listen-peer-urls", "http://127.0.0.1:"+strconv.Itoa(peerPort),
		"--initial-advertise-peer-urls", "http://127.0.0.1:"+strconv.Itoa(peerPort),
		"--initial-cluster", "default=http://127.0.0.1:"+strconv.Itoa(peerPort))
	plain := &http.Client{Timeout: 5 * time.Second}
	waitReady(t, dir, "etcd", func() bool { return get(plain, etcdURL+"/health", "") == nil })

	token := randomHex(t)
	tokens := filepath.Join(dir, "tokens.csv")
	write(t, tokens, token+",mongobench-check,mongobench-check,system:masters\n")
	key, pub := serviceAccountKeys(t, dir)
	s := &Server{
		URL:   "https://127.0.0.1:" + strconv.Itoa(apiPort),
		token: token,
		// The server's certificate is one it made for itself on
		// loopback; there is no CA to check it against.
		client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}, //nolint:gosec // loopback test server
	}
	start(t, dir, "kube-apiserver", filepath.Join(assets, "kube-apiserver"),
		"--etcd-servers", etcdURL,
		"--bind-address", "127.0.0.1", "--secure-port", strconv.Itoa(apiPort),
		"--cert-dir", filepath.Join(dir, "certs"),
		"--token-auth-file", tokens, "--authorization-mode", "RBAC",
		"--service-account-issuer", "https://kubernetes.default.svc",
		"--service-account-key-file", pub, "--service-account-signing-key-file", key,
		"--service-cluster-ip-range", "10.96.0.0/16",
		// The service-account controller is not running, so no
		// namespace has the default account this plugin would require.
		"--disable-admission-plugins", "ServiceAccount")
	waitReady(t, dir, "kube-apiserver", func() bool { return get(s.client, s.URL+"/readyz", token) == nil })
	var v struct {
		GitVersion string `json:"gitVersion"`
	}
	if b, err := s.do(http.MethodGet, "/version", nil); err == nil {
		_ = json.Unmarshal(b, &v)
	}
	s.Version = v.GitVersion
	return s
}

// Namespace creates a namespace (for real: a dry run into a namespace
// that does not exist is refused).
func (s *Server) Namespace(name string) error {
	body := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, name)
	_, err := s.do(http.MethodPost, "/api/v1/namespaces", []byte(body))
	var se *StatusError
	if errors.As(err, &se) && se.Code == http.StatusConflict {
		return nil
	}
	return err
}

// StatusError is the server refusing an object: its HTTP status and the
// message of its Status.
type StatusError struct {
	Code    int
	Message string
}

func (e *StatusError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// DryRun sends each YAML document of manifest as a server-side dry run
// with strict field validation (what `kubectl apply --dry-run=server`
// checks), into namespace when a document names none. It returns each
// document's kind/name and the first refusal.
func (s *Server) DryRun(manifest []byte, namespace string) ([]string, error) {
	var sent []string
	for _, doc := range splitDocuments(manifest) {
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return sent, fmt.Errorf("a document is not YAML: %w", err)
		}
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name, Namespace string
			} `json:"metadata"`
		}
		if err := json.Unmarshal(j, &head); err != nil {
			return sent, err
		}
		ns := head.Metadata.Namespace
		if ns == "" {
			ns = namespace
		}
		path, err := collectionPath(head.APIVersion, head.Kind, ns)
		if err != nil {
			return sent, err
		}
		if _, err := s.do(http.MethodPost, path+"?dryRun=All&fieldValidation=Strict", j); err != nil {
			return sent, fmt.Errorf("%s %s: %w", head.Kind, head.Metadata.Name, err)
		}
		sent = append(sent, head.Kind+"/"+head.Metadata.Name)
	}
	return sent, nil
}

// collectionPath is where objects of a kind are created; the kinds are
// those mongobench's manifests hold.
func collectionPath(apiVersion, kind, ns string) (string, error) {
	resources := map[string]string{
		"v1/ConfigMap": "configmaps", "v1/Pod": "pods", "v1/Secret": "secrets",
		"batch/v1/Job": "jobs", "policy/v1/PodDisruptionBudget": "poddisruptionbudgets",
	}
	r, ok := resources[apiVersion+"/"+kind]
	if !ok {
		return "", fmt.Errorf("no path known for %s %s", apiVersion, kind)
	}
	prefix := "/apis/" + apiVersion
	if apiVersion == "v1" {
		prefix = "/api/v1"
	}
	return prefix + "/namespaces/" + ns + "/" + r, nil
}

func splitDocuments(manifest []byte) [][]byte {
	var docs [][]byte
	for _, d := range bytes.Split(manifest, []byte("\n---\n")) {
		if len(bytes.TrimSpace(stripComments(d))) > 0 {
			docs = append(docs, d)
		}
	}
	return docs
}

func stripComments(b []byte) []byte {
	var out []byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(l), []byte("#")) && !bytes.Equal(bytes.TrimSpace(l), []byte("---")) {
			out = append(out, l...)
			out = append(out, '\n')
		}
	}
	return out
}

func (s *Server) do(method, path string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(context.Background(), method, s.URL+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		var st struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(b, &st)
		if st.Message == "" {
			st.Message = strings.TrimSpace(string(b))
		}
		return nil, &StatusError{Code: resp.StatusCode, Message: st.Message}
	}
	return b, nil
}

func get(c *http.Client, url, token string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	return nil
}

// start runs a server until the test ends, its output in a log file the
// failure message names.
func start(t testing.TB, dir, name, bin string, args ...string) {
	t.Helper()
	log, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		log.Close()
	})
}

// waitReady polls until ready; the bound is for a server that will never
// come up (a bad flag), not a measure of how fast it starts.
func waitReady(t testing.TB, dir, name string, ready func() bool) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if ready() {
			return
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, name+".log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	t.Fatalf("%s never became ready; the end of its log:\n%s", name, b)
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func randomHex(t testing.TB) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// serviceAccountKeys makes the key pair the server signs and checks
// service-account tokens with; it refuses to start without one.
func serviceAccountKeys(t testing.TB, dir string) (keyFile, pubFile string) {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	keyFile, pubFile = filepath.Join(dir, "sa.key"), filepath.Join(dir, "sa.pub")
	write(t, keyFile, string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})))
	write(t, pubFile, string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})))
	return keyFile, pubFile
}
