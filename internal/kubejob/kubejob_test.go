package kubejob

import (
	"maps"
	"strings"
	"testing"
)

func valid() Spec {
	return Spec{Name: "mongobench", Image: "mb:1", Parts: 2, Args: []string{"run"}, ResultsClaim: "res",
		CPU: "2", Memory: "1Gi", MetricsPort: 9100, CollectorImage: "busybox:1.37"}
}

// TestValidate: each mistake is found, and named.
func TestValidate(t *testing.T) {
	t.Parallel()
	if errs := (&Spec{}).Validate(); len(errs) < 6 {
		t.Errorf("an empty spec gives %d errors: %v", len(errs), errs)
	}
	v := valid()
	if errs := v.Validate(); len(errs) != 0 {
		t.Fatalf("a valid spec gives %v", errs)
	}
	tests := []struct {
		change func(*Spec)
		want   string
	}{
		{func(s *Spec) { s.Name = "Bench" }, `name "Bench" is invalid`},
		{func(s *Spec) { s.Name = strings.Repeat("a", 48) }, "is invalid: expected at most 47"},
		{func(s *Spec) { s.Namespace = "a_b" }, `namespace "a_b" is invalid`},
		{func(s *Spec) { s.Image = "mb 1" }, `image "mb 1" is invalid`},
		{func(s *Spec) { s.Parts = 0 }, "parts 0 is invalid"},
		{func(s *Spec) { s.Args = nil }, "no mongobench command"},
		{func(s *Spec) { s.Workloads = map[string]string{"a/b": ""} }, `workload file name "a/b" cannot be a ConfigMap key`},
		{func(s *Spec) { s.URLSecret = "Secret!" }, `URL secret "Secret!" is invalid`},
		{func(s *Spec) { s.ResultsClaim = "" }, `results claim "" is invalid`},
		{func(s *Spec) { s.CPU = "-1" }, `cpu "-1" is invalid`},
		{func(s *Spec) { s.Memory = "0" }, `memory "0" is invalid`},
		{func(s *Spec) { s.MetricsPort = 70000 }, "metrics port 70000 is invalid"},
		{func(s *Spec) { s.CollectorImage = "" }, "no collector image"},
	}
	for _, tt := range tests {
		s := valid()
		tt.change(&s)
		errs := s.Validate()
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) {
			t.Errorf("got %v, want one error saying %q", errs, tt.want)
		}
		if _, err := s.Manifest(nil); err == nil {
			t.Errorf("%q: a manifest was printed", tt.want)
		}
	}
}

// TestManifestObjects: without workload files there is no ConfigMap and
// no volume for it; with them, the pods mount it where Args name them.
func TestManifestObjects(t *testing.T) {
	t.Parallel()
	s := valid()
	if s.ConfigMap() != nil || len(s.Job().Spec.Template.Spec.Volumes) != 1 {
		t.Errorf("built-in workloads only, yet a ConfigMap %v or volumes %v", s.ConfigMap(), s.Job().Spec.Template.Spec.Volumes)
	}
	s.Workloads = map[string]string{"w": "recordcount=1\n"}
	mounts := s.Job().Spec.Template.Spec.Containers[0].VolumeMounts
	if cm := s.ConfigMap(); cm == nil || cm.Data["w"] != "recordcount=1\n" || len(mounts) != 2 || mounts[1].MountPath != WorkloadDir {
		t.Errorf("ConfigMap %v, mounts %v", cm, mounts)
	}
	out, err := s.Manifest([]string{"one", "", "two"})
	if err != nil {
		t.Fatal(err)
	}
	docs := strings.Split(string(out), "\n---\n")
	if docs[0] != "# one\n#\n# two" || len(docs) != 5 || !strings.Contains(docs[1], "\nkind: ConfigMap\n") ||
		!strings.Contains(docs[2], "\nkind: PodDisruptionBudget\n") {
		t.Errorf("manifest:\n%s", out)
	}
}

// TestLabels: every object carries Kubernetes' recommended labels; the
// parts' anti-affinity and disruption budget select the parts alone, not
// the collector that runs beside them; a version a label cannot hold is
// left out.
func TestLabels(t *testing.T) {
	t.Parallel()
	s := valid()
	s.Version = "1.2.3"
	s.Workloads = map[string]string{"w": ""}
	for _, o := range []struct {
		kind      string
		labels    map[string]string
		component string
	}{
		{"ConfigMap", s.ConfigMap().Labels, ComponentWorkloads},
		{"Job", s.Job().Labels, ComponentPart},
		{"pod template", s.Job().Spec.Template.Labels, ComponentPart},
		{"PodDisruptionBudget", s.DisruptionBudget().Labels, ComponentPart},
		{"collector", s.Collector().Labels, ComponentCollector},
	} {
		want := map[string]string{
			"app.kubernetes.io/name": "mongobench", "app.kubernetes.io/instance": s.Name,
			"app.kubernetes.io/component": o.component, "app.kubernetes.io/part-of": "mongobench",
			"app.kubernetes.io/managed-by": "mongobench", "app.kubernetes.io/version": "1.2.3",
		}
		if !maps.Equal(o.labels, want) {
			t.Errorf("%s labels %v, want %v", o.kind, o.labels, want)
		}
	}
	selects := func(sel map[string]string, labels map[string]string) bool {
		for k, v := range sel {
			if labels[k] != v {
				return false
			}
		}
		return true
	}
	anti := s.Job().Spec.Template.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchLabels
	budget := s.DisruptionBudget().Spec.Selector.MatchLabels
	for name, sel := range map[string]map[string]string{"anti-affinity": anti, "disruption budget": budget} {
		if !selects(sel, s.Job().Spec.Template.Labels) || selects(sel, s.Collector().Labels) {
			t.Errorf("%s selector %v must select the parts and not the collector", name, sel)
		}
	}
	if mu := s.DisruptionBudget().Spec.MaxUnavailable; mu == nil || mu.IntValue() != 0 {
		t.Errorf("disruption budget allows %v parts down, want 0", mu)
	}
	s.Version = "1.0+build.7"
	if _, ok := s.Job().Labels["app.kubernetes.io/version"]; ok {
		t.Errorf("version %q is not a label value, yet labelled", s.Version)
	}
}
