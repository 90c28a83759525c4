package mongo

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/connstring"

	"github.com/mongobench/mongobench/internal/inputfile"
	"github.com/mongobench/mongobench/internal/redact"
)

// DefaultDatabase is YCSB's database when the URL names none (or admin).
const DefaultDatabase = "ycsb"

// DatabaseFromURL returns the database named by the URL's path, or "ycsb"
// when it is absent or "admin" (admin is where users authenticate, not
// where YCSB keeps its data).
func DatabaseFromURL(uri string) string {
	scheme := strings.Index(uri, "://")
	if scheme < 0 {
		return DefaultDatabase
	}
	rest := uri[scheme+3:]
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		rest = rest[:q]
	}
	// The path starts at the first '/' after the credentials.
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return DefaultDatabase
	}
	name, err := url.PathUnescape(rest[slash+1:])
	if err != nil || name == "" || name == "admin" {
		return DefaultDatabase
	}
	return name
}

// writeConcerns maps YCSB's deprecated mongodb.writeConcern names to URL
// options.
var writeConcerns = map[string]string{
	"errors_ignored":       "w=0",
	"unacknowledged":       "w=0",
	"acknowledged":         "w=1",
	"journaled":            "journal=true",
	"replica_acknowledged": "w=2",
	"majority":             "w=majority",
}

// readPreferences maps a read preference, lower case and without
// underscores, to the URL's spelling.
var readPreferences = map[string]string{
	"primary":            "primary",
	"primarypreferred":   "primaryPreferred",
	"secondary":          "secondary",
	"secondarypreferred": "secondaryPreferred",
	"nearest":            "nearest",
}

// writeConcernOption is the URL option of a mongodb.writeConcern: YCSB's
// names, or the w of the URL itself (a number of members, or majority),
// so that a sweep can vary it as --vary mongodb.writeConcern=1,majority.
func writeConcernOption(v string) (string, bool) {
	if kv, ok := writeConcerns[strings.ToLower(v)]; ok {
		return kv, true
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 50 {
		// A replica set has at most 50 members.
		return "w=" + strconv.Itoa(n), true
	}
	return "", false
}

// hasOption reports whether the URL's query sets option (case-insensitive,
// as the connection string spec says).
func hasOption(uri, option string) bool {
	q := strings.IndexByte(uri, '?')
	if q < 0 {
		return false
	}
	for _, kv := range strings.Split(uri[q+1:], "&") {
		k, _, _ := strings.Cut(kv, "=")
		if strings.EqualFold(k, option) {
			return true
		}
	}
	return false
}

func addOption(uri, kv string) string {
	if !strings.Contains(uri, "?") {
		// An option needs the path separator before the query.
		scheme := strings.Index(uri, "://")
		if scheme >= 0 && !strings.Contains(uri[scheme+3:], "/") {
			uri += "/"
		}
		return uri + "?" + kv
	}
	if strings.HasSuffix(uri, "?") || strings.HasSuffix(uri, "&") {
		return uri + kv
	}
	return uri + "&" + kv
}

// ApplyDeprecated rewrites YCSB's deprecated mongodb.writeConcern,
// mongodb.readPreference and mongodb.maxconnections into URL options, as
// YCSB's binding does. An option the URL already sets wins; warnings say so.
func ApplyDeprecated(uri, writeConcern, readPreference, maxConnections string) (string, []string, error) {
	var warnings []string
	if writeConcern != "" {
		kv, ok := writeConcernOption(writeConcern)
		if !ok {
			return "", nil, fmt.Errorf("mongodb.writeConcern=%q is invalid: expected a number of members (0, 1, 2, ...), majority, or one of errors_ignored, unacknowledged, acknowledged, journaled, replica_acknowledged", writeConcern)
		}
		key, _, _ := strings.Cut(kv, "=")
		if hasOption(uri, key) {
			warnings = append(warnings, fmt.Sprintf("mongodb.writeConcern=%s ignored: the URL sets %s", writeConcern, key))
		} else {
			uri = addOption(uri, kv)
		}
	}
	if readPreference != "" {
		// The URL's spelling (secondaryPreferred) is accepted beside YCSB's.
		v, ok := readPreferences[strings.ToLower(strings.ReplaceAll(readPreference, "_", ""))]
		if !ok {
			return "", nil, fmt.Errorf("mongodb.readPreference=%q is invalid: expected one of primary, primary_preferred, secondary, secondary_preferred, nearest (or primaryPreferred, secondaryPreferred)", readPreference)
		}
		if hasOption(uri, "readPreference") {
			warnings = append(warnings, fmt.Sprintf("mongodb.readPreference=%s ignored: the URL sets readPreference", readPreference))
		} else {
			uri = addOption(uri, "readPreference="+v)
		}
	}
	if maxConnections != "" {
		// Sscan would read "1e300" as 1 and stop.
		n, err := strconv.ParseUint(strings.TrimSpace(maxConnections), 10, 64)
		if err != nil || n == 0 {
			return "", nil, fmt.Errorf("mongodb.maxconnections=%q is invalid: expected a whole number > 0", maxConnections)
		}
		if hasOption(uri, "maxPoolSize") {
			warnings = append(warnings, fmt.Sprintf("mongodb.maxconnections=%s ignored: the URL sets maxPoolSize", maxConnections))
		} else {
			uri = addOption(uri, fmt.Sprintf("maxPoolSize=%d", n))
		}
	}
	return uri, warnings, nil
}

// ValidateURL checks a connection string without touching the network:
// its syntax, its options as the driver will apply them (read preference,
// TLS files and their contents), and for mongodb+srv:// the rules the
// driver checks only after a DNS lookup, which belongs to connecting.
func ValidateURL(uri string) error {
	if err := validateSyntax(uri); err != nil {
		return err
	}
	// The driver applies the options (and reads the TLS files) only in
	// Connect, and its errors then read as a failure to connect: they are
	// applied here first, so a bad option is bad input.
	check := uri
	if rest, ok := strings.CutPrefix(uri, "mongodb+srv://"); ok {
		if err := checkSRVHost(uri, rest); err != nil {
			return err
		}
		check = "mongodb://" + withoutSRVOptions(rest)
	}
	if err := options.Client().ApplyURI(check).Validate(); err != nil {
		msg := strings.TrimPrefix(redact.Text(err.Error()), "error parsing uri: ")
		return fmt.Errorf("mongodb.url %s is invalid: %s", redact.URL(uri), msg)
	}
	return nil
}

// checkSRVHost applies the driver's rules for a mongodb+srv:// host, which
// it checks only once DNS has answered: one host name, without a port.
func checkSRVHost(uri, rest string) error {
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[:i]
	}
	switch {
	case rest == "":
		return fmt.Errorf("mongodb.url %s is invalid: expected a host name after mongodb+srv://", redact.URL(uri))
	case strings.Contains(rest, ","):
		return fmt.Errorf("mongodb.url %s is invalid: a mongodb+srv:// URL names one host, whose DNS SRV record lists the servers", redact.URL(uri))
	}
	if _, _, err := net.SplitHostPort(rest); err == nil {
		return fmt.Errorf("mongodb.url %s is invalid: a mongodb+srv:// URL takes no port: DNS gives the servers' ports (use mongodb://%s for one server)", redact.URL(uri), rest)
	}
	return nil
}

// withoutSRVOptions drops the options only a mongodb+srv:// URL may hold,
// so the rest can be checked as a mongodb:// URL.
func withoutSRVOptions(rest string) string {
	q := strings.IndexByte(rest, '?')
	if q < 0 {
		return rest
	}
	var kept []string
	for _, kv := range strings.Split(rest[q+1:], "&") {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(strings.ToLower(k), "srv") {
			kept = append(kept, kv)
		}
	}
	return rest[:q+1] + strings.Join(kept, "&")
}

// validateSyntax checks the hosts and options as written, and that the
// TLS files named exist and are files, for messages plainer than the
// driver's.
func validateSyntax(uri string) error {
	if !strings.HasPrefix(uri, "mongodb+srv://") {
		// The driver's own parser says `invalid host ""` of a bad port,
		// and lets "[::1" through to fail only when dialled, after the
		// connect timeout: the hosts are checked here first.
		for _, h := range rawHosts(uri) {
			if reason := badHost(h); reason != "" {
				return fmt.Errorf("mongodb.url %s is invalid: host %q: %s", redact.URL(uri), h, reason)
			}
		}
		if _, err := connstring.ParseAndValidate(uri); err != nil {
			msg := redact.Error(err.Error(), uri)
			msg = strings.TrimPrefix(msg, "error parsing uri: ")
			return fmt.Errorf("mongodb.url %s is invalid: %s", redact.URL(uri), msg)
		}
	}
	q := strings.IndexByte(uri, '?')
	if q < 0 {
		return nil
	}
	values, err := url.ParseQuery(uri[q+1:])
	if err != nil {
		return fmt.Errorf("mongodb.url %s has malformed options: %s", redact.URL(uri), redact.Error(err.Error(), uri))
	}
	for key, vals := range values {
		switch strings.ToLower(key) {
		case "tlscafile", "tlscertificatekeyfile", "sslcertificateauthorityfile", "sslclientcertificatekeyfile":
			for _, v := range vals {
				// Opened, not just looked at: the driver reads it while
				// parsing the URL, and a named pipe nobody writes would
				// hold that read, and the command, forever.
				f, err := inputfile.Open(v)
				if err != nil {
					return fmt.Errorf("mongodb.url option %s=%s: the file cannot be read (%v)", key, v, unwrapPathError(err))
				}
				f.Close()
			}
		}
	}
	return nil
}

// rawHosts returns the host list of a mongodb:// URL as written, each
// host unescaped.
func rawHosts(uri string) []string {
	rest, ok := strings.CutPrefix(uri, "mongodb://")
	if !ok {
		return nil
	}
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		rest = rest[:q]
	}
	// A password may hold '/' unescaped; the last '@' ends it.
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	if slash := strings.IndexByte(rest, '/'); slash >= 0 {
		rest = rest[:slash]
	}
	if rest == "" {
		return nil // the driver says "must have at least 1 host"
	}
	hosts := strings.Split(rest, ",")
	for i, h := range hosts {
		if u, err := url.PathUnescape(h); err == nil {
			hosts[i] = u
		}
	}
	return hosts
}

// badHost says what is wrong with one host of a connection string, or "".
func badHost(h string) string {
	if strings.HasPrefix(h, "/") || strings.HasSuffix(h, ".sock") {
		return "" // a Unix domain socket
	}
	const ipv6 = "an IPv6 address goes in brackets, with the port after them, as [::1]:27017"
	name, port, hasPort := h, "", false
	switch {
	case strings.HasPrefix(h, "["):
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return ipv6
		}
		name = h[1:end]
		if rest := h[end+1:]; rest != "" {
			if port, hasPort = strings.CutPrefix(rest, ":"); !hasPort {
				return ipv6
			}
		}
	case strings.Count(h, ":") > 1:
		return ipv6
	default:
		name, port, hasPort = strings.Cut(h, ":")
	}
	if name == "" {
		return "expected a host name or address, as db1 or db1:27017"
	}
	if strings.ContainsAny(name, " \t\\") {
		return "a host name holds no spaces or backslashes"
	}
	if hasPort {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Sprintf("the port %q is not a number from 1 to 65535", port)
		}
	}
	return ""
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// InsecureTLSWarning says when the URL turns certificate checks off.
func InsecureTLSWarning(uri string) string {
	for _, opt := range []string{"tlsInsecure", "tlsAllowInvalidCertificates", "tlsAllowInvalidHostnames", "sslAllowInvalidCertificates"} {
		q := strings.IndexByte(uri, '?')
		if q < 0 {
			return ""
		}
		for _, kv := range strings.Split(uri[q+1:], "&") {
			k, v, _ := strings.Cut(kv, "=")
			if strings.EqualFold(k, opt) && strings.EqualFold(v, "true") {
				return opt + "=true: the server's certificate is not verified, so the connection can be intercepted"
			}
		}
	}
	return ""
}
