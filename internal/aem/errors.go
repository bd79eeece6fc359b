package aem

import (
	"errors"
	"fmt"
	"net/http"
)

// SEMP error codes the client tells apart ([SOL] Admin/SEMP/SEMP-Error-Handling.htm: the code is stable,
// the status string and the description may change). ALREADY_EXISTS (10) is not in that page's table of
// common codes; it is the code Solace brokers answer to a create of an existing object.
const (
	CodeFail             = 2
	CodeNotFound         = 6
	CodeAlreadyExists    = 10
	CodeInvalidParameter = 11
	CodeNotSupported     = 14
	CodeParseError       = 27
	CodeUnauthorized     = 72
	CodeNotAllowed       = 89
	CodeMissingParameter = 228
)

// Errors to test with errors.Is.
var (
	// ErrNotFound: the object (or its parent, the Message VPN) does not exist.
	ErrNotFound = errors.New("not found")
	// ErrAlreadyExists: a create found the object there.
	ErrAlreadyExists = errors.New("already exists")
	// ErrUnauthorized: the credentials were refused (401) or the user's access level is too low.
	ErrUnauthorized = errors.New("unauthorized")
)

// Error is an error answer of SEMP: its HTTP status and the envelope's error.
type Error struct {
	Method      string
	Path        string
	HTTPStatus  int
	Code        int
	Status      string
	Description string
	// what names the operation ("reading queue orders"); fix says what to do.
	what string
	fix  string
}

// Error returns the operation, the broker's answer and what to do.
func (e *Error) Error() string {
	return e.Problem() + "; " + e.fix
}

// Problem is the error without its fix, for a caller that gives its own.
func (e *Error) Problem() string {
	s := fmt.Sprintf("%s: %s %s answered %d", e.what, e.Method, e.Path, e.HTTPStatus)
	if e.Status != "" {
		s += fmt.Sprintf(" %s (SEMP error %d)", e.Status, e.Code)
	}
	if e.Description != "" {
		s += ": " + e.Description
	}
	return s
}

// Is matches ErrNotFound, ErrAlreadyExists and ErrUnauthorized by the error code.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.Code == CodeNotFound
	case ErrAlreadyExists:
		return e.Code == CodeAlreadyExists
	case ErrUnauthorized:
		return e.HTTPStatus == http.StatusUnauthorized || e.Code == CodeUnauthorized
	}
	return false
}

func newError(method, path string, status int, env envelope, what, vpn string) *Error {
	e := &Error{Method: method, Path: logPath(path), HTTPStatus: status, what: what}
	if env.Meta.Error != nil {
		e.Code, e.Status, e.Description = env.Meta.Error.Code, env.Meta.Error.Status, truncate(env.Meta.Error.Description, 500)
	}
	switch {
	case status >= http.StatusInternalServerError:
		// Checked first: a 5xx is the broker's failure whatever error code its envelope carries.
		e.fix = "an answer of 5xx is the broker's own failure, not a value of the request, and it lasted through the retries: " +
			"run the command again later, and check the broker service's status in the cloud console if it persists"
	case status == http.StatusUnauthorized:
		e.fix = "the broker refused the username or password: set `username` and `password` to the management user " +
			"the cloud console shows under the broker service's SEMP access (Manage > SEMP - REST API)"
	case e.Code == CodeUnauthorized:
		e.fix = "the management user's access level is too low for this request: use a user with read-write access to " +
			"the Message VPN " + vpn
	case e.Code == CodeNotFound:
		e.fix = "check that the object exists and that `msg_vpn_name` (" + vpn + ") is the Message VPN of the broker service"
	case e.Code == CodeAlreadyExists:
		e.fix = "the object exists already: import it instead of creating it"
	case e.Code == CodeInvalidParameter || e.Code == CodeMissingParameter || e.Code == CodeNotSupported:
		e.fix = "the broker refused a value of the request: correct the setting the description names"
	case e.Code == CodeParseError:
		e.fix = "the broker could not read the request; report this to the provider's maintainers"
	case e.Code == CodeNotAllowed:
		e.fix = "the broker's current state does not allow this request: change what the description names, then apply again"
	default:
		e.fix = "correct what the description names, then apply again"
	}
	return e
}

// logPath drops the query of path (it may hold a cursor).
func logPath(path string) string {
	for i := range len(path) {
		if path[i] == '?' {
			return path[:i]
		}
	}
	return path
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
