// Package emulatorcontrol calls the control endpoints of a running SAP API
// emulator (internal/emulator), for the commands that replay messages on it.
package emulatorcontrol

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// URL returns the base URL of the control endpoints of the emulator at emulatorURL.
func URL(emulatorURL string) string {
	return strings.TrimRight(emulatorURL, "/") + "/emulator/v1"
}

// Call sends body with method to the control endpoint path below controlURL
// (see URL) and decodes the answer into out unless out is nil. An answer
// other than 2xx is an error that carries the emulator's text.
func Call(ctx context.Context, controlURL, method, path, body string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, controlURL+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer func() { _ = res.Body.Close() }()
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %s", method, path, res.Status, bytes.TrimSpace(data))
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: the answer is not the expected JSON: %w", method, path, err)
		}
	}
	return nil
}
