// Package gclplugin makes the idemlint suite a golangci-lint v2 module
// plugin named "idemlint". Importing it registers the plugin:
//
//	import _ "github.com/idemlint/idemlint/analyzers/gclplugin"
//
// golangci-lint then builds the suite from the linters.settings.custom.idemlint
// settings of its configuration file, whose keys are the json names of
// analyzers.Config ("disable", "retry-funcs", ...). Unknown keys and values
// of the wrong type are errors, so a misspelt setting never passes silently.
package gclplugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
)

// Name is the plugin's name: the key under linters.settings.custom and the
// linter name golangci-lint reports and //nolint directives use.
const Name = "idemlint"

func init() {
	register.Plugin(Name, New)
}

// New builds the plugin from the raw settings golangci-lint read from its
// configuration file. It rejects unknown keys, values of the wrong type and
// settings that analyzers.Config.Validate rejects.
func New(settings any) (register.LinterPlugin, error) {
	cfg, err := register.DecodeSettings[analyzers.Config](settings)
	if err != nil {
		return nil, settingsError(err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%s settings: %w", Name, err)
	}
	return &plugin{cfg: cfg}, nil
}

type plugin struct {
	cfg analyzers.Config
}

// BuildAnalyzers returns the suite's enabled checks. They keep a pointer to
// the plugin's configuration, which nothing changes after New.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return analyzers.New(&p.cfg), nil
}

// GetLoadMode asks for type information: every check needs it.
func (p *plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}

// settingsError turns a decoding error from register.DecodeSettings into one
// that names the offending key in the configuration file's terms.
func settingsError(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		if typeErr.Field == "" {
			return fmt.Errorf("%s settings: got %s, want a map with the keys %s", Name, article(typeErr.Value), strings.Join(Keys(), ", "))
		}
		if f, ok := field(typeErr.Field); ok && f.Type.Kind() == reflect.Slice && f.Type.Elem() == typeErr.Type {
			return fmt.Errorf("%s settings: key %q: got %s in the list, want %s", Name, typeErr.Field, article(typeErr.Value), describe(typeErr.Type))
		}
		return fmt.Errorf("%s settings: key %q: got %s, want %s", Name, typeErr.Field, article(typeErr.Value), describe(typeErr.Type))
	}
	// encoding/json reports an unknown field only as text: `json: unknown field "x"`.
	const unknown = `json: unknown field `
	msg := err.Error()
	if i := strings.Index(msg, unknown); i >= 0 {
		key := msg[i+len(unknown):]
		return fmt.Errorf("%s settings: unknown key %s (valid keys: %s)", Name, key, strings.Join(Keys(), ", "))
	}
	return fmt.Errorf("%s settings: %w", Name, err)
}

// Keys returns the setting keys the plugin accepts, in the order of
// analyzers.Config's fields.
func Keys() []string {
	var keys []string
	for f := range reflect.TypeFor[analyzers.Config]().Fields() {
		if key := jsonKey(f); key != "" {
			keys = append(keys, key)
		}
	}
	return keys
}

// field returns the analyzers.Config field whose setting key is key.
func field(key string) (reflect.StructField, bool) {
	for f := range reflect.TypeFor[analyzers.Config]().Fields() {
		if jsonKey(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// jsonKey returns f's setting key, or "" if f is not a setting.
func jsonKey(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if !f.IsExported() || name == "-" {
		return ""
	}
	return name
}

// describe names a Go type the way a YAML author thinks of it.
func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice:
		return "a list of " + strings.TrimPrefix(describe(t.Elem()), "a ") + "s"
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	default:
		return t.String()
	}
}

// article names an encoding/json value kind ("number", "array", ...) in
// YAML terms.
func article(kind string) string {
	switch kind {
	case "array":
		return "a list"
	case "object":
		return "a map"
	case "bool":
		return "a boolean"
	default:
		return "a " + kind
	}
}
