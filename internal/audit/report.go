package audit

import (
	"slices"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// report filters the joined landscape and summarizes and draws what is left.
func (j *joined) report(f Filter) Report {
	var r Report
	for _, p := range j.paths {
		if j.pathSelected(p, f) {
			r.Paths = append(r.Paths, p)
		}
	}
	for _, fd := range j.findings {
		if fd.Severity <= f.MinSeverity && j.findingSelected(fd, f) {
			r.Findings = append(r.Findings, fd)
		}
	}
	r.Summary = j.summarize(r, f)
	r.Diagram = diagram(r.Paths, r.Findings)
	return r
}

func (j *joined) pathSelected(p Path, f Filter) bool {
	return strings.HasPrefix(p.Queue, f.QueuePrefix) && (f.Package == "" || p.Package == f.Package)
}

// findingSelected keeps a finding that concerns an object the filter selects: a queue with the
// prefix, or a flow that reads one; a flow of the package, or a queue that one of its flows reads.
// A finding about no object (queues only, flows only) is always kept.
func (j *joined) findingSelected(fd Finding, f Filter) bool {
	return j.matches(fd, f.QueuePrefix != "", j.queueMatches(f.QueuePrefix), j.flowReadsPrefix(f.QueuePrefix)) &&
		j.matches(fd, f.Package != "", j.queueReadByPackage(f.Package), func(flow string) bool { return j.in.Packages[flow] == f.Package })
}

// matches applies one filter: queue decides for queue objects, flow for flow and channel objects;
// the queue objects decide when there are any.
func (j *joined) matches(fd Finding, active bool, queue, flow func(string) bool) bool {
	if !active || len(fd.Objects) == 0 {
		return true
	}
	queues, flows := false, false
	for _, o := range fd.Objects {
		switch o.Kind {
		case ObjectQueue, ObjectJMSQueue, ObjectAEMQueue:
			queues = true
		}
	}
	for _, o := range fd.Objects {
		switch o.Kind {
		case ObjectQueue, ObjectJMSQueue, ObjectAEMQueue:
			if queue(o.Name) {
				return true
			}
		case ObjectFlow:
			flows = true
			if !queues && flow(o.Name) {
				return true
			}
		}
	}
	return !queues && !flows
}

func (j *joined) queueMatches(prefix string) func(string) bool {
	return func(q string) bool { return strings.HasPrefix(q, prefix) }
}

// flowReadsPrefix reports whether a flow reads a queue with the prefix; a flow that could not be
// analysed may, so it is kept.
func (j *joined) flowReadsPrefix(prefix string) func(string) bool {
	return func(flow string) bool {
		if j.unread[flow] {
			return true
		}
		return slices.ContainsFunc(j.flowReads[flow], func(q string) bool { return strings.HasPrefix(q, prefix) })
	}
}

func (j *joined) queueReadByPackage(pkg string) func(string) bool {
	return func(q string) bool {
		for flow, qs := range j.flowReads {
			if j.in.Packages[flow] == pkg && slices.Contains(qs, q) {
				return true
			}
		}
		return false
	}
}

func (j *joined) summarize(r Report, f Filter) Summary {
	s := Summary{Paths: len(r.Paths), EventMesh: j.in.EventMesh, CloudIntegration: j.in.CloudIntegration, AEM: j.in.AEM}
	for _, q := range j.in.Queues {
		if strings.HasPrefix(q.Name, f.QueuePrefix) {
			s.Queues++
		}
	}
	for _, q := range j.in.AEMQueues {
		if strings.HasPrefix(q.Name, f.QueuePrefix) {
			s.AEMQueues++
		}
	}
	flows := map[string]bool{}
	for _, p := range r.Paths {
		if p.Adapter == AdapterAEM {
			s.AEMPaths++
		}
		if p.Adapter == AdapterWebhook {
			s.Webhooks++
		} else {
			flows[p.Flow] = true
		}
		if p.Unbounded {
			s.UnboundedPaths++
		}
		if p.WorstCase != nil && (s.LargestWorstCase == nil || *p.WorstCase > *s.LargestWorstCase) {
			w := *p.WorstCase
			s.LargestWorstCase = &w
			s.LargestWorstCasePath = p.Queue + " → " + p.ConsumerLabel()
		}
	}
	// The report covers AEM when its queues were read or a flow reads one through an AEM sender channel (whose
	// queue settings are then unknown; the finding audit.aem_not_configured says so).
	s.AEM = s.AEM || s.AEMPaths > 0
	for _, fd := range r.Findings {
		switch fd.Severity {
		case rules.SeverityError:
			s.Errors++
		case rules.SeverityWarning:
			s.Warnings++
		default:
			s.Infos++
		}
		if fd.Rule == "audit.flow_not_analysable" {
			for _, o := range fd.Objects {
				if o.Kind == ObjectFlow && !flows[o.Name] {
					flows[o.Name] = true
				}
			}
		}
	}
	for flow := range j.unread {
		if f.Package == "" || j.in.Packages[flow] == f.Package {
			s.NotAnalysable++
		}
	}
	if f.QueuePrefix == "" && f.Package == "" {
		s.Flows = j.flows
	} else {
		s.Flows = len(flows)
	}
	return s
}
