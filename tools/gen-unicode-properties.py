#!/usr/bin/env python3
"""Generates Sources/JSRegExp/UnicodePropertyData.swift: the code-point ranges of the Unicode
properties that RegExp `\\p{...}` accepts (General_Category, Script, Script_Extensions and the
binary properties of ECMAScript's table), and the simple case folding used by `/ui`.

Data source: the `regex` PyPI module (mrab-regex), whose compiled-in tables are the Unicode
Character Database of its release. ECMAScript's test262 expects Unicode 17.0.0
(test/built-ins/RegExp/property-escapes/generated/*.js headers); regex 2025.9.18 .. 2026.5.9
carry Unicode 17.0 (`pip install regex==2026.5.9`). Debian bookworm's unicode-data package
(/usr/share/unicode) is 15.0 and Python 3.11's unicodedata 14.0, both too old.
The one property regex lacks, Changes_When_NFKC_Casefolded, is taken from
DerivedNormalizationProps.txt when given (--ucd DIR, any version) and completed for code points
assigned later by Changes_When_Casefolded, Default_Ignorable_Code_Point or (with
`pip install unicodedata2==17.0.0`) a compatibility decomposition.

Names (canonical long names and aliases) come from Sources/JSSyntax/RegExp/
RegExpUnicodePropertyTables.swift, which the parser uses; every name listed there must be
known to the data source, or this script fails.

Encoding: each property is a sorted list of inclusive ranges [s0, e0, s1, e1, ...] stored as
deltas (s0, e0-s0, s1-e0, e1-s1, ...) in a string literal; each delta is written in base 32,
most significant digit first, non-final digits as chr(0x50 + d) ('P'...'o') and the final digit
as chr(0x30 + d) ('0'...'O'). The strings live in the binary's read-only data and are decoded
only when a pattern first names the property.

Usage: tools/gen-unicode-properties.py [--ucd /usr/share/unicode] [--check-test262 DIR]
"""
import argparse
import os
import re
import sys

import regex

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMES_FILE = os.path.join(ROOT, "Sources/JSSyntax/RegExp/RegExpUnicodePropertyTables.swift")
OUT = os.path.join(ROOT, "Sources/JSRegExp/UnicodePropertyData.swift")

ALL = "".join(chr(c) for c in range(0x110000))

GC_LEAVES = {
    "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll", "Titlecase_Letter": "Lt",
    "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Nonspacing_Mark": "Mn",
    "Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Decimal_Number": "Nd",
    "Letter_Number": "Nl", "Other_Number": "No", "Connector_Punctuation": "Pc",
    "Dash_Punctuation": "Pd", "Open_Punctuation": "Ps", "Close_Punctuation": "Pe",
    "Initial_Punctuation": "Pi", "Final_Punctuation": "Pf", "Other_Punctuation": "Po",
    "Math_Symbol": "Sm", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk",
    "Other_Symbol": "So", "Space_Separator": "Zs", "Line_Separator": "Zl",
    "Paragraph_Separator": "Zp", "Control": "Cc", "Format": "Cf", "Surrogate": "Cs",
    "Private_Use": "Co", "Unassigned": "Cn",
}
GC_GROUPS = {
    "Cased_Letter": ["Lu", "Ll", "Lt"], "Letter": ["Lu", "Ll", "Lt", "Lm", "Lo"],
    "Mark": ["Mn", "Mc", "Me"], "Number": ["Nd", "Nl", "No"],
    "Punctuation": ["Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"],
    "Symbol": ["Sm", "Sc", "Sk", "So"], "Separator": ["Zs", "Zl", "Zp"],
    "Other": ["Cc", "Cf", "Cs", "Co", "Cn"],
}


def rows(swift, name):
    m = re.search(r"static let %s: \[\[String\]\] = \[(.*?)\n    \]" % name, swift, re.S)
    return [re.findall(r'"([^"]+)"', r) for r in re.findall(r"\[([^\[\]]*)\]", m.group(1))]


def ranges_of(prop):
    return [(m.start(), m.end() - 1) for m in regex.finditer(r"\p{%s}+" % prop, ALL)]


def to_set(rs):
    s = set()
    for a, b in rs:
        s.update(range(a, b + 1))
    return s


def from_set(s):
    out = []
    for c in sorted(s):
        if out and out[-1][1] == c - 1:
            out[-1] = (out[-1][0], c)
        else:
            out.append((c, c))
    return out


def encode(rs):
    out = []
    prev = 0
    for a, b in rs:
        for v in (a - prev, b - a):
            digits = []
            while True:
                digits.append(v & 31)
                v >>= 5
                if v == 0:
                    break
            digits.reverse()
            out.extend(chr(0x50 + d) for d in digits[:-1])
            out.append(chr(0x30 + digits[-1]))
        prev = b
    return "".join(out)


def parse_ucd_property(path, prop):
    s = set()
    for line in open(path, encoding="utf-8"):
        line = line.split("#")[0].strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(";")]
        if len(fields) < 2 or fields[1] != prop:
            continue
        if ".." in fields[0]:
            a, b = fields[0].split("..")
            s.update(range(int(a, 16), int(b, 16) + 1))
        else:
            s.add(int(fields[0], 16))
    return s


def cwkcf(ucd):
    """Changes_When_NFKC_Casefolded: from DerivedNormalizationProps.txt (its version), plus the
    code points assigned since then that change when case folded, are default ignorable or have a
    compatibility decomposition (unicodedata2, when installed)."""
    cwcf = to_set(ranges_of("Changes_When_Casefolded")) | to_set(ranges_of("Default_Ignorable_Code_Point"))
    if not ucd:
        return from_set(cwcf)
    base = parse_ucd_property(os.path.join(ucd, "DerivedNormalizationProps.txt"), "Changes_When_NFKC_Casefolded")
    assigned_then = set()
    for line in open(os.path.join(ucd, "DerivedAge.txt"), encoding="utf-8"):
        line = line.split("#")[0].strip()
        if not line:
            continue
        cp = line.split(";")[0].strip()
        if ".." in cp:
            a, b = cp.split("..")
            assigned_then.update(range(int(a, 16), int(b, 16) + 1))
        else:
            assigned_then.add(int(cp, 16))
    new = cwcf - assigned_then
    try:
        import unicodedata2  # Unicode 17.0.0 with `pip install unicodedata2==17.0.0`
        for c in range(0x110000):
            if c not in assigned_then and unicodedata2.decomposition(chr(c)).startswith("<"):
                new.add(c)
    except ImportError:
        pass
    return from_set(base | new)


def simple_folding():
    """Simple case folding (scf) pairs c -> f, c != f: regex's fold_case with simple folding
    (flags IGNORECASE | UNICODE, not FULLCASE)."""
    from regex import _regex
    flags = regex.I | regex.U
    pairs = []
    for c in range(0x110000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        f = _regex.fold_case(flags, chr(c))
        if len(f) == 1 and ord(f) != c:
            pairs.append((c, ord(f)))
        elif c == 0x49:
            # regex leaves I unfolded (its Turkic handling); CaseFolding.txt's status C says i.
            pairs.append((c, 0x69))
    return pairs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ucd", default="/usr/share/unicode")
    ap.add_argument("--check-test262")
    args = ap.parse_args()
    ucd = args.ucd if os.path.exists(os.path.join(args.ucd, "DerivedNormalizationProps.txt")) else None

    swift = open(NAMES_FILE, encoding="utf-8").read()
    binary = [r[0] for r in rows(swift, "binaryRows")]
    scripts = [r[0] for r in rows(swift, "scriptRows")]
    gcs = [r[0] for r in rows(swift, "generalCategoryRows")]

    gc_data = {}
    for long_name, short in GC_LEAVES.items():
        gc_data[long_name] = ranges_of("gc=" + short)
    for g in gcs:
        if g not in GC_LEAVES and g not in GC_GROUPS:
            sys.exit("unknown General_Category value " + g)

    sc_data, scx_add, scx_remove, scx_full = {}, {}, {}, {}
    for s in scripts:
        sc = ranges_of("Script=" + s)
        scx = ranges_of("Script_Extensions=" + s)
        if not sc and s != "Katakana_Or_Hiragana":
            sys.exit("regex does not know Script=" + s)
        sc_data[s] = sc
        a, b = to_set(sc), to_set(scx)
        scx_add[s] = from_set(b - a)
        scx_remove[s] = from_set(a - b)
        scx_full[s] = scx

    bin_data = {}
    for p in binary:
        if p in ("Any", "ASCII", "Assigned"):
            continue
        if p == "Changes_When_NFKC_Casefolded":
            bin_data[p] = cwkcf(ucd)
            continue
        try:
            bin_data[p] = ranges_of(p)
        except regex.error:
            sys.exit("regex does not know the binary property " + p)
    bin_data["Assigned"] = from_set(set(range(0x110000)) - to_set(gc_data["Unassigned"]))

    folds = simple_folding()

    if args.check_test262:
        check(args.check_test262, gc_data, sc_data, scx_full, bin_data)

    out = []
    w = out.append
    w("// Generated by tools/gen-unicode-properties.py from the Unicode Character Database 17.0")
    w("// (through the `regex` Python module's tables; see the script). Do not edit.")
    w("//")
    w("// Each string is a list of inclusive code-point ranges, delta- and base-32-encoded; see")
    w("// `UnicodePropertyData.decode`. Nothing here is decoded before a pattern names a property.")
    w("")
    w("enum UnicodePropertyData {")

    def switch(fn, data, doc):
        w("    /// " + doc)
        w("    static func %s(_ name: String) -> StaticString? {" % fn)
        w("        switch name {")
        for k in sorted(data):
            w('        case "%s": return #"%s"#' % (k, encode(data[k])))
        w("        default: return nil")
        w("        }")
        w("    }")
        w("")

    switch("generalCategory", gc_data, "The 30 leaf values of General_Category, by long name.")
    w("    /// General_Category groups (`L`, `LC`, …) as unions of leaf values.")
    w("    static let generalCategoryGroups: [String: [String]] = [")
    inv = {v: k for k, v in GC_LEAVES.items()}
    for g in sorted(GC_GROUPS):
        w('        "%s": [%s],' % (g, ", ".join('"%s"' % inv[x] for x in GC_GROUPS[g])))
    w("    ]")
    w("")
    switch("script", sc_data, "Script values, by long name.")
    switch("scriptExtensionsAdded", {k: v for k, v in scx_add.items() if v},
           "Script_Extensions = (Script - removed) + added: the code points added.")
    switch("scriptExtensionsRemoved", {k: v for k, v in scx_remove.items() if v},
           "Script_Extensions = (Script - removed) + added: the code points removed.")
    switch("binary", bin_data, "Binary properties, by long name (`Any` and `ASCII` are computed).")
    # Simple case folding as (from, to) pairs grouped into runs with one delta.
    runs = []
    for c, f in folds:
        if runs and runs[-1][1] == c - 1 and runs[-1][2] == f - c and runs[-1][3] == 1:
            runs[-1][1] = c
        elif runs and runs[-1][1] == c - 2 and runs[-1][2] == f - c and (runs[-1][3] == 2 or runs[-1][0] == runs[-1][1]):
            runs[-1][1] = c
            runs[-1][3] = 2
        else:
            runs.append([c, c, f - c, 1])
    w("    /// Simple case folding (CaseFolding.txt, statuses C and S): runs (first, last, delta,")
    w("    /// step) — every `step`-th code point c from first to last folds to c + delta.")
    w("    static let simpleFoldingRuns: [Int32] = [")
    line = []
    for r in runs:
        line.append("0x%X, 0x%X, %d, %d," % (r[0], r[1], r[2], r[3]))
        if len(line) == 4:
            w("        " + " ".join(line))
            line = []
    if line:
        w("        " + " ".join(line))
    w("    ]")
    w("}")
    open(OUT, "w", encoding="utf-8").write("\n".join(out) + "\n")
    print("wrote", OUT, os.path.getsize(OUT), "bytes;", len(runs), "folding runs")


def check(root, gc_data, sc_data, scx_full, bin_data):
    """Compares the tables with test262's generated property-escape tests (a check only)."""
    d = os.path.join(root, "test/built-ins/RegExp/property-escapes/generated")
    bad = 0
    for fn in sorted(os.listdir(d)):
        if not fn.endswith(".js"):
            continue
        src = open(os.path.join(d, fn), encoding="utf-8").read()
        m = re.search(r"const matchSymbols = buildString\(\{\s*loneCodePoints: \[(.*?)\],\s*ranges: \[(.*?)\]\s*\}\);", src, re.S)
        if not m:
            continue
        want = set(int(x, 16) for x in re.findall(r"0x[0-9A-Fa-f]+", m.group(1)))
        for a, b in re.findall(r"\[(0x[0-9A-Fa-f]+), (0x[0-9A-Fa-f]+)\]", m.group(2)):
            want.update(range(int(a, 16), int(b, 16) + 1))
        name = fn[:-3]
        if name.startswith("General_Category_-_"):
            v = name[len("General_Category_-_"):]
            have = to_set(gc_data[v]) if v in gc_data else set().union(*[to_set(gc_data[k]) for k in gc_data if GC_LEAVES[k] in GC_GROUPS.get(v, [])])
        elif name.startswith("Script_-_"):
            have = to_set(sc_data.get(name[9:], []))
        elif name.startswith("Script_Extensions_-_"):
            have = to_set(scx_full.get(name[20:], []))
        elif name in bin_data:
            have = to_set(bin_data[name])
        else:
            continue
        if have != want:
            bad += 1
            print("MISMATCH %s: %d extra, %d missing" % (name, len(have - want), len(want - have)))
    print("test262 check:", bad, "mismatches")


if __name__ == "__main__":
    main()
