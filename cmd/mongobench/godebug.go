package main

import "strings"

// stackSetting turns off the runtime's adaptive initial goroutine stacks.
// With it on, every new goroutine starts with the average stack size the
// last collection scanned; at 1,000 threads on the driver's path that
// average is the workers' deep stacks, and the driver starts a goroutine
// per read to watch its context, which needs the minimum. Measured with
// `mongobench run -P workloadc -threads 1000` against the null server, it
// takes 12–14 MiB off the peak resident set. The runtime reads the setting
// only at start-up, and it cannot be set with a //go:debug directive, so
// main re-executes itself once with it in GODEBUG.
const stackSetting = "adaptivestackstart=0"

// stackEnv returns env with stackSetting added to GODEBUG, or nil when
// GODEBUG already sets adaptivestackstart (to anything: a user's choice,
// or this process's second start).
func stackEnv(env []string) []string {
	const prefix = "GODEBUG="
	at := -1
	// The runtime, like os.Getenv, reads the first GODEBUG.
	for i, kv := range env {
		if strings.HasPrefix(kv, prefix) {
			at = i
			break
		}
	}
	if at < 0 {
		return append(env[:len(env):len(env)], prefix+stackSetting)
	}
	current := strings.TrimPrefix(env[at], prefix)
	for _, field := range strings.Split(current, ",") {
		if key, _, _ := strings.Cut(field, "="); strings.TrimSpace(key) == "adaptivestackstart" {
			return nil
		}
	}
	out := append([]string(nil), env...)
	if current == "" {
		out[at] = prefix + stackSetting
	} else {
		out[at] = prefix + current + "," + stackSetting
	}
	return out
}
