package nullserver

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
)

// TestServeSaysWhereAndStops checks the contract calibrate relies on: the
// first line on stdout is the URI alone, and a signal stops the server
// with its count of requests on stderr.
func TestServeSaysWhereAndStops(t *testing.T) {
	pr, pw := io.Pipe()
	var stderr strings.Builder
	signals := make(chan int, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), "127.0.0.1:0", signals, pw, &stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(line, "mongodb://127.0.0.1:") || strings.Count(line, " ") != 0 {
		t.Fatalf("first line %q, want the URI alone", line)
	}
	signals <- 130
	go io.Copy(io.Discard, pr)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := []string{"null server listening at " + strings.TrimSpace(line), "null server stopped after 0 requests"}
	for _, w := range want {
		if !strings.Contains(stderr.String(), w) {
			t.Errorf("stderr %q lacks %q", stderr.String(), w)
		}
	}
}

func TestServeRefusesABadAddress(t *testing.T) {
	err := Serve(context.Background(), "127.0.0.1:99999", nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cannot start the null server on 127.0.0.1:99999") {
		t.Fatalf("err = %v", err)
	}
}
