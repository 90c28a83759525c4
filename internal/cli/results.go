package cli

import (
	"io"
	"strconv"

	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
)

// resolvedConfig is every property with the value the run used: what the
// user set, else the default. Secrets are redacted here, once, before the
// configuration reaches any output.
func resolvedConfig(cfg *benchConfig, seed uint64, url, database string) map[string]string {
	out := map[string]string{}
	for _, k := range workload.KnownProperties {
		if k.Default != "" {
			out[k.Name] = k.Default
		}
	}
	for _, k := range cfg.props.Keys() {
		v, _ := cfg.props.Get(k)
		out[k] = v
	}
	out["mongodb.url"] = url
	out["mongodb.database"] = database
	out["seed"] = strconv.FormatUint(seed, 10)
	out["threadcount"] = strconv.Itoa(cfg.spec.Threads)
	out["batchsize"] = strconv.Itoa(cfg.batchSize)
	// What the run measured, not the property's default: with a target
	// it defaults to both.
	out["measurement.interval"] = cfg.spec.MeasurementInterval
	for k, v := range out {
		out[k] = redact.URL(v)
	}
	return out
}

func resultsMeta(cfg *benchConfig, command string, seed uint64, url, database string) results.Meta {
	return results.Meta{
		Tool:    results.Tool{Name: "mongobench", Version: Version},
		Command: append([]string{"mongobench", command}, redact.Args(cfg.args.raw)...),
		Label:   cfg.spec.Label,
		Phase:   command,
		Config:  resolvedConfig(cfg, seed, url, database),
	}
}

// writeResults writes a results file atomically: an interruption or a
// failure leaves the old file or the new one, never half of one.
func writeResults(path string, res *results.Results) error {
	return outfile.Write(path, func(w io.Writer) error { return results.WriteJSON(w, res) })
}
