module github.com/idemlint/idemlint/runtime

go 1.23.0
