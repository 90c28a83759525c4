// Package stats holds the statistics behind a series of benchmark runs:
// confidence intervals for repeated trials, Welch's t-test and a verdict for
// comparisons, and knee detection for sweeps (threads or any varied value).
//
// Everything here is pure computation on numbers already measured; nothing
// reads files or runs anything. Users choose hardware from these verdicts, so
// the distribution functions are computed to near double precision rather
// than from tables or rough approximations.
package stats

import "math"

// largeDF is where twoSidedP switches from the incomplete beta function to
// Hill's asymptotic series. Beyond it the continued fraction works near
// x = 1, where x itself no longer carries the precision of 1-x, and its
// error grows with df (about 1e-12 at df = 1e5, 1e-8 at 1e9); the series is
// accurate to about 1e-13 from here on, even far into the tail.
const largeDF = 1e4

// twoSidedP returns P(|T| ≥ |t|) for df degrees of freedom.
func twoSidedP(t, df float64) float64 {
	t = math.Abs(t)
	switch {
	case math.IsInf(df, 1):
		return math.Erfc(t / math.Sqrt2)
	case df > largeDF:
		return hillTwoSidedP(t, df)
	}
	x, y, logx, logy := tBetaArgs(t, df)
	return incBeta(df/2, 0.5, x, y, logx, logy)
}

// studentTail returns P(T > t) for t ≥ 0.
func studentTail(t, df float64) float64 {
	return 0.5 * twoSidedP(t, df)
}

// hillTwoSidedP is the asymptotic series of G. W. Hill's CACM Algorithm 395
// ("Student's t-distribution", 1970): a normalizing transformation of t
// whose error falls as df⁻³, followed by the exact normal tail.
func hillTwoSidedP(t, n float64) float64 {
	a := n - 0.5
	b := 48 * a * a
	y := a * log1pSquareRatio(t, n)
	if math.IsInf(y, 1) {
		return 0
	}
	z := (((((-0.4*y-3.3)*y-24)*y-85.5)/(0.8*y*y+100+b)+y+3)/b + 1) * math.Sqrt(y)
	return math.Erfc(z / math.Sqrt2)
}

// tBetaArgs returns x = df/(df+t²) and y = t²/(df+t²) = 1-x with their
// logarithms, each computed directly: forming 1-x by subtraction would lose
// all precision near t = 0 and in the far tail, and t² may overflow (or x
// underflow) long before the tail probability x^(df/2)… leaves float64.
func tBetaArgs(t, df float64) (x, y, logx, logy float64) {
	if t > math.Sqrt(df) {
		r := df / t / t
		l := math.Log1p(r)
		return r / (1 + r), 1 / (1 + r), math.Log(df) - 2*math.Log(t) - l, -l
	}
	r := t / df * t
	l := math.Log1p(r)
	return 1 / (1 + r), r / (1 + r), -l, 2*math.Log(t) - math.Log(df) - l
}

// log1pSquareRatio returns log(1 + t²/n) without overflowing t².
func log1pSquareRatio(t, n float64) float64 {
	if r := t / n * t; !math.IsInf(r, 1) {
		return math.Log1p(r)
	}
	return 2*math.Log(t) - math.Log(n) // 1 is negligible beside r > 1e308
}

// studentPDF returns the density of Student's t distribution at t.
func studentPDF(t, df float64) float64 {
	if math.IsInf(df, 1) {
		return math.Exp(-t*t/2) / math.Sqrt(2*math.Pi)
	}
	// Γ((df+1)/2) / (√(dfπ) Γ(df/2)) = 1 / (√df B(df/2, 1/2)); logBeta keeps
	// it accurate for large df, where the two log-gammas would cancel.
	return math.Exp(-logBeta(df/2, 0.5) - 0.5*math.Log(df) - (df+1)/2*log1pSquareRatio(t, df))
}

// studentTUpperQuantile returns t ≥ 0 with P(T > t) = q, for 0 < q < 0.5.
func studentTUpperQuantile(q, df float64) float64 {
	switch {
	case q >= 0.5:
		return 0
	case df == 1: // Cauchy: closed form
		return 1 / math.Tan(math.Pi*q)
	case df == 2: // closed form of F(t) = 1/2 + t/(2√(2+t²))
		return (1 - 2*q) / math.Sqrt(2*q*(1-q))
	}
	guess := hillGuess(2*q, df)
	if math.IsInf(df, 1) {
		guess = normalGuess(q)
	}
	return invertTail(q, guess,
		func(t float64) float64 { return studentTail(t, df) },
		func(t float64) float64 { return studentPDF(t, df) })
}

// invertTail solves tail(t) = q for t ≥ 0, where tail is decreasing with
// derivative -pdf. Newton steps are kept inside a bracket that every
// evaluation narrows; a step that would leave the bracket (or a density that
// underflowed) is replaced by bisection, so the search always converges even
// from a poor starting guess.
func invertTail(q, guess float64, tail, pdf func(float64) float64) float64 {
	lo, hi := 0.0, math.Inf(1)
	t := guess
	if !(t > 0) || math.IsInf(t, 0) {
		t = 1
	}
	for range 2000 {
		f := tail(t) - q
		if f == 0 {
			return t
		}
		if f > 0 {
			lo = t // tail still too heavy: the root lies to the right
		} else {
			hi = t
		}
		next := t + f/pdf(t)
		if !(next > lo && next < hi) {
			switch {
			case math.IsInf(hi, 1):
				next = 2 * t
			case lo > 0:
				// Geometric midpoint: brackets can span many orders of
				// magnitude in the heavy tails of small df.
				next = math.Sqrt(lo) * math.Sqrt(hi)
			default:
				next = hi / 2
			}
		}
		// The tail itself is only accurate to a few ulps, so closer than
		// 1e-14 the steps chase rounding noise.
		if math.Abs(next-t) <= 1e-14*next || (!math.IsInf(hi, 1) && hi-lo <= 1e-14*hi) {
			return next
		}
		t = next
	}
	return t
}

// hillGuess is G. W. Hill's approximation (CACM Algorithm 396, "Student's
// t-quantiles", 1970) to the t with two-sided tail probability p2. It is
// only a starting point for invertTail, which makes it exact.
func hillGuess(p2, n float64) float64 {
	a := 1 / (n - 0.5)
	b := 48 / (a * a)
	c := ((20700*a/b-98)*a-16)*a + 96.36
	d := ((94.5/(b+c)-3)/b + 1) * math.Sqrt(a*math.Pi/2) * n
	x := d * p2
	y := math.Pow(x, 2/n)
	if y > 0.05+a {
		// Asymptotic inverse expansion about the normal quantile.
		x = -normalGuess(p2 / 2)
		y = x * x
		if n < 5 {
			c += 0.3 * (n - 4.5) * (x + 0.6)
		}
		c = (((0.05*d*x-5)*x-7)*x-2)*x + b + c
		y = (((((0.4*y+6.3)*y+36)*y+94.5)/c-y-3)/b + 1) * x
		y = math.Expm1(a * y * y)
	} else {
		y = ((1/(((n+6)/(n*y)-0.089*d-0.822)*(n+2)*3)+0.5/(n+4))*y-1)*(n+1)/(n+2) + 1/y
	}
	return math.Sqrt(n * y)
}

// normalGuess approximates the z ≥ 0 with P(Z > z) = q. math.Erfcinv
// computes Erfinv(1-x) and so loses the far tail; there the leading terms of
// the asymptotic expansion of the normal tail take over.
func normalGuess(q float64) float64 {
	if q > 1e-10 {
		return math.Sqrt2 * math.Erfinv(1-2*q)
	}
	l := -2 * math.Log(q)
	return math.Sqrt(l - math.Log(l) - math.Log(2*math.Pi))
}

// incBeta returns the regularized incomplete beta function I_x(a, b) for
// a, b > 0, given x, y = 1-x and their logarithms so that none of them has
// to be formed by a cancelling subtraction (and so that an x too small for
// float64 still yields I_x when x^a/a… is representable). It evaluates the
// continued fraction on whichever side converges quickly and uses the
// symmetry I_x(a,b) = 1 - I_y(b,a) for the other.
func incBeta(a, b, x, y, logx, logy float64) float64 {
	if math.IsInf(logx, -1) {
		return 0
	}
	if math.IsInf(logy, -1) {
		return 1
	}
	front := math.Exp(a*logx + b*logy - logBeta(a, b))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, y)/b
}

// betaCF evaluates the continued fraction of the incomplete beta function by
// the modified Lentz method (Numerical Recipes §6.4). It converges in
// O(√max(a,b)) terms when x < (a+1)/(a+b+2).
func betaCF(a, b, x float64) float64 {
	const (
		tiny = 1e-300
		eps  = 1e-16
	)
	maxIter := 1000 + int(20*math.Sqrt(math.Max(a, b)))
	qab, qap, qam := a+b, a+1, a-1
	c := 1.0
	d := 1 - qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= maxIter; m++ {
		fm := float64(m)
		m2 := 2 * fm
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// logBeta returns log B(a, b) for a, b > 0. For large arguments the three
// log-gammas are each huge and nearly cancel, so the Stirling terms are
// combined analytically and only their small remainders are added (the
// approach of R's lbeta).
func logBeta(a, b float64) float64 {
	p, q := math.Min(a, b), math.Max(a, b)
	const lnSqrt2Pi = 0.918938533204672741780329736406 // log √(2π)
	switch {
	case p >= 10:
		corr := stirlingRemainder(p) + stirlingRemainder(q) - stirlingRemainder(p+q)
		return -0.5*math.Log(q) + lnSqrt2Pi + corr + (p-0.5)*math.Log(p/(p+q)) + q*math.Log1p(-p/(p+q))
	case q >= 10:
		corr := stirlingRemainder(q) - stirlingRemainder(p+q)
		lp, _ := math.Lgamma(p)
		return lp + corr + p - p*math.Log(p+q) + (q-0.5)*math.Log1p(-p/(p+q))
	default:
		lp, _ := math.Lgamma(p)
		lq, _ := math.Lgamma(q)
		lpq, _ := math.Lgamma(p + q)
		return lp + lq - lpq
	}
}

// stirlingRemainder returns log Γ(x) - ((x-½)log x - x + log √(2π)) for
// x ≥ 10 from its asymptotic series; at x = 10 the first omitted term is
// below 1e-17.
func stirlingRemainder(x float64) float64 {
	z := 1 / (x * x)
	return (1.0/12 + z*(-1.0/360+z*(1.0/1260+z*(-1.0/1680+z*(1.0/1188+z*(-691.0/360360+z*(1.0/156+z*(-3617.0/122400)))))))) / x
}
