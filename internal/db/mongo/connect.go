package mongo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"

	//lint:ignore SA1019 the lean path shares the topology's cluster clock; go.mod pins the driver
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/session"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/xoptions"

	"github.com/mongobench/mongobench/internal/db/lean"
	"github.com/mongobench/mongobench/internal/redact"
)

// Open connects and checks that the server answers within the connect
// timeout, so an unreachable server is reported before anything runs.
func Open(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	opts, err := clientOptions(cfg)
	if err != nil {
		return nil, err
	}
	// The per-operation timeout is a deadline on each operation's context
	// (opContext) rather than the driver's client-wide timeout, which costs
	// three timers and a dozen allocations per operation to this one's
	// timer. A deadline on the context has the same effect in the driver:
	// it bounds server selection, the round trip and retries, and is sent
	// to the server as maxTimeMS. A timeoutMS in the URL is the user's
	// choice and is left to the driver.
	opTimeout := time.Duration(0)
	if opts.Timeout == nil && cfg.OpTimeout > 0 {
		opTimeout = cfg.OpTimeout
	}
	// lean's dialers: their sockets' reads and writes do not wake the
	// runtime's monitor thread, and the lean path's remembers each socket,
	// so that a worker can use it without the driver's per-message
	// goroutines.
	if opts.Dialer == nil {
		if cfg.Path == PathLean {
			opts.SetDialer(&lean.Dialer{})
		} else {
			opts.SetDialer(&lean.RawDialer{})
		}
	}
	client, shared, err := connect(ctx, opts, cfg.Threads, cfg.ConnectTimeout)
	var noAnswer pingError
	switch {
	case errors.As(err, &noAnswer):
		return nil, connectError(cfg, opts, noAnswer.err)
	case err != nil:
		return nil, fmt.Errorf("cannot connect to %s: %s", redact.URL(cfg.URL), redact.Error(err.Error(), cfg.URL))
	}
	c := &Client{cfg: cfg, client: client, db: client.Database(cfg.Database), opTimeout: opTimeout}
	if cfg.Path == PathLean {
		shared.Database, shared.Upsert, shared.OpTimeout = cfg.Database, cfg.Upsert, opTimeout
		if c.lean, err = lean.New(*shared); err != nil {
			_ = client.Disconnect(context.WithoutCancel(ctx))
			return nil, err
		}
	}
	return c, nil
}

// ConnectWarm connects a driver client as Open does, pool opened and all,
// with opts' dialer (the driver's own when it has none): calibrate's bare
// driver loop uses it, so that the bare loop and mongobench's paths
// measure pools alike.
func ConnectWarm(ctx context.Context, opts *options.ClientOptions, threads int, timeout time.Duration) (*mongo.Client, error) {
	client, _, err := connect(ctx, opts, threads, timeout)
	var noAnswer pingError
	if errors.As(err, &noAnswer) {
		return nil, noAnswer.err
	}
	return client, err
}

// pingError is the server's silence, or refusal, within the connect
// timeout, apart from options the driver could not use.
type pingError struct{ err error }

func (e pingError) Error() string { return e.err.Error() }

// connect builds the topology the driver's client is given as its
// deployment, connects the client, checks that the server answers within
// timeout, and opens the pool to one connection per thread (poolTarget):
// the topology returned is what the lean path checks its connections out
// of.
func connect(ctx context.Context, opts *options.ClientOptions, threads int, timeout time.Duration) (*mongo.Client, *lean.Config, error) {
	shared, err := sharedDeployment(opts)
	if err != nil {
		return nil, nil, err
	}
	client, err := mongo.Connect(opts)
	if err != nil {
		return nil, nil, err
	}
	pingCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := client.Ping(pingCtx, readpref.Nearest()); err != nil {
		// In the background: Disconnect waits for the server monitor's
		// handshake whatever its context says, which on a server that
		// accepts connections but never answers is the whole connect
		// timeout again; the caller (interrupted, or told that nothing
		// answered) should not wait that long again.
		go func() { _ = client.Disconnect(context.Background()) }()
		return nil, nil, pingError{err}
	}
	// The pool is opened where a primary operation goes. Reads under
	// another read preference go elsewhere, and a primary given
	// connections for nothing would be a cost to the cluster: their pools
	// grow as the driver grows them.
	if rp := opts.ReadPreference; rp == nil || rp.Mode() == readpref.PrimaryMode {
		warmCtx, cancelWarm := context.WithTimeout(ctx, timeout)
		lean.Warm(warmCtx, *shared, poolTarget(opts, threads))
		cancelWarm()
	}
	return client, shared, nil
}

// DefaultPoolSize gives opts the pool mongobench uses for threads workers
// when the URL sets no maxPoolSize: one connection per thread, and no
// fewer than the driver's default of 100 nor the URL's minPoolSize, which
// the driver refuses above the maximum. It returns opts.
func DefaultPoolSize(opts *options.ClientOptions, threads int) *options.ClientOptions {
	if opts.MaxPoolSize == nil {
		n := uint64(max(100, threads))
		if opts.MinPoolSize != nil {
			n = max(n, *opts.MinPoolSize)
		}
		opts.SetMaxPoolSize(n)
	}
	return opts
}

// poolTarget is how many connections a phase of threads workers holds at
// once: one each, up to the pool's maximum.
func poolTarget(opts *options.ClientOptions, threads int) int {
	if opts.MaxPoolSize != nil && *opts.MaxPoolSize > 0 && uint64(threads) > *opts.MaxPoolSize {
		return int(*opts.MaxPoolSize)
	}
	return threads
}

// sharedDeployment builds the topology the driver's client is given as its
// deployment (the one it would have built from opts), so that mongobench
// can open its pool before a phase (lean.Warm) and the lean path can check
// its connections out of the same pool.
func sharedDeployment(opts *options.ClientOptions) (*lean.Config, error) {
	//lint:ignore SA1019 the handshakes and the lean path share one clock
	cfg := &lean.Config{Clock: new(session.ClusterClock), Options: opts}
	cfg.Dialer, _ = opts.Dialer.(*lean.Dialer)
	tcfg, err := topology.NewConfig(opts, cfg.Clock)
	if err != nil {
		return nil, err
	}
	if cfg.Topology, err = topology.New(tcfg); err != nil {
		return nil, err
	}
	if err := xoptions.SetInternalClientOptions(opts, "deployment", cfg.Topology); err != nil {
		return nil, err
	}
	return cfg, nil
}

// clientOptions are the URL's options, with mongobench's defaults where
// the URL sets none: a pool of at least one connection per thread, so that
// threads never queue for a connection inside the client and the latency
// measured is the server's.
func clientOptions(cfg Config) (*options.ClientOptions, error) {
	opts := options.Client().ApplyURI(cfg.URL)
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("invalid mongodb.url %s: %s", redact.URL(cfg.URL), redact.Error(err.Error(), cfg.URL))
	}
	DefaultPoolSize(opts, cfg.Threads)
	if opts.AppName == nil {
		opts.SetAppName("mongobench")
	}
	if opts.ServerSelectionTimeout == nil {
		opts.SetServerSelectionTimeout(cfg.ConnectTimeout)
	}
	if opts.ConnectTimeout == nil {
		opts.SetConnectTimeout(cfg.ConnectTimeout)
	}
	return opts, nil
}

// connectError says why the first ping failed, naming user and mechanism
// on authentication failures but never the password.
func connectError(cfg Config, opts *options.ClientOptions, err error) error {
	msg := redact.Error(err.Error(), cfg.URL)
	var cmdErr mongo.CommandError
	if errors.As(err, &cmdErr) && (cmdErr.Code == 18 || strings.Contains(msg, "Authentication failed")) || strings.Contains(msg, "auth error") {
		return authError(cfg.URL, opts.Auth, msg)
	}
	return fmt.Errorf("no MongoDB server answered at %s within %s: %s", redact.URL(cfg.URL), cfg.ConnectTimeout, lastServerError(msg))
}

// authError names who tried to authenticate and how, since a wrong user,
// authSource or mechanism is the usual cause and the server's own message
// says none of them. cred is the URL's credential (nil when it has none);
// its password is never read. cause must already be redacted.
func authError(uri string, cred *options.Credential, cause string) error {
	var user, mech, source string
	if cred != nil {
		user, mech, source = cred.Username, cred.AuthMechanism, cred.AuthSource
	}
	who := fmt.Sprintf("user %q", user)
	switch {
	case user == "" && strings.EqualFold(mech, "MONGODB-X509"):
		// The server takes the user from the client certificate.
		who = "the subject of the client certificate (tlsCertificateKeyFile)"
	case user == "":
		who = "no user (the URL names none)"
	}
	how := "mechanism " + mech
	if mech == "" {
		how = "the default mechanism (SCRAM-SHA-256, or SCRAM-SHA-1 when the server offers no other)"
	}
	if source != "" {
		how += ", authSource " + source
	}
	return fmt.Errorf("authentication failed at %s for %s with %s: %s", redact.URL(uri), who, how, cause)
}

// lastServerError keeps what the driver's server-selection error says of
// the servers themselves ("dial tcp ...: connection refused") and drops the
// topology dump around it.
func lastServerError(msg string) string {
	var causes []string
	for rest := msg; ; {
		i := strings.Index(rest, "Last error: ")
		if i < 0 {
			break
		}
		rest = rest[i+len("Last error: "):]
		end := strings.Index(rest, " }")
		if end < 0 {
			end = len(rest)
		}
		causes = append(causes, strings.TrimSpace(rest[:end]))
	}
	if len(causes) == 0 {
		return msg
	}
	return strings.Join(causes, "; ")
}

// OpenMonitor connects a second, small client for metrics and admin
// commands: sharing the benchmark's pool would queue serverStatus behind
// the workers and distort both. Its pool keeps no idle connections: the
// URL's minPoolSize is for the benchmark's pool, and above 2 the driver
// would refuse it here.
func OpenMonitor(cfg Config) (*mongo.Client, error) {
	opts := options.Client().ApplyURI(cfg.URL).SetMaxPoolSize(2).SetMinPoolSize(0).SetAppName("mongobench-metrics")
	if cfg.ConnectTimeout > 0 {
		opts.SetServerSelectionTimeout(cfg.ConnectTimeout).SetConnectTimeout(cfg.ConnectTimeout)
	}
	c, err := mongo.Connect(opts)
	if err != nil {
		return nil, fmt.Errorf("cannot connect the metrics client to %s: %s", redact.URL(cfg.URL), redact.Error(err.Error(), cfg.URL))
	}
	return c, nil
}
