package promsink

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestArgsCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    Args
		files   []string
		wantErr string
	}{
		{Args{}, []string{"run.json"}, ""},
		{Args{Out: "m.txt"}, []string{"run.json"}, ""},
		{Args{Push: "https://gw:9091"}, []string{"run.json"}, ""},
		{Args{}, nil, "no results file given"},
		{Args{Out: "m.txt", Push: "http://gw:9091"}, []string{"run.json"}, "-o and --push both given"},
		{Args{Push: "gw:9091"}, []string{"run.json"}, "is not a Pushgateway URL"},
		{Args{Push: "http://"}, []string{"run.json"}, "is not a Pushgateway URL"},
		{Args{Push: "http://u:secret@gw/x%zz"}, []string{"run.json"}, "is not a Pushgateway URL"},
	}
	for _, tc := range tests {
		err := tc.args.Check(tc.files)
		if tc.wantErr == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.args, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%+v: error %v, want %q", tc.args, err, tc.wantErr)
		} else if strings.Contains(err.Error(), "secret") {
			t.Errorf("%+v: the refusal shows the password: %v", tc.args, err)
		}
	}
}

// TestPushAllRefused: a gateway that refuses a run ends the pushes with a
// GatewayError naming the file, and says nothing of runs not pushed.
func TestPushAllRefused(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "no", http.StatusBadRequest)
	}))
	defer srv.Close()
	runs, err := ReadRuns([]string{writeRun(t, t.TempDir(), "a.json", "run-a")})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = PushAll(context.Background(), &out, srv.URL, runs)
	var ge GatewayError
	if !errors.As(err, &ge) || !strings.Contains(err.Error(), "a.json to "+srv.URL) {
		t.Fatalf("error %v, want a GatewayError naming a.json", err)
	}
	if out.Len() != 0 {
		t.Errorf("printed %q for a run not pushed", out.String())
	}
}

// TestListenFlag: an address without a port, or one already taken, is
// refused naming it and what is accepted; a free one is served.
func TestListenFlag(t *testing.T) {
	t.Parallel()
	srv, err := ListenFlag("127.0.0.1:0", Options{RunID: "r", Parts: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	taken := strings.TrimPrefix(strings.TrimSuffix(srv.URL(), Path), "http://")
	for addr, want := range map[string]string{
		"localhost": `--metrics-addr "localhost": missing port in address: ` + AddrExpected,
		taken:       "--metrics-addr " + taken + ": listen tcp " + taken + ": bind: address already in use: " + AddrExpected,
	} {
		if s, err := ListenFlag(addr, Options{}); err == nil || err.Error() != want {
			if s != nil {
				s.Close()
			}
			t.Errorf("%s: %v, want %q", addr, err, want)
		}
	}
}
