// Package lookalikes holds the differential test of the written look-alike
// corpus, testdata/lookalikes: correct code in the shapes of the bugs of
// testdata/recall and of the checks' test positives, over which the whole
// suite must report nothing but the findings known.txt lists. See
// testdata/lookalikes/README.md.
package lookalikes
