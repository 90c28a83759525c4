package cmdflag

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

// TestHelpTextLayout checks the layout: descriptions in one column, a
// description's further lines under its first.
func TestHelpTextLayout(t *testing.T) {
	t.Parallel()
	var on bool
	var s string
	tests := []struct {
		name string
		defs []Def
		want string
	}{
		{"one", []Def{Switch("s", "status", false, &on)}, "  -s  status"},
		{"aligned", []Def{
			Text("out", "PATH", "results file", true, &s),
			Switch("s", "status\nevery interval", false, &on),
		}, "  --out PATH  results file\n  -s          status\n              every interval"},
	}
	for _, tt := range tests {
		if got := HelpText(tt.defs); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// table is a command's flags bound to fresh variables.
type table struct {
	on, help bool
	out      string
	n        []string
}

func (tb *table) defs() []Def {
	return []Def{
		Switch("s", "status", false, &tb.on),
		Text("out", "PATH", "results file", true, &tb.out),
		Func("n", "N", "a number", false, func(v string) error {
			if v == "bad" {
				return errors.New("-n \"bad\" is invalid: expected a number")
			}
			tb.n = append(tb.n, v)
			return nil
		}),
		Help(&tb.help),
	}
}

func TestAcceptedAndLookup(t *testing.T) {
	t.Parallel()
	defs := (&table{}).defs()
	if got, want := Accepted(defs, false), "-s, --out, -n, -h"; got != want {
		t.Errorf("Accepted: %q, want %q", got, want)
	}
	if got, want := Accepted(defs, true), "-s, --out PATH, -n N, -h"; got != want {
		t.Errorf("Accepted with args: %q, want %q", got, want)
	}
	if d, ok := Lookup(defs, "help"); !ok || d.Name != "h" {
		t.Errorf("Lookup(help) = %q, %v; want h by its alias", d.Name, ok)
	}
	if _, ok := Lookup(defs, "bogus"); ok {
		t.Error("Lookup found a flag never defined")
	}
}

func TestParseAndRefusal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args     []string
		wantHelp bool
		wantBad  string
	}{
		{[]string{"-s", "--out", "x"}, false, ""},
		{[]string{"-x=1"}, false, "cmd: unknown flag -x: accepted flags are -s, --out PATH, -n N, -h"},
		{[]string{"-n", "bad"}, false, `-n "bad" is invalid: expected a number`},
		{[]string{"--bogus"}, false, "cmd: unknown flag -bogus: accepted flags are -s, --out PATH, -n N, -h"},
		{[]string{"--out"}, false, "cmd: flag -out needs a value: accepted flags are -s, --out PATH, -n N, -h"},
	}
	for _, tt := range tests {
		tb := &table{}
		s := NewSet("cmd", tb.defs())
		help, bad := s.Refusal(s.Parse(tt.args))
		got := ""
		if bad != nil {
			got = bad.Error()
		}
		if help != tt.wantHelp || got != tt.wantBad {
			t.Errorf("%q: help %v, bad %q; want %v, %q", tt.args, help, got, tt.wantHelp, tt.wantBad)
		}
	}
}

func TestParseInterleaved(t *testing.T) {
	t.Parallel()
	tb := &table{}
	pos, err := NewSet("cmd", tb.defs()).ParseInterleaved([]string{"a", "-n", "1", "b", "-s", "--", "-n", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pos, " ") != "a b -n c" || strings.Join(tb.n, ",") != "1" || !tb.on {
		t.Errorf("positional %q, -n %q, -s %v", pos, tb.n, tb.on)
	}
}

func TestExtract(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		rest    string
		n       string
		on      bool
		wantErr string
	}{
		{[]string{"run", "-n", "1", "-P", "x", "--n=2", "-s"}, "run -P x", "1,2", true, ""},
		{[]string{"-s=false", "a", "--", "-n", "3"}, "a -n 3", "", false, ""},
		{[]string{"-n"}, "", "", false, "flag --n needs a value"},
		{[]string{"-s=maybe"}, "", "", false, "--s=maybe is invalid: expected true or false"},
		{[]string{"-n", "bad"}, "", "", false, `-n "bad" is invalid: expected a number`},
	}
	for _, tt := range tests {
		tb := &table{}
		rest, err := Extract(tb.defs(), tt.args)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%q: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || strings.Join(rest, " ") != tt.rest || strings.Join(tb.n, ",") != tt.n || tb.on != tt.on {
			t.Errorf("%q: rest %q, -n %q, -s %v, err %v", tt.args, rest, tb.n, tb.on, err)
		}
	}
}

func TestMessageAndError(t *testing.T) {
	t.Parallel()
	defs := (&table{}).defs()
	tests := []struct{ in, want string }{
		{"flag provided but not defined: -x", "unknown flag -x: accepted flags are -s, --out, -n, -h"},
		{"flag needs an argument: -out", "flag -out needs a value"},
		{"other", "other"},
	}
	for _, tt := range tests {
		if got := Error(errors.New(tt.in), defs).Error(); got != tt.want {
			t.Errorf("Error(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// -h is defined: it sets its switch rather than being the flag
	// package's ErrHelp, which only an undefined -h gives.
	tb := &table{}
	if err := NewSet("c", tb.defs()).Parse([]string{"--help"}); err != nil || !tb.help {
		t.Errorf("--help: error %v, help %v", err, tb.help)
	}
	help, bad := NewSet("c", nil).Refusal(flag.ErrHelp)
	if !help || bad != nil {
		t.Errorf("Refusal(ErrHelp) = %v, %v; want help", help, bad)
	}
}

func TestPropertyAndAppend(t *testing.T) {
	t.Parallel()
	var got [][2]string
	set := Property(func(k, v string) { got = append(got, [2]string{k, v}) })
	for _, v := range []string{" a =1", "b==2", "c="} {
		if err := set(v); err != nil {
			t.Fatal(err)
		}
	}
	if want := [][2]string{{"a", "1"}, {"b", "=2"}, {"c", ""}}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("properties %q, want %q", got, want)
	}
	for _, v := range []string{"novalue", "=1", "mongodb.url"} {
		if err := set(v); err == nil || !strings.HasSuffix(err.Error(), ": expected -p name=value") {
			t.Errorf("%q: %v", v, err)
		}
	}
	if err := set("mongodb://u:secret@h/"); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("a password in the message: %v", err)
	}
	var files []string
	add := Append(&files)
	_ = add("a")
	_ = add("b")
	if strings.Join(files, ",") != "a,b" {
		t.Errorf("appended %q", files)
	}
}
