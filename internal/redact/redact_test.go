package redact

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// passwords are the hard ones: every character that ends a token, quotes
// or escapes something, or separates the parts of a URL.
var passwords = []string{
	`plain`,
	`it's`,
	`say "hi"`,
	`back\slash`,
	`p@ss@word`,
	`co:lo:n`,
	`50%off`,
	`p%40ss%3A%2F`,
	`sl/as/h`,
	`two words`,
	"tab\there",
	`pâsswörd✓`,
	`a://b`,
	`x mongodb://y`,
	`/leading-slash`,
	`?query&more`,
	`'"\@:%/ 	ü`,
}

func TestURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		// No credentials: unchanged.
		{"mongodb://localhost:27017/ycsb?w=1", "mongodb://localhost:27017/ycsb?w=1"},
		// Several mongos hosts and a password.
		{"mongodb://admin:password@node1:20000,node2:20000,node3:20000/testdb?authSource=admin",
			"mongodb://admin:***@node1:20000,node2:20000,node3:20000/testdb?authSource=admin"},
		{"mongodb+srv://u:p4ss@cluster0.example.net/db", "mongodb+srv://u:***@cluster0.example.net/db"},
		// '@', '/', '?' and quotes inside the password: the last '@' ends it.
		{"mongodb://u:p@ss/w0rd@h:1/db", "mongodb://u:***@h:1/db"},
		{`mongodb://u:a"b c?d@h/db`, "mongodb://u:***@h/db"},
		// A user without a password keeps the user.
		{"mongodb://user@h/db?authMechanism=MONGODB-X509", "mongodb://user@h/db?authMechanism=MONGODB-X509"},
		// No scheme, a mangled scheme, a stray one.
		{"bench:pw@host:27017", "bench:***@host:27017"},
		// A mangled scheme may be a user name whose password starts with
		// '/': everything after its ':' is masked.
		{"mongodb:/bench:pw@h/x", "mongodb:***@h/x"},
		{"user:/S3NT1NEL:@0", "user:***@0"},
		{"mongodb:bench:pw@h/x", "mongodb:***@h/x"},
		{"bench:/pw@h", "bench:***@h"},
		{"  mongodb://u:pw@h", "  mongodb://u:***@h"},
		// The separator percent-encoded.
		{"mongodb://bench%3Apw@h", "mongodb://bench%3A***@h"},
		// Secret options, whatever their case, escaped or not.
		{"mongodb://h/?tls=true&tlsCertificateKeyFilePassword=s3cr3t&w=1", "mongodb://h/?tls=true&tlsCertificateKeyFilePassword=***&w=1"},
		{"mongodb://h/?TLSCERTIFICATEKEYFILEPASSWORD=a b c", "mongodb://h/?TLSCERTIFICATEKEYFILEPASSWORD=***"},
		{"mongodb://h/?sslClientCertificateKeyPassword=x&w=1", "mongodb://h/?sslClientCertificateKeyPassword=***&w=1"},
		{"mongodb://h/?authMechanismProperties=AWS_SESSION_TOKEN:tok123", "mongodb://h/?authMechanismProperties=AWS_SESSION_TOKEN:***"},
		{"mongodb://h/?authMechanismProperties=AWS_SESSION_TOKEN%3Atok,SERVICE_NAME:x", "mongodb://h/?authMechanismProperties=AWS_SESSION_TOKEN%3A***,SERVICE_NAME:x"},
		// Not a URL.
		{"plain text", "plain text"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := URL(tt.in); got != tt.want {
			t.Errorf("URL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		// One URL in a message, quoted or bare.
		{`connecting to "mongodb://a:secret@h:1/x" failed`, `connecting to "mongodb://a:***@h:1/x" failed`},
		{`no server at mongodb://a:secret@h:1/x within 2s: refused`, `no server at mongodb://a:***@h:1/x within 2s: refused`},
		// A URL without a password before one with a password.
		{`from mongodb://h1/x to mongodb://u:pw@h2/y`, `from mongodb://h1/x to mongodb://u:***@h2/y`},
		{`mongodb://bench@h1/x then mongodb://u:pw@h2/y`, `mongodb://bench@h1/x then mongodb://u:***@h2/y`},
		// No scheme: the ": " of a message is not a userinfo's ':'.
		{`mongobench: unknown binding "bench:pw@host:27017"`, `mongobench: unknown binding "bench:***@host:27017"`},
		{`mongobench: bad value bench:two words@h`, `mongobench: bad value bench:***@h`},
		{`mongobench: bad -p mongodb.url=bench:pw@h/x`, `mongobench: bad -p mongodb.url=bench:***@h/x`},
		// A password that starts with a space, and no other candidate.
		{`mongobench: cannot read bench: pw@h: no such file`, `mongobench: cannot read bench:***@h: no such file`},
		// With a scheme, the ": " of a message stays.
		{`mongobench: no server at mongodb://CN=x@h: refused`, `mongobench: no server at mongodb://CN=x@h: refused`},
		// Several lines are taken apart.
		{"a mongodb://u:pw@h\nb mongodb://v@h2\n", "a mongodb://u:***@h\nb mongodb://v@h2\n"},
		// Secret options in text.
		{`option tlsCertificateKeyFilePassword=s3cr3t is set`, `option tlsCertificateKeyFilePassword=*** is set`},
		{`"AWS_SESSION_TOKEN:tok"`, `"AWS_SESSION_TOKEN:***"`},
		// Nothing to hide.
		{`user@example.com wrote`, `user@example.com wrote`},
		{`no secrets here`, `no secrets here`},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNoPasswordSurvives puts each hard password in every form a URL
// reaches an output in: whole, as a property, as an argument, in a message
// bare, quoted with %q, with and without a scheme.
func TestNoPasswordSurvives(t *testing.T) {
	t.Parallel()
	for _, pw := range passwords {
		for _, u := range []string{
			"mongodb://bench:" + pw + "@h1:27017,h2/db?authSource=admin",
			"mongodb+srv://bench:" + pw + "@cluster.example.net/",
			"mongodb:/bench:" + pw + "@h/x",
			"bench:" + pw + "@host:27017",
			"mongodb://h/?tlsCertificateKeyFilePassword=" + pw,
		} {
			option := strings.Contains(u, "Password=")
			if option && strings.ContainsAny(pw, "&;") {
				continue // the option's value ends there
			}
			forms := map[string]string{
				"URL":  URL(u),
				"Arg":  Arg("mongodb.url=" + u),
				"Args": strings.Join(Args([]string{"-p", "mongodb.url=" + u, u}), " "),
			}
			if !option || !strings.ContainsAny(pw, " \t'\"`") {
				// In free text, white space or a quote is all that can end
				// an option's value: whole values are redacted as such
				// before they are put into a message.
				forms["Text bare"] = Text("mongobench: mongodb.url " + u + " is invalid: no")
				forms["Text %q"] = Text(fmt.Sprintf("mongobench: unexpected argument %q: properties are -p", u))
				forms["Text ="] = Text("sweep point mongodb.url=" + u + ", trial 1: failed")
			}
			for form, got := range forms {
				if leaks(got, pw) {
					t.Errorf("%s of %q = %q shows the password %q", form, u, got, pw)
				}
			}
		}
	}
}

// leaks says whether out shows pw, or any part of it longer than three
// bytes that is not in its surroundings anyway.
func leaks(out, pw string) bool {
	if strings.Contains(out, pw) {
		return true
	}
	for _, part := range strings.FieldsFunc(pw, func(r rune) bool { return strings.ContainsRune(`'"\@:%/ 	?&`, r) }) {
		if len(part) > 3 && strings.Contains(out, part) && !strings.Contains("mongodb+srv://bench:***@h1:27017,h2/db?authSource=admin cluster.example.net host tlsCertificateKeyFilePassword", part) {
			return true
		}
	}
	return false
}

func TestWriter(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	w := Writer(&b)
	if Writer(w) != w {
		t.Error("wrapping a redacting writer again wraps it twice")
	}
	in := "no server answered at mongodb://u:pw@h/x\n"
	n, err := fmt.Fprint(w, in)
	if err != nil || n != len(in) {
		t.Errorf("Write = %d, %v; want %d, nil", n, err, len(in))
	}
	if got, want := b.String(), "no server answered at mongodb://u:***@h/x\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}

const fuzzSentinel = "S3NT1NEL"

func FuzzURL(f *testing.F) {
	f.Add("", "", "node1:20000,node2:20000/testdb?authSource=admin")
	f.Add("p@", "@ss", "h/")
	f.Add(`'"\`, " \t", "h?w=1")
	f.Add("a:/", "b", "h")
	f.Fuzz(func(t *testing.T, a, b, rest string) {
		if strings.Contains(rest, fuzzSentinel) {
			return
		}
		pw := a + fuzzSentinel + b
		for _, u := range []string{
			"mongodb://user:" + pw + "@" + rest,
			"user:" + pw + "@" + rest,
			"mongodb:/user:" + pw + "@" + rest,
			"mongodb://" + rest + "?tlsCertificateKeyFilePassword=" + pw,
		} {
			if strings.Contains(u[:strings.Index(u, pw)], "?tlsCertificateKeyFilePassword=") && strings.ContainsAny(pw, "&;") {
				// An option's value ends at the next option.
				continue
			}
			if got := URL(u); strings.Contains(got, fuzzSentinel) {
				t.Fatalf("URL(%q) = %q shows the password", u, got)
			}
			if got := Arg("mongodb.url=" + u); strings.Contains(got, fuzzSentinel) {
				t.Fatalf("Arg(mongodb.url=%q) = %q shows the password", u, got)
			}
		}
	})
}

// FuzzText puts a password into a message after text of any kind. Free
// text has limits a whole value has not: a line break in the password
// ends the line it is on, and without a scheme, a password that starts
// with white space and holds a later ':', or that holds "mongodb://", is
// not told from a message's ": " or a URL of its own.
func FuzzText(f *testing.F) {
	f.Add("mongobench: ", "", "", "h/x is invalid")
	f.Add("x://y ", "p@", "@ss", "h")
	f.Add(`bad "`, `'"\`, ":/ ", `h" here`)
	f.Fuzz(func(t *testing.T, prefix, a, b, rest string) {
		if strings.ContainsAny(prefix+a+b, "\n\r") || strings.Contains(prefix+rest, fuzzSentinel) {
			return
		}
		pw := a + fuzzSentinel + b
		msgs := []string{
			prefix + " mongodb://user:" + pw + "@" + rest,
			prefix + fmt.Sprintf(" %q", "mongodb://user:"+pw+"@"+rest),
		}
		if (a == "" || !isSpace(a[0]) || !strings.Contains(b, ":")) && !strings.Contains(strings.ToLower(a), "mongodb") {
			msgs = append(msgs, prefix+" user:"+pw+"@"+rest)
		}
		for _, m := range msgs {
			if got := Text(m); strings.Contains(got, fuzzSentinel) {
				t.Fatalf("Text(%q) = %q shows the password", m, got)
			}
		}
	})
}

func TestError(t *testing.T) {
	t.Parallel()
	tests := []struct{ uri, msg, want string }{
		// The part of a password after an unescaped '@' taken for a port.
		{"mongodb://bench:p@ss:S3CR3T/x%@h:1/x", `invalid host "": port must be an integer: strconv.Atoi: parsing "S3CR3T": invalid syntax`,
			`invalid host "": port must be an integer: strconv.Atoi: parsing "***": invalid syntax`},
		// An option value quoted without its name, and an escape in it.
		{"mongodb://h/x?tlsCertificateKeyFilePassword=pa%zzss", `invalid option value "pa%zzss": invalid URL escape "%zz"`,
			`invalid option value "***": invalid URL escape "***"`},
		// Three characters of a password.
		{"mongodb://u:50%off@h/x", `invalid password: invalid URL escape "%of"`, `invalid password: invalid URL escape "***"`},
		// Hosts and other quoted pieces stay.
		{"mongodb://u:secret@h/x?w=z", `invalid host "h": no; w "z"`, `invalid host "h": no; w "z"`},
		// A secret written bare, and a URL in the message.
		{"mongodb://u:secret@h/x", `dial mongodb://u:secret@h/x: secret refused`, `dial mongodb://u:***@h/x: *** refused`},
	}
	for _, tt := range tests {
		if got := Error(tt.msg, tt.uri); got != tt.want {
			t.Errorf("Error(%q, %q) = %q, want %q", tt.msg, tt.uri, got, tt.want)
		}
	}
}
