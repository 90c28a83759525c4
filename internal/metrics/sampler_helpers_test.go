package metrics

// ServerInfo returns what the server said about itself the last time it
// answered; nil before that.
func (s *Sampler) ServerInfo() *ServerInfo {
	s.mu.Lock()
	defer s.mu.Unlock()

	if s.lastInfo == nil {
		return nil
	}

	info := *s.lastInfo

	return &info
}
