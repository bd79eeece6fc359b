package eventmesh

import "sort"

type QueueState struct {
	Name          string        `json:"name"`
	Settings      queueSettings `json:"settings"`
	Subscriptions []string      `json:"subscriptions"`
	Messages      []*message    `json:"messages"`
}

// Load takes the queues of a state file; New calls it before any request.
func (s *EventMesh) Load(queues []QueueState) {
	for _, qs := range queues {
		q := &queue{name: qs.Name, settings: qs.Settings, subs: map[string]bool{}}
		for _, t := range qs.Subscriptions {
			q.subs[t] = true
			s.subscriptions++
		}
		for _, m := range qs.Messages {
			if m != nil {
				releaseAtRestart(m) // messaging_consume.go
				q.msgs = append(q.msgs, m)
			}
		}
		s.queues[q.name] = q
	}
}

// Snapshot copies the queues for the state file, sorted by name.
func (s *EventMesh) Snapshot() []QueueState {
	var out []QueueState
	s.mu.Lock()
	for _, q := range s.queues {
		qs := QueueState{Name: q.name, Settings: q.settings, Subscriptions: []string{}, Messages: []*message{}}
		for t := range q.subs {
			qs.Subscriptions = append(qs.Subscriptions, t)
		}
		sort.Strings(qs.Subscriptions)
		for _, m := range q.msgs {
			mc := *m
			qs.Messages = append(qs.Messages, &mc)
		}
		out = append(out, qs)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
