// Package fiximport computes the edits that let a suggested fix refer to a
// package: the name the file already imports it under, or a free name and
// the import to add.
package fiximport

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// File returns the file of pass that contains pos, or nil.
func File(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// Name returns the name under which code at pos in f can refer to the
// package path, and the edits that import it when f does not yet. It tries
// the names in order (the first is the package's own name; the others are
// aliases used when that name is taken, as "retry" is in code using
// avast/retry-go). ok is false when the package is imported blank or with a
// dot, is shadowed at pos, or no name is free. The import it adds joins the
// file's last import group.
func Name(pass *analysis.Pass, f *ast.File, path string, pos token.Pos, names ...string) (name string, edits []analysis.TextEdit, ok bool) {
	return lookup(pass, f, path, pos, false, names)
}

// NameGrouped is Name, except that the import it adds to a file that
// imports only standard-library packages starts a group of its own after
// theirs, as goimports would place it.
func NameGrouped(pass *analysis.Pass, f *ast.File, path string, pos token.Pos, names ...string) (name string, edits []analysis.TextEdit, ok bool) {
	return lookup(pass, f, path, pos, true, names)
}

func lookup(pass *analysis.Pass, f *ast.File, path string, pos token.Pos, group bool, names []string) (name string, edits []analysis.TextEdit, ok bool) {
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p != path {
			continue
		}
		name = names[0]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "_" || name == "." {
			return "", nil, false
		}
		if _, obj := pass.Pkg.Scope().Innermost(pos).LookupParent(name, pos); obj == nil {
			return "", nil, false
		} else if _, isPkg := obj.(*types.PkgName); !isPkg {
			return "", nil, false // shadowed at pos
		}
		return name, nil, true
	}
	for _, cand := range names {
		if free(pass, f, cand, pos) {
			return cand, importEdits(f, path, cand, cand == names[0], group), true
		}
	}
	return "", nil, false
}

// free reports whether name is neither declared in the file's scope chain at
// pos nor the name of another import of f.
func free(pass *analysis.Pass, f *ast.File, name string, pos token.Pos) bool {
	if sc := pass.Pkg.Scope().Innermost(pos); sc != nil {
		if _, obj := sc.LookupParent(name, pos); obj != nil {
			return false
		}
	}
	if pass.Pkg.Scope().Lookup(name) != nil {
		return false
	}
	for _, imp := range f.Imports {
		n := ""
		if imp.Name != nil {
			n = imp.Name.Name
		} else if pn, ok := pass.TypesInfo.Implicits[imp].(*types.PkgName); ok {
			n = pn.Name()
		}
		if n == name {
			return false
		}
	}
	return true
}

// importEdits returns the edits that import path into f, under name unless
// own; with group, an import after standard-library ones only starts a
// group of its own.
func importEdits(f *ast.File, path, name string, own, group bool) []analysis.TextEdit {
	spec := strconv.Quote(path)
	if !own {
		spec = name + " " + spec
	}
	var last *ast.GenDecl
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			last = gd
		}
	}
	switch {
	case last != nil && last.Rparen.IsValid():
		text := "\t" + spec + "\n"
		if group && !importsNonStd(f) {
			text = "\n" + text
		}
		return []analysis.TextEdit{{Pos: last.Rparen, End: last.Rparen, NewText: []byte(text)}}
	case last != nil:
		return []analysis.TextEdit{{Pos: last.End(), End: last.End(), NewText: []byte("\nimport " + spec)}}
	}
	return []analysis.TextEdit{{Pos: f.Name.End(), End: f.Name.End(), NewText: []byte("\n\nimport " + spec)}}
}

// importsNonStd reports whether f imports a package outside the standard
// library (its path's first element has a dot).
func importsNonStd(f *ast.File) bool {
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		first, _, _ := strings.Cut(path, "/")
		if strings.Contains(first, ".") {
			return true
		}
	}
	return false
}
