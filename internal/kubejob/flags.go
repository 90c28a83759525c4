package kubejob

import (
	"fmt"
	"strings"

	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/workload"
)

// NewSpec is the Spec the k8s command starts from: its flags' defaults,
// for mongobench's version.
func NewSpec(version string) Spec {
	return Spec{Name: "mongobench", CPU: "2", Memory: "1Gi", MetricsPort: 9100, CollectorImage: "busybox:1.37", Version: version}
}

// Flags are the k8s command's flags, bound to s.
func (s *Spec) Flags() []cmdflag.Def {
	return []cmdflag.Def{
		cmdflag.Func("parts", "N", "how many parts, each a pod on a node of its own (the cluster needs N nodes)", true, func(v string) error {
			n, err := workload.ParseInt(v, 1, 10000)
			if err != nil {
				return fmt.Errorf("--parts %q is invalid: expected a number of parts from 1 to 10000", v)
			}
			s.Parts = int(n)
			return nil
		}),
		cmdflag.Text("image", "IMAGE", "mongobench's image, as your cluster pulls it (docs/how-to/kubernetes.md: the image)", true, &s.Image),
		cmdflag.Text("results-claim", "CLAIM", "the ReadWriteMany PersistentVolumeClaim the parts write their results to", true, &s.ResultsClaim),
		cmdflag.Text("name", "NAME", "name of the Job and of what goes with it (default mongobench)", true, &s.Name),
		cmdflag.Text("namespace", "NS", "namespace of every object (default: kubectl's current one)", true, &s.Namespace),
		cmdflag.Text("url-secret", "SECRET", "the Secret whose key \"url\" is the server's URL (passwords belong there,\nnot in -p mongodb.url)", true, &s.URLSecret),
		cmdflag.Text("cpu", "Q", "CPU each part requests (default 2); no CPU limit is set, as throttling\nwould show as latency", true, &s.CPU),
		cmdflag.Text("memory", "Q", "memory each part requests and is limited to (default 1Gi)", true, &s.Memory),
		cmdflag.Func("metrics-port", "PORT", "port of each part's Prometheus metrics (default 9100; 0 for none)", true, func(v string) error {
			n, err := workload.ParseInt(v, 0, 65535)
			if err != nil {
				return fmt.Errorf("--metrics-port %q is invalid: expected a port from 1 to 65535, or 0 for none", v)
			}
			s.MetricsPort = int(n)
			return nil
		}),
		cmdflag.Text("collector-image", "IMAGE", "image of the pod the results are copied from: one with tar, for\nkubectl cp (default busybox:1.37)", true, &s.CollectorImage),
	}
}

// Missing names the first flag the manifest cannot do without, as a
// message saying what is expected; "" when none is missing.
func (s *Spec) Missing() string {
	switch {
	case s.Parts == 0:
		return "--parts is missing: expected the number of parts, such as --parts 8"
	case s.Image == "":
		return fmt.Sprintf("--image is missing: expected mongobench's image as your cluster pulls it, such as registry.example.com/mongobench:%s", s.Version)
	case s.ResultsClaim == "":
		return "--results-claim is missing: expected a ReadWriteMany PersistentVolumeClaim the parts write their results files to"
	}
	return ""
}

// SetCommand sets s.Args to what each pod runs for the load or run
// command line (command, then args, already checked by the command's
// parser, whose flags are defs), its -P files taken into the ConfigMap
// (AddWorkload), and what each pod adds (PartFlags).
func (s *Spec) SetCommand(command string, args []string, defs []cmdflag.Def, status bool) error {
	out := []string{command}
	s.Workloads = map[string]string{}
	for i := 0; i < len(args); i++ {
		tok := args[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(tok, "-"), "=")
		d, isFlag := cmdflag.Lookup(defs, name)
		if !strings.HasPrefix(tok, "-") || !isFlag || d.Arg == "" {
			out = append(out, tok)
			continue
		}
		if !hasValue {
			i++
			value = args[i] // the command's parser found it there
		}
		if d.Name == "P" {
			var err error
			if value, err = s.AddWorkload(value); err != nil {
				return err
			}
		}
		out = append(out, "-"+d.Name, value)
		if d.Long {
			out[len(out)-2] = "-" + out[len(out)-2]
		}
	}
	s.Args = append(out, s.PartFlags(status)...)
	return nil
}
