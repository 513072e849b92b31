//idemlint:file-ignore nojitter // want `//idemlint:file-ignore has no reason, so it silences nothing`
//idemlint:file-ignore unboundedretry no loop in this file is unbounded // want `//idemlint:file-ignore unboundedretry silences nothing; remove it`
//idemlint:file-ignore nojiter typo // want `//idemlint:file-ignore names unknown check nojiter`

package directives
