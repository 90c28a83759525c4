// Package kubejob builds the Kubernetes objects that run a benchmark as N
// parts on N client machines: an Indexed Job whose completion index is
// the part, a ConfigMap holding the workload files, and a pod to collect
// the parts' results files from the volume they are written to. They are
// Kubernetes' own types (k8s.io/api), printed as YAML: what a cluster
// accepts is what the types allow, not what a template happens to say.
package kubejob

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"
)

// Where the pods find what they are given.
const (
	// WorkloadDir holds the ConfigMap's workload files.
	WorkloadDir = "/etc/mongobench/workloads"
	// ResultsDir is where the results volume is mounted.
	ResultsDir = "/results"
	// IndexEnv is the completion index Kubernetes gives each pod of an
	// Indexed Job: the part it runs. $(IndexEnv) in an argument is
	// replaced by it.
	IndexEnv = "JOB_COMPLETION_INDEX"
	// URLEnv is where mongobench reads the server's URL when no
	// mongodb.url is given.
	URLEnv = "MONGOBENCH_URL"
	// URLKey is the key of the URL in the Secret that holds it.
	URLKey = "url"
	// RunIDEnv names the run the parts share: the Job's uid, unique to
	// each run of it.
	RunIDEnv = "MONGOBENCH_RUN_ID"
	// nonRoot is the user mongobench's image runs as (as distroless's nonroot does).
	nonRoot = 65532
)

// Spec is one partitioned run on a cluster.
type Spec struct {
	Name      string // of the Job and of what goes with it; a DNS label
	Namespace string // "" for kubectl's current one
	Image     string // mongobench's image
	Parts     int
	// Args are mongobench's arguments in each pod: the command, its
	// flags, the part's flags. Workload files are named under
	// WorkloadDir; "$(JOB_COMPLETION_INDEX)" is the pod's part.
	Args []string
	// Workloads are the workload files the ConfigMap holds, by file name.
	Workloads map[string]string
	// URLSecret is the Secret whose key "url" is the server's URL; "" when
	// the URL is in Args.
	URLSecret string
	// ResultsClaim is the PersistentVolumeClaim the parts write their
	// results files to. The parts run on different nodes, so it must be
	// ReadWriteMany.
	ResultsClaim string
	// CPU and Memory are each part's requests; Memory is its limit too.
	CPU, Memory string
	// MetricsPort is the port each part serves Prometheus metrics on; 0
	// for none.
	MetricsPort int
	// CollectorImage is the image of the pod the results are copied from:
	// one with tar, which kubectl cp needs (mongobench's own image will do).
	CollectorImage string
	// Version is mongobench's version, for the app.kubernetes.io/version
	// label; "" leaves the label out.
	Version string
}

// ResultFile is the name of part index's results file on the volume:
// named for the run, so that runs of different names share a volume.
// index may be "$(JOB_COMPLETION_INDEX)".
func (s *Spec) ResultFile(index string) string { return s.Name + "-part-" + index + ".json" }

// CollectorName is the name of the pod the results are copied from.
func (s *Spec) CollectorName() string { return s.Name + "-collect" }

// Validate returns everything wrong with s, each naming the flag-like
// field and what is accepted.
func (s *Spec) Validate() []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	// Pods are named NAME-INDEX-RANDOM and the collector NAME-collect:
	// a label's 63 characters leave room for neither past 47.
	if msgs := validation.IsDNS1123Label(s.Name); len(msgs) > 0 || len(s.Name) > 47 {
		bad("name %q is invalid: expected at most 47 lower-case letters, digits and '-', starting and ending with a letter or digit", s.Name)
	}
	if s.Namespace != "" {
		if msgs := validation.IsDNS1123Label(s.Namespace); len(msgs) > 0 {
			bad("namespace %q is invalid: expected a Kubernetes namespace name (lower-case letters, digits and '-')", s.Namespace)
		}
	}
	if strings.TrimSpace(s.Image) == "" || strings.ContainsAny(s.Image, " \t\n") {
		bad("image %q is invalid: expected an image reference your cluster can pull, such as registry.example.com/mongobench:1.0", s.Image)
	}
	if s.Parts < 1 {
		bad("parts %d is invalid: expected a number of parts of at least 1", s.Parts)
	}
	if len(s.Args) == 0 {
		bad("no mongobench command for the pods")
	}
	for name := range s.Workloads {
		if msgs := validation.IsConfigMapKey(name); len(msgs) > 0 {
			bad("workload file name %q cannot be a ConfigMap key: %s", name, strings.Join(msgs, "; "))
		}
	}
	if s.URLSecret != "" {
		if msgs := validation.IsDNS1123Subdomain(s.URLSecret); len(msgs) > 0 {
			bad("URL secret %q is invalid: expected the name of a Secret (lower-case letters, digits, '-' and '.')", s.URLSecret)
		}
	}
	if msgs := validation.IsDNS1123Subdomain(s.ResultsClaim); len(msgs) > 0 {
		bad("results claim %q is invalid: expected the name of a ReadWriteMany PersistentVolumeClaim", s.ResultsClaim)
	}
	for _, q := range []struct{ what, v string }{{"cpu", s.CPU}, {"memory", s.Memory}} {
		if v, err := resource.ParseQuantity(q.v); err != nil || v.Sign() <= 0 {
			bad("%s %q is invalid: expected a positive Kubernetes quantity, such as 2 or 500m for cpu, 2Gi for memory", q.what, q.v)
		}
	}
	if s.MetricsPort < 0 || s.MetricsPort > 65535 {
		bad("metrics port %d is invalid: expected a port from 1 to 65535, or 0 for none", s.MetricsPort)
	}
	if strings.TrimSpace(s.CollectorImage) == "" {
		bad("no collector image: expected an image with tar, such as busybox")
	}
	return errs
}

// The components of a run, as their app.kubernetes.io/component label
// names them.
const (
	ComponentPart      = "benchmark-part"
	ComponentCollector = "results-collector"
	ComponentWorkloads = "workloads"
)

// selector picks out the run's parts: their anti-affinity and the
// disruption budget select by it, so that the collector, which runs
// beside a part, is neither kept apart nor protected.
func (s *Spec) selector() map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":      "mongobench",
		"app.kubernetes.io/instance":  s.Name,
		"app.kubernetes.io/component": ComponentPart,
	}
}

// labels are Kubernetes' recommended labels
// (kubernetes.io/docs/concepts/overview/working-with-objects/common-labels).
func (s *Spec) labels(component string) map[string]string {
	l := s.selector()
	l["app.kubernetes.io/component"] = component
	l["app.kubernetes.io/part-of"] = "mongobench"
	l["app.kubernetes.io/managed-by"] = "mongobench"
	// A version built with characters a label refuses ("1.0+build")
	// is left out rather than failing the manifest.
	if s.Version != "" && len(validation.IsValidLabelValue(s.Version)) == 0 {
		l["app.kubernetes.io/version"] = s.Version
	}
	return l
}

func (s *Spec) meta(name, component string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: s.Namespace, Labels: s.labels(component)}
}

// ConfigMap holds the workload files; nil when there are none (the
// built-in workloads need none).
func (s *Spec) ConfigMap() *corev1.ConfigMap {
	if len(s.Workloads) == 0 {
		return nil
	}
	return &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: s.meta(s.Name+"-workloads", ComponentWorkloads),
		Data:       maps.Clone(s.Workloads),
	}
}

// Job runs the parts: N completions, all at once, one per index, each on
// a node of its own.
func (s *Spec) Job() *batchv1.Job {
	parts := int32(s.Parts)
	mode := batchv1.IndexedCompletion
	podLabels := s.labels(ComponentPart)
	container := corev1.Container{
		Name:  "mongobench",
		Image: s.Image,
		Args:  slices.Clone(s.Args),
		Env: []corev1.EnvVar{
			// Set by the Job controller too; set here so that the
			// arguments' $(JOB_COMPLETION_INDEX) never depends on it.
			{Name: IndexEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{
				FieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}},
			// The parts of one run of the Job share its uid; a second
			// run of the same manifest is another run.
			{Name: RunIDEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{
				FieldPath: "metadata.labels['batch.kubernetes.io/controller-uid']"}}},
		},
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse(s.CPU),
				corev1.ResourceMemory: resource.MustParse(s.Memory),
			},
			// No CPU limit: throttling stalls the client in bursts, which
			// the run would report as the server's latency.
			Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(s.Memory)},
		},
		// The whole volume, no subPath: the directory the kubelet would
		// make for one is writable by root only.
		VolumeMounts: []corev1.VolumeMount{{Name: "results", MountPath: ResultsDir}},
		SecurityContext: &corev1.SecurityContext{
			AllowPrivilegeEscalation: new(false),
			ReadOnlyRootFilesystem:   new(true),
			Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		},
	}
	if s.URLSecret != "" {
		container.Env = append(container.Env, corev1.EnvVar{Name: URLEnv, ValueFrom: &corev1.EnvVarSource{
			SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: s.URLSecret}, Key: URLKey}}})
	}
	volumes := []corev1.Volume{{Name: "results", VolumeSource: corev1.VolumeSource{
		PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: s.ResultsClaim}}}}
	if cm := s.ConfigMap(); cm != nil {
		container.VolumeMounts = append(container.VolumeMounts, corev1.VolumeMount{Name: "workloads", MountPath: WorkloadDir, ReadOnly: true})
		volumes = append(volumes, corev1.Volume{Name: "workloads", VolumeSource: corev1.VolumeSource{
			ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: cm.Name}}}})
	}
	var annotations map[string]string
	if s.MetricsPort > 0 {
		container.Ports = []corev1.ContainerPort{{Name: "metrics", ContainerPort: int32(s.MetricsPort), Protocol: corev1.ProtocolTCP}}
		// The annotations most Prometheus set-ups scrape pods by.
		annotations = map[string]string{
			"prometheus.io/scrape": "true",
			"prometheus.io/port":   strconv.Itoa(s.MetricsPort),
			"prometheus.io/path":   "/metrics",
		}
	}
	return &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: s.meta(s.Name, ComponentPart),
		Spec: batchv1.JobSpec{
			Completions:    &parts,
			Parallelism:    &parts,
			CompletionMode: &mode,
			// A part run again would measure alone, after the others: a
			// failed part fails the run.
			BackoffLimit: new(int32(0)),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: podLabels, Annotations: annotations},
				Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever,
					Containers:    []corev1.Container{container},
					Volumes:       volumes,
					SecurityContext: &corev1.PodSecurityContext{
						RunAsNonRoot: new(true),
						RunAsUser:    new(int64(nonRoot)),
						RunAsGroup:   new(int64(nonRoot)),
						// The results volume is written as this group.
						FSGroup: new(int64(nonRoot)),
					},
					// One part per node: two parts on one machine share
					// its CPU and network, which is what running parts
					// apart is for.
					Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
						RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
							LabelSelector: &metav1.LabelSelector{MatchLabels: s.selector()},
							TopologyKey:   "kubernetes.io/hostname",
						}},
					}},
				},
			},
		},
	}
}

// Collector is a pod that mounts the results volume and waits, so that
// kubectl cp can copy the results from it.
func (s *Spec) Collector() *corev1.Pod {
	return &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: s.meta(s.CollectorName(), ComponentCollector),
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{
				Name:    "collect",
				Image:   s.CollectorImage,
				Command: []string{"sleep", "86400"},
				VolumeMounts: []corev1.VolumeMount{
					{Name: "results", MountPath: ResultsDir, ReadOnly: true},
				},
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
					corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: resource.MustParse("16Mi")}},
			}},
			Volumes: []corev1.Volume{{Name: "results", VolumeSource: corev1.VolumeSource{
				PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: s.ResultsClaim, ReadOnly: true}}}},
		},
	}
}

// DisruptionBudget keeps voluntary disruptions (a node drain, the
// cluster autoscaler) from evicting a running part: with backoffLimit 0 a
// part evicted fails the run, and a part restarted would measure alone,
// after the others. A drain waits for the parts to end instead; ended
// pods are not counted, so it holds nothing once the run is over.
func (s *Spec) DisruptionBudget() *policyv1.PodDisruptionBudget {
	zero := intstr.FromInt32(0)
	return &policyv1.PodDisruptionBudget{
		TypeMeta:   metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
		ObjectMeta: s.meta(s.Name, ComponentPart),
		Spec: policyv1.PodDisruptionBudgetSpec{
			MaxUnavailable: &zero,
			Selector:       &metav1.LabelSelector{MatchLabels: s.selector()},
		},
	}
}

// Objects are the run's objects in the order they are applied:
// ConfigMap first so that the Job's pods find it, the disruption budget
// before the pods it protects.
func (s *Spec) Objects() []runtime.Object {
	var objects []runtime.Object
	if cm := s.ConfigMap(); cm != nil {
		objects = append(objects, cm)
	}
	return append(objects, s.DisruptionBudget(), s.Job(), s.Collector())
}

// Manifest is the objects as YAML documents, after a header of comments
// with commands.
func (s *Spec) Manifest(header []string) ([]byte, error) {
	if errs := s.Validate(); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	var buf bytes.Buffer
	for _, l := range header {
		buf.WriteString(strings.TrimRight("# "+l, " ") + "\n")
	}
	for _, o := range s.Objects() {
		b, err := withoutStatus(o)
		if err != nil {
			return nil, err
		}
		buf.WriteString("---\n")
		buf.Write(b)
	}
	return buf.Bytes(), nil
}

// withoutStatus is o as YAML without its status, which the server owns:
// the types print a disruption budget's counters as zeros, which read
// as a state the run is in.
func withoutStatus(o runtime.Object) ([]byte, error) {
	j, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	var fields map[string]any
	if err := json.Unmarshal(j, &fields); err != nil {
		return nil, err
	}
	delete(fields, "status")
	return yaml.Marshal(fields)
}
