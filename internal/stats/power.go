package stats

import "math"

// DefaultPower is the chance of detecting a real difference that the
// sensitivity figures assume: the customary 80%.
const DefaultPower = 0.8

// Sensitivity says what a comparison of two samples could tell: the
// smallest difference of means, relative to A's mean, that Welch's test at
// Alpha detects with probability Power given the samples' run-to-run
// spread, and how many trials per side would detect a difference of Goal.
// It is the answer to "no significant difference: would more trials
// find one?".
type Sensitivity struct {
	OK bool
	// Trials is the trials per side the samples had (the smaller side).
	Trials int
	// Detectable is the smallest relative difference the samples could
	// detect (0.38 for ±38%).
	Detectable float64
	// Goal is the relative difference TrialsForGoal trials would detect;
	// TrialsForGoal is 0 when more than MaxSensitivityTrials would be
	// needed.
	Goal          float64
	TrialsForGoal int
}

// MaxSensitivityTrials bounds the trials Sensitivity proposes: beyond it
// the spread, not the count of trials, is what to work on.
const MaxSensitivityTrials = 100

// SensitivityOf is the sensitivity of comparing a and b at alpha (0 means
// DefaultAlpha) with DefaultPower, and the trials per side that would
// detect a relative difference of goal. The spread is the two samples'
// pooled standard deviation; OK is false with fewer than 2 values on a
// side, values that are not finite, or a zero mean for A.
func SensitivityOf(a, b []float64, alpha, goal float64) Sensitivity {
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	if len(a) < 2 || len(b) < 2 || firstNonFinite(a) >= 0 || firstNonFinite(b) >= 0 || !(alpha > 0 && alpha < 1) {
		return Sensitivity{}
	}
	sa, sb := Describe(a), Describe(b)
	if sa.Mean == 0 {
		return Sensitivity{}
	}
	sd := math.Sqrt((sa.StdDev*sa.StdDev + sb.StdDev*sb.StdDev) / 2)
	// detectable(n) is the smallest difference of means that n trials per
	// side detect: (t₁₋α/₂ + t_power) · sd · √(2/n), t on 2n − 2 degrees of
	// freedom.
	detectable := func(n int) float64 {
		df := float64(2*n - 2)
		t := studentTUpperQuantile(alpha/2, df) + studentTUpperQuantile(1-DefaultPower, df)
		return t * sd * math.Sqrt(2/float64(n)) / math.Abs(sa.Mean)
	}
	s := Sensitivity{OK: true, Trials: min(len(a), len(b)), Goal: goal}
	s.Detectable = detectable(s.Trials)
	if goal > 0 {
		for n := 2; n <= MaxSensitivityTrials; n++ {
			if detectable(n) <= goal {
				s.TrialsForGoal = n
				break
			}
		}
	}
	return s
}
