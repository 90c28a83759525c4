package workload

// Map returns a copy of the values.
func (p *Properties) Map() map[string]string {
	m := make(map[string]string, len(p.values))
	for k, v := range p.values {
		m[k] = v
	}
	return m
}
