package generator

import "fmt"

// NewFieldLength returns the chooser of field lengths that YCSB's
// CoreWorkload builds for fieldlengthdistribution=dist: always max
// (constant), uniform over [min, max] (uniform), zipfian over [min, max]
// favouring short fields (zipfian), or drawn from the histogram file
// (histogram). min and max are minfieldlength and fieldlength.
func NewFieldLength(dist string, min, max int64, histogramFile string) (Chooser, error) {
	switch dist {
	case "constant":
		if max < 0 {
			return nil, fmt.Errorf("fieldlength=%d is negative", max)
		}
		return NewConstant(max), nil
	case "uniform", "zipfian":
		if min < 0 || min > max {
			return nil, fmt.Errorf("fieldlengthdistribution=%s needs 0 <= minfieldlength <= fieldlength, got minfieldlength=%d fieldlength=%d", dist, min, max)
		}
		if dist == "uniform" {
			return NewUniform(min, max), nil
		}
		return NewZipfian(min, max), nil
	case "histogram":
		h, err := LoadHistogram(histogramFile)
		if err != nil {
			return nil, fmt.Errorf("fieldlengthhistogram: %w", err)
		}
		return h, nil
	}
	return nil, fmt.Errorf("fieldlengthdistribution=%q is unknown: accepted values are constant, uniform, zipfian, histogram", dist)
}
