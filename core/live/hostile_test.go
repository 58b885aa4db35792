package live

import (
	"context"
	"errors"
	"strings"
	"testing"

	"toolscope/core/live/livetest"
)

// withEnv adds a variable to a stdio spec's environment.
func withEnv(spec Spec, name, value string) Spec {
	env := map[string]string{name: value}
	for k, v := range spec.Env {
		env[k] = v
	}
	spec.Env = env
	return spec
}

func TestStderrTailHidesEnvironmentValues(t *testing.T) {
	const secret = "tok-5e3r-9f1a"
	t.Run("in a failure", func(t *testing.T) {
		spec := withEnv(stdioSpec(t, livetest.Behaviour{ExitAtStart: 2, Stderr: "bad token " + secret}), "API_TOKEN", secret)
		_, err := Open(context.Background(), spec, testOptions(transport{}))
		var le *Error
		if !errors.As(err, &le) {
			t.Fatalf("Open: %v, want a *live.Error", err)
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(le.Stderr, secret) {
			t.Errorf("the error shows the environment value: %q (stderr %q)", err, le.Stderr)
		}
		if want := "server stderr: bad token [redacted]"; !strings.Contains(err.Error(), want) {
			t.Errorf("error %q, want it to contain %q", err, want)
		}
	})
	t.Run("in Stderr", func(t *testing.T) {
		spec := withEnv(stdioSpec(t, livetest.Behaviour{Stderr: "starting with " + secret}), "API_TOKEN", secret)
		s := openT(t, spec, testOptions(transport{}))
		if _, err := s.List(context.Background()); err != nil {
			t.Fatal(err)
		}
		s.Close() // the whole of stderr is read
		got := s.Stderr()
		if strings.Contains(got, secret) || !strings.Contains(got, "starting with [redacted]") {
			t.Errorf("Stderr() = %q, want the value redacted", got)
		}
	})
}
