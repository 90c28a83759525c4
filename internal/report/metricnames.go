package report

import "strings"

// The words a metrics chart is named in: the results file's field paths
// ("server.wiredtiger_cache", "r_await_ms") are for scripts, not readers.
var groupWords = map[string]string{
	"server":                  "Server",
	"server.opcounters_per_s": "Operations the server counted",
	"server.connections":      "Server connections",
	"server.network":          "Server network traffic",
	"server.op_latencies":     "Server-side latency",
	"server.global_lock":      "Global lock queue",
	"server.wiredtiger_cache": "WiredTiger cache",
	"host":                    "Host",
	"host.cpu":                "Host CPU",
	"host.load":               "Load average",
	"host.memory":             "Host memory",
	"host.process":            "mongobench process",
	"host.server_process":     "server process",
}

var leafNames = map[string]string{
	"r_per_s": "reads", "w_per_s": "writes", "iops": "IOPS",
	"r_mb_per_s": "read", "w_mb_per_s": "written",
	"r_await_ms": "read await", "w_await_ms": "write await", "await_ms": "await",
	"util_pct": "utilisation", "avg_queue_size": "queue size",
	"num_cpu": "count", "cpu_s": "CPU time", "cpu_cores": "CPUs busy", "cpu_pct": "CPU", "rss_bytes": "resident memory",
	"fill_ratio": "fill", "hit_ratio": "hit ratio",
	"read_into_mb_per_s": "read into cache", "written_from_mb_per_s": "written from cache",
	"bytes_in_cache": "in cache", "max_bytes": "size",
	"pages_read_per_s": "pages read", "pages_requested_per_s": "pages requested",
	"app_page_reads_per_s": "application page reads", "app_page_read_mean_us": "application page read time",
	"bytes_in_per_s": "in", "bytes_out_per_s": "out", "requests_per_s": "requests",
	"reads_mean_us": "reads", "writes_mean_us": "writes", "commands_mean_us": "commands",
	"reads_per_s": "reads", "writes_per_s": "writes", "commands_per_s": "commands",
	"load1": "1 min", "load5": "5 min", "load15": "15 min",
	"softirq_pct": "soft IRQ", "irq_pct": "IRQ", "iowait_pct": "I/O wait",
}

// metricGroupWords names a chart of metrics: "WiredTiger cache", "Disk sda".
func metricGroupWords(prefix, who string) string {
	if prefix == "" {
		prefix = who
	}
	if w, ok := groupWords[prefix]; ok {
		return w
	}
	if d, ok := strings.CutPrefix(prefix, "host.disks."); ok {
		return "Disk " + d
	}
	return capitalize(strings.ReplaceAll(strings.ReplaceAll(prefix, "_", " "), ".", " › "))
}

// leafWords names one figure of a chart: "read await", "user".
func leafWords(leaf string) string {
	if w, ok := leafNames[leaf]; ok {
		return w
	}
	w := leaf
	for _, suffix := range []string{"_per_s", "_pct", "_ms", "_us", "_bytes", "_ratio"} {
		w = strings.TrimSuffix(w, suffix)
	}
	return strings.ReplaceAll(w, "_", " ")
}

// metricWords names a figure in a sentence: "Host CPU: CPUs".
func metricWords(prefix, leaf, who string) string {
	return metricGroupWords(prefix, who) + " " + leafWords(leaf)
}
