package iflow

import (
	"strconv"
	"strings"
)

// Property keys of the AMQP adapter as they appear in the .iflw.
const (
	KeyComponentType          = "ComponentType"
	KeyDirection              = "direction"
	KeyDestinationName        = "destinationName"
	KeyMaxRetries             = "maxRetries"
	KeyDeliveryState          = "deliveryState"
	KeyQueuePrefetch          = "queuePrefetch"
	KeyConcurrentProcesses    = "NumberConcurrentProcesses"
	KeyConsumeExpiredMessages = "consumeExpiredMessages"
)

// ComponentTypeAMQP and DirectionSender identify an AMQP sender channel.
const (
	ComponentTypeAMQP = "AMQP"
	DirectionSender   = "Sender"
)

// RetryKeys returns the property keys of the retry settings of an AMQP sender
// channel, in a fixed order.
func RetryKeys() []string {
	return []string{KeyMaxRetries, KeyDeliveryState, KeyQueuePrefetch, KeyConcurrentProcesses}
}

// Setting describes one property of a message flow: its raw value, whether it
// is externalized, and its effective value.
type Setting struct {
	// Key is the property key, for example "maxRetries".
	Key string
	// Present is false when the message flow has no property with this key.
	Present bool
	// Raw is the value as written in the .iflw, for example "5" or "{{MaxRetries}}".
	Raw string
	// Parameter is the externalized parameter name when Raw is exactly
	// "{{Name}}", and "" for a literal.
	Parameter string
	// Value is the effective value: the trimmed literal, or the parameter
	// value with every {{Name}} reference replaced.
	Value string
	// Resolved is false when Raw references a parameter that has no value.
	Resolved bool
}

// Externalized reports whether the setting is a single externalized
// parameter reference.
func (s Setting) Externalized() bool { return s.Parameter != "" }

// Int returns the effective value as an integer. It reports false for an
// unresolved, empty or non-integer value.
func (s Setting) Int() (int64, bool) {
	if !s.Resolved || s.Value == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s.Value, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// RetrySettings is the settings view of the retry behaviour of an AMQP sender
// channel.
type RetrySettings struct {
	MaxRetries          Setting
	DeliveryState       Setting
	QueuePrefetch       Setting
	ConcurrentProcesses Setting
}

// All returns the four settings in the order of RetryKeys.
func (r RetrySettings) All() []Setting {
	return []Setting{r.MaxRetries, r.DeliveryState, r.QueuePrefetch, r.ConcurrentProcesses}
}

// Setting returns the view of one property of the channel. Parameter values
// are looked up in params; a nil map resolves no parameter.
func (s AMQPSender) Setting(key string, params map[string]string) Setting {
	return settingOf(s.Properties, key, params)
}

// settingOf returns the view of the property key of a message flow's properties.
func settingOf(props map[string]string, key string, params map[string]string) Setting {
	raw, ok := props[key]
	st := Setting{Key: key, Present: ok, Raw: raw}
	if name, isRef := ParameterRef(raw); isRef {
		st.Parameter = name
	}
	st.Value, st.Resolved = Expand(strings.TrimSpace(raw), params)
	return st
}

// RetrySettings returns the retry settings of the channel with parameter
// values looked up in params.
func (s AMQPSender) RetrySettings(params map[string]string) RetrySettings {
	return RetrySettings{
		MaxRetries:          s.Setting(KeyMaxRetries, params),
		DeliveryState:       s.Setting(KeyDeliveryState, params),
		QueuePrefetch:       s.Setting(KeyQueuePrefetch, params),
		ConcurrentProcesses: s.Setting(KeyConcurrentProcesses, params),
	}
}

// ParameterRef reports whether value, after trimming white space, is exactly
// one externalized parameter reference "{{Name}}", and returns Name.
func ParameterRef(value string) (string, bool) {
	v := strings.TrimSpace(value)
	if len(v) < 5 || !strings.HasPrefix(v, "{{") || !strings.HasSuffix(v, "}}") {
		return "", false
	}
	name := v[2 : len(v)-2]
	if name == "" || strings.Contains(name, "{{") || strings.Contains(name, "}}") {
		return "", false
	}
	return name, true
}

// Expand replaces every "{{Name}}" reference in value with params[Name]. It
// reports false when a referenced parameter has no entry in params; such a
// reference is replaced with "".
func Expand(value string, params map[string]string) (string, bool) {
	if !strings.Contains(value, "{{") {
		return value, true
	}
	var b strings.Builder
	resolved := true
	rest := value
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(rest[i+2:], "}}")
		if j < 0 {
			break
		}
		name := rest[i+2 : i+2+j]
		b.WriteString(rest[:i])
		if v, ok := params[name]; ok {
			b.WriteString(v)
		} else {
			resolved = false
		}
		rest = rest[i+2+j+2:]
	}
	b.WriteString(rest)
	return b.String(), resolved
}

// QueueName returns the Event Mesh queue name of an AMQP destinationName:
// the value without surrounding white space and without an optional
// "queue:" prefix. Both "queue:acme/crm/prod/orders" and "queue-CAP" are
// accepted.
func QueueName(destinationName string) string {
	v := strings.TrimSpace(destinationName)
	const prefix = "queue:"
	if len(v) >= len(prefix) && strings.EqualFold(v[:len(prefix)], prefix) {
		v = strings.TrimSpace(v[len(prefix):])
	}
	return v
}
