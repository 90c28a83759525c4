package cli

import (
	"strconv"

	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/redact"
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
	for k, v := range out {
		out[k] = redact.Text(v)
	}
	return out
}

func resultsMeta(cfg *benchConfig, command string, seed uint64, url, database string) export.Meta {
	return export.Meta{
		Tool:    export.Tool{Name: "mongobench", Version: Version},
		Command: append([]string{"mongobench", command}, redact.Args(cfg.args.raw)...),
		Label:   cfg.spec.Label,
		Phase:   command,
		Config:  resolvedConfig(cfg, seed, url, database),
	}
}

func buildResults(cfg *benchConfig, command string, seed uint64, out *phaseOutput, url, database string) (*export.Results, error) {
	meta := resultsMeta(cfg, command, seed, url, database)
	meta.Partial = out.partial
	meta.Extra = map[string]any{
		"late_starts":         out.result.LateStarts,
		"abandoned_at_stop":   out.result.Abandoned,
		"stopped_by_time":     out.result.TimedOut,
		"stopped_by_signal":   out.result.Stopped,
		"operations_started":  out.result.Started,
		"measured_operations": out.summary.Operations,
	}
	return export.NewResults(out.summary, meta)
}
