package framework

import (
	"os"
	"strings"
	"sync/atomic"
)

// quietLogLevels are the log levels of the plugin SDK, its subsystems and this provider's logger.
var quietLogLevels = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_SAPMESSAGING"}

// SilenceUnwantedLogs switches the logs of the plugin SDK and of this provider off when no
// TF_LOG variable is set. Terraform and OpenTofu then discard every log line of a provider, but
// the SDK's loggers default to trace: the provider would format dozens of JSON lines per call
// and the CLI would read and parse each of them, which costs about half of the CPU time of a
// refresh. With any TF_LOG variable set, nothing changes. Call it before serving the provider.
func SilenceUnwantedLogs() {
	if silenceUnwantedLogs(os.Environ(), func(k, v string) { _ = os.Setenv(k, v) }) {
		LogsOff.Store(true)
	}
}

// LogsOff is set once SilenceUnwantedLogs switched this process's logs off: no log line of the
// provider is written, so its HTTP clients skip building them (httpx.Config.LogsOff).
var LogsOff atomic.Bool

// silenceUnwantedLogs switches the logs off through setenv unless environ sets a TF_LOG
// variable, and reports whether it did.
func silenceUnwantedLogs(environ []string, setenv func(key, value string)) bool {
	for _, kv := range environ {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "TF_LOG") && v != "" {
			return false
		}
	}
	for _, k := range quietLogLevels {
		setenv(k, "OFF")
	}
	return true
}
