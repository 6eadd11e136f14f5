#!/usr/bin/env python3
"""Cases transcribed from WebKit's Tools/TestWebKitAPI/Tests/WebCore/ContentExtensions.cpp
(tests not yet in webkit-cases.jsonl), written as eval lines.

Usage: tools/contentblock/webkit-cases-extra.py >> Tests/ContentBlockerTests/Fixtures/webkit-cases.jsonl
Each test: (name, rules, [(url, mainDocumentURL or None, resourceType, expected actions)]);
mainDocumentRequest(url) is (url, None): the main document is the URL itself, top-document.
"""
import json

B, C, CSS, IGN = "block", "block-cookies", "css-display-none", "ignore-previous-rules"

def rule(f, t=B, **trigger):
    r = {"action": {"type": t}, "trigger": {"url-filter": f}}
    r["trigger"].update({k.replace("_", "-"): v for k, v in trigger.items()})
    return r

TESTS = [
    ("SingleCharacter ^z", [rule("^z")], [
        ("http://webkit.org/", None, "top-document", []),
        ("zttp://webkit.org/", None, "top-document", [B])]),
    ("SingleCharacter y", [rule("y")], [
        ("http://webkit.org/", None, "top-document", []),
        ("http://webkit.org/ywebkit", None, "top-document", [B])]),
    ("SingleCharacterDisjunction anchored", [rule("^z"), rule("^c")], [
        ("http://webkit.org/", None, "top-document", []),
        ("bttp://webkit.org/", None, "top-document", []),
        ("cttp://webkit.org/", None, "top-document", [B]),
        ("dttp://webkit.org/", None, "top-document", []),
        ("zttp://webkit.org/", None, "top-document", [B])]),
    ("SingleCharacterDisjunction search", [rule("x"), rule("y")], [
        ("http://webkit.org/", None, "top-document", []),
        ("http://webkit.org/dwebkit", None, "top-document", []),
        ("http://webkit.org/xwebkit", None, "top-document", [B]),
        ("http://webkit.org/ywebkit", None, "top-document", [B]),
        ("http://webkit.org/zwebkit", None, "top-document", [])]),
    ("EmptyGroups", [rule("^http://webkit\\.org/foo()bar"), rule("^http://webkit\\.org/((me)()(too))")], [
        ("http://webkit.org/foo", None, "top-document", []),
        ("http://webkit.org/bar", None, "top-document", []),
        ("http://webkit.org/foobar", None, "top-document", [B]),
        ("http://webkit.org/me", None, "top-document", []),
        ("http://webkit.org/too", None, "top-document", []),
        ("http://webkit.org/metoo", None, "top-document", [B]),
        ("http://webkit.org/foome", None, "top-document", []),
        ("http://webkit.org/foomebar", None, "top-document", []),
        ("http://webkit.org/mefoo", None, "top-document", []),
        ("http://webkit.org/mefootoo", None, "top-document", [])]),
    ("QuantifiedEmptyGroups", [rule("^http://webkit\\.org/foo()+bar"), rule("^http://webkit\\.org/(()*()?(target)()+)")], [
        ("http://webkit.org/foo", None, "top-document", []),
        ("http://webkit.org/bar", None, "top-document", []),
        ("http://webkit.org/foobar", None, "top-document", [B]),
        ("http://webkit.org/me", None, "top-document", []),
        ("http://webkit.org/too", None, "top-document", []),
        ("http://webkit.org/target", None, "top-document", [B]),
        ("http://webkit.org/foome", None, "top-document", []),
        ("http://webkit.org/foomebar", None, "top-document", []),
        ("http://webkit.org/mefoo", None, "top-document", []),
        ("http://webkit.org/mefootoo", None, "top-document", [])]),
    ("DotDoesNotIncludeEndOfLine", [rule("https://webkit\\.org/.")], [
        ("https://webkit.org/foobar", None, "top-document", [B]),
        ("https://webkit.org/", None, "top-document", []),
        ("https://webkit.org/A", None, "top-document", [B]),
        ("https://webkit.org/z", None, "top-document", [B])]),
    ("UndistinguishableActionInsidePrefixTree", [rule("prefix"), rule("prefixsuffix")], [
        ("http://webkit.org/", None, "top-document", []),
        ("http://prefix.org/", None, "top-document", [B]),
        ("http://webkit.org/prefix", None, "top-document", [B]),
        ("http://webkit.org/aaaprefixaaa", None, "top-document", [B]),
        ("http://prefixsuffix.org/", None, "top-document", [B]),
        ("http://webkit.org/prefixsuffix", None, "top-document", [B]),
        ("http://webkit.org/bbbprefixsuffixbbb", None, "top-document", [B]),
        ("http://suffix.org/", None, "top-document", []),
        ("http://webkit.org/suffix", None, "top-document", [])]),
    ("DistinguishableActionInsidePrefixTree", [rule("prefix"), rule("prefixsuffix", C)], [
        ("http://webkit.org/", None, "top-document", []),
        ("http://prefix.org/", None, "top-document", [B]),
        ("http://webkit.org/prefix", None, "top-document", [B]),
        ("http://webkit.org/aaaprefixaaa", None, "top-document", [B]),
        ("http://prefixsuffix.org/", None, "top-document", [C, B]),
        ("http://webkit.org/prefixsuffix", None, "top-document", [C, B]),
        ("http://webkit.org/bbbprefixsuffixbbb", None, "top-document", [C, B]),
        ("http://suffix.org/", None, "top-document", []),
        ("http://webkit.org/suffix", None, "top-document", [])]),
    ("DistinguishablePrefixAreNotMerged", [rule("foo\\.org"), rule("bar\\.org")], [
        ("http://webkit.org/", None, "top-document", []),
        ("http://foo.org/", None, "top-document", [B]),
        ("http://bar.org/", None, "top-document", [B])]
        + [("http://%s.org/" % h, None, "top-document", []) for h in
           "foor fooar fooba foob foor foar foba fob barf barfo baroo baro baf bafo baoo bao".split()]
        + [("http://%s/" % h, None, "top-document", [B]) for h in
           "foo.orgbar.org oo.orgbar.org o.orgbar.org .orgbar.org rgbar.org gbar.org foo.orgar.org foo.orgr.org "
           "foo.org.org foo.orgorg foo.orgrg foo.orgg".split()]),
]

# DomainTriggers: if-/unless-domain with and without "*", on the domain and on subdomains.
def domains(name, key, domain, expectations):
    hosts = ["webkit.org/test.htm", "bugs.webkit.org/test.htm", "webkit.org/test.html", "bugs.webkit.org/test.html",
             "sub2.sub1.webkit.org/test.html", "not_webkit.org/test.htm", "webkit.organization/test.htm",
             "not_webkit.org/test.html", "webkit.organization/test.html", "example.com/.webkit.org/in/path/test.html",
             "sub1.webkit.org/test.html"]
    TESTS.append(("DomainTriggers " + name, [rule("test\\.html", **{key: [domain]})],
                  [("http://" + h, None, "top-document", [B] if e else []) for h, e in zip(hosts, expectations) if e is not None]))

N = None
domains("if webkit.org", "if_domain", "webkit.org", [0, 0, 1, 0, 0, 0, 0, 0, 0, N, N])
domains("unless webkit.org", "unless_domain", "webkit.org", [0, 0, 0, 1, 1, 0, 0, 1, 1, N, N])
domains("if *webkit.org", "if_domain", "*webkit.org", [0, 0, 1, 1, 1, 0, 0, 0, 0, 0, N])
domains("unless *webkit.org", "unless_domain", "*webkit.org", [0, 0, 0, 0, 0, 0, 0, 1, 1, N, N])
domains("if sub1.webkit.org", "if_domain", "sub1.webkit.org", [N, N, 0, 0, 0, N, N, N, N, N, 1])
domains("if *sub1.webkit.org", "if_domain", "*sub1.webkit.org", [N, N, 0, 0, 1, N, N, N, N, N, 1])
domains("unless sub1.webkit.org", "unless_domain", "sub1.webkit.org", [N, N, 1, 1, 1, N, N, N, N, N, 0])
domains("unless *sub1.webkit.org", "unless_domain", "*sub1.webkit.org", [N, N, 1, 1, 0, N, N, N, N, N, 0])

# DomainTriggersAlongMergedActions
T, I, S = "top-document", "image", "script"
merged = [rule("test\\.html", C), rule("test\\.html", B, if_domain=["webkit.org"]),
          {"action": {"type": CSS, "selector": "*"}, "trigger": {"url-filter": "trigger-on-scripts\\.html", "resource-type": ["script"]}},
          rule("ignore-previous", IGN, resource_type=["image"]), rule("except-this", C)]
E, IP = "except-this-ignore-previous-trigger-on-scripts.html", "ignore-previous-trigger-on-scripts.html"
TESTS.append(("DomainTriggersAlongMergedActions", merged, [(u, None, t, e) for u, t, e in [
    ("http://webkit.org/test.htm", T, []),
    ("http://webkit.org/test.html", T, [B, C]),
    ("http://notwebkit.org/test.html", T, [C]),
    ("http://notwebkit.org/trigger-on-scripts.html", T, []),
    ("http://webkit.org/trigger-on-scripts.html", T, []),
    ("http://notwebkit.org/trigger-on-scripts.html", S, [CSS]),
    ("http://webkit.org/trigger-on-scripts.html", S, [CSS]),
    ("http://notwebkit.org/trigger-on-scripts.html.test.html", S, [CSS, C]),
    ("http://webkit.org/trigger-on-scripts.html.test.html", S, [CSS, B, C]),
    ("http://notwebkit.org/" + IP, T, []),
    ("http://webkit.org/" + IP, T, []),
    ("http://notwebkit.org/" + IP, S, [CSS]),
    ("http://webkit.org/" + IP, S, [CSS]),
    ("http://notwebkit.org/" + IP + ".test.html", S, [CSS, C]),
    ("http://webkit.org/" + IP + ".test.html", S, [CSS, B, C]),
    ("http://notwebkit.org/" + IP, I, []),
    ("http://webkit.org/" + IP, I, []),
    ("http://notwebkit.org/" + IP + ".test.html", I, []),
    ("http://webkit.org/" + IP + ".test.html", I, []),
    ("http://notwebkit.org/" + E, T, [C]),
    ("http://webkit.org/" + E, T, [C]),
    ("http://notwebkit.org/" + E + ".test.html", T, [C, C]),
    ("http://webkit.org/" + E + ".test.html", T, [C, B, C]),
    ("http://notwebkit.org/" + E, I, [C]),
    ("http://webkit.org/" + E, I, [C]),
    ("http://notwebkit.org/" + E + ".test.html", I, [C]),
    ("http://webkit.org/" + E + ".test.html", I, [C]),
    ("http://notwebkit.org/" + E, S, [C, CSS]),
    ("http://webkit.org/" + E, S, [C, CSS]),
    ("http://notwebkit.org/" + E + ".test.html", S, [C, CSS, C]),
    ("http://webkit.org/" + E + ".test.html", S, [C, CSS, B, C])]]))

# TopURL (WebKit's): if-top-url / unless-top-url, matching everything, mixed.
def top(name, rules, cases):
    TESTS.append(("TopURL " + name, rules, [(u, m, t, e) for u, m, t, e in cases]))
top_cases = [
    ("http://webkit.org/test.html", None, 1), ("http://webkit.org/test.not_html", None, None),
    ("http://WEBKIT.org/test.html", None, 1), ("http://webkit.org/TEST.html", None, 1),
    ("http://web__kit.org/test.html", None, 1), ("http://webk__it.org/test.html", None, 0),
    ("http://web__kit.org/test.not_html", None, None), ("http://not_webkit.org/test.html", None, 0),
    ("http://not_webkit.org/test.html", "http://webkit.org/not_test.html", 1),
    ("http://not_webkit.org/test.html", "http://not_webkit.org/not_test.html", 0),
    ("http://webkit.org/test.html", "http://not_webkit.org/not_test.html", 0),
    ("http://webkit.org/test.html", "http://not_webkit.org/test.html", 0),
    ("http://webkit.org/test.html", "http://webkit.org/test.html", 1),
    ("http://webkit.org/test.html", "http://example.com/#http://webkit.org/test.html", 0),
    ("http://example.com/#http://webkit.org/test.html", "http://webkit.org/test.html", 1)]
top("if-top-url", [rule("test\\.html", if_top_url=["^http://web.*kit.org"])],
    [(u, m, T, [B] if e == 1 else []) for u, m, e in top_cases])
top("unless-top-url", [rule("test\\.html", unless_top_url=["^http://web.*kit.org"])],
    [(u, m, T, [B] if e == 0 else []) for u, m, e in top_cases])
top("if-top-url .*", [rule("test\\.html", if_top_url=[".*"])], [
    ("http://webkit.org/test.html", None, T, [B]), ("http://webkit.org/test.not_html", None, T, []),
    ("http://not_webkit.org/test.html", None, T, [B])])
top("unless-top-url .*", [rule("test\\.html", unless_top_url=[".*"])], [
    ("http://webkit.org/test.html", None, T, []), ("http://webkit.org/test.not_html", None, T, []),
    ("http://not_webkit.org/test.html", None, T, [])])
top("mixed", [rule("test\\.html", if_top_url=["^http://web.*kit.org"]),
              rule("test\\.html", C, resource_type=["document"], unless_top_url=["^http://web.*kit.org"])], [
    ("http://webkit.org/test.html", None, T, [B]), ("http://not_webkit.org/test.html", None, T, [C]),
    ("http://webkit.org/test.html", "http://not_webkit.org", T, [C])])

top("case-sensitive", [rule("test\\.html", if_top_url=["^http://web.*kit.org/test"], top_url_filter_is_case_sensitive=True)], [
    ("http://webkit.org/test.html", None, T, [B]), ("http://WEBKIT.org/test.html", None, T, [B]),
    ("http://webkit.org/TEST.html", None, T, [])])
top("case-insensitive", [rule("test\\.html", if_top_url=["^http://web.*kit.org/test"])], [
    ("http://webkit.org/test.html", None, T, [B]), ("http://webkit.org/TEST.html", None, T, [B])])
top("mixed image", [rule("test\\.html", if_top_url=["^http://web.*kit.org"]),
                    rule("test\\.html", C, resource_type=["document"], unless_top_url=["^http://web.*kit.org"])], [
    ("http://webkit.org/test.html", "http://not_webkit.org", I, [])])

# TermsKnownToMatchAnything
TESTS.append(("TermsKnownToMatchAnything",
    [rule(f) for f in ["^pre1.*post1$", "^pre2(.*)post2$", "^pre3(.*)?post3$", "^pre4(.*)+post4$", "^pre5(.*)*post5$",
                       "^pre6(.)*post6$", "^pre7(.+)*post7$", "^pre8(.?)*post8$", "^pre9(.+)?post9$", "^pre0(.?)+post0$"]],
    [("pre%d://webkit.org/post%d" % (i, i), None, T, [B]) for i in range(10)]
    + [("pre%d://webkit.org/post%d" % (i, (i + 1) % 10), None, T, []) for i in range(10)]))

# TrailingDotStar (the first requests)
TESTS.append(("TrailingDotStar", [rule("foo.*$"), rule("bar(.*)$")], [
    ("https://webkit.org/", None, T, []), ("foo://webkit.org/", None, T, [B]), ("https://foo.org/", None, T, [B]),
    ("https://webkit.foo/", None, T, [B])]))

TESTS.append(("TrailingDotStar bar", [rule("foo.*$"), rule("bar(.*)$")], [
    ("bar://webkit.org/", None, T, [B]), ("https://bar.org/", None, T, [B]), ("https://webkit.bar/", None, T, [B]),
    ("https://webkit.org/bar", None, T, [B])]))
TESTS.append(("TrailingTermsCarryingNoData", [rule("foob?a?r?"), rule("bazo(ok)?a?$"), rule("cats*$")], [
    (u, None, T, e) for u, e in [
        ("https://webkit.org/", []), ("https://webkit.org/foo", [B]), ("https://webkit.org/foob", [B]),
        ("https://webkit.org/fooc", [B]), ("https://webkit.org/fooba", [B]), ("https://webkit.org/foobar", [B]),
        ("https://webkit.org/foobar-stuff", [B]), ("https://webkit.org/baz", []), ("https://webkit.org/bazo", [B]),
        ("https://webkit.org/bazoa", [B]), ("https://webkit.org/bazob", []), ("https://webkit.org/bazoo", []),
        ("https://webkit.org/bazook", [B]), ("https://webkit.org/bazookb", []), ("https://webkit.org/bazooka", [B]),
        ("https://webkit.org/bazookaa", []), ("https://cat.org/", []), ("https://cats.org/", []),
        ("https://webkit.org/cat", [B]), ("https://webkit.org/cats", [B]), ("https://webkit.org/catss", [B]),
        ("https://webkit.org/catsss", [B]), ("https://webkit.org/catso", [])]]))
TESTS.append(("UselessTermsMatchingEverythingAreEliminated",
    [rule(f) for f in [".*web", "(.*)web", "(.)*web", "(.+)*web", "(.?)*web", "(.+)?web", "(.?)+web"]], [
    ("http://theweb.com/", None, T, [B]), ("http://example.com/wweb", None, T, [B]), ("http://example.com/weeb", None, T, [])]))
TESTS.append(("LoadType (WebKit)", [rule("webkit.org", load_type=["third-party"]), rule("whatwg.org", load_type=["first-party"]),
                           rule("alwaysblock.pdf")], [
    ("http://webkit.org", None, T, []), ("http://webkit.org", "http://not_webkit.org", T, [B]),
    ("http://whatwg.org", None, T, [B]), ("http://whatwg.org", "http://not_whatwg.org", T, []),
    ("http://foobar.org/alwaysblock.pdf", None, T, [B]),
    ("http://foobar.org/alwaysblock.pdf", "http://not_foobar.org/alwaysblock.pdf", T, [B])]))
TESTS.append(("ResourceType (WebKit)", [rule("block_all_types.org", resource_type=["document", "image", "style-sheet", "script", "font", "raw",
                                                                          "svg-document", "media", "popup"]),
                               rule("block_only_images", resource_type=["image"])],
    [("http://block_all_types.org", None, t, [B]) for t in
     ["top-document", "image", "style-sheet", "script", "font", "other", "svg-document", "media", "popup"]]
    + [("http://block_only_images.org", None, "image", [B]), ("http://block_only_images.org", None, T, [])]))
TESTS.append(("ResourceAndLoadType", [rule("BlockOnlyIfThirdPartyAndScript", resource_type=["script"], load_type=["third-party"])], [
    ("http://webkit.org/BlockOnlyIfThirdPartyAndScript.js", "http://webkit.org", "script", []),
    ("http://webkit.org/BlockOnlyIfThirdPartyAndScript.png", "http://not_webkit.org", "image", []),
    ("http://webkit.org/BlockOnlyIfThirdPartyAndScript.js", "http://not_webkit.org", "script", [B])]))
TESTS.append(("ResourceOrLoadTypeMatchingEverything", [rule(".*", resource_type=["image"]), rule(".*", C, load_type=["third-party"]),
                                                       rule(".*", IGN, load_type=["first-party"])], [
    ("http://webkit.org", None, T, []), ("http://webkit.org", "http://not_webkit.org", T, [C]),
    ("http://webkit.org", "http://not_webkit.org", "image", [C, B])]))
wide = []
for c1 in map(chr, range(ord("A"), ord("Z") + 1)):
    for c2 in "ABC":
        for c3 in "ABC":
            name = c1 + c2 + c3
            t = {"url-filter": ".*" + name, "url-filter-is-case-sensitive": True}
            if (ord(c1) + ord(c2) + ord(c3)) % 2 == 0:
                wide.append({"action": {"type": IGN}, "trigger": t})
            else:
                wide.append({"action": {"type": CSS, "selector": name}, "trigger": t})
TESTS.append(("WideNFA", wide, [
    ("http://webkit.org/AAA", None, T, [CSS]), ("http://webkit.org/YAA", None, T, [CSS]), ("http://webkit.org/ZAA", None, T, []),
    ("http://webkit.org/LAA/AAA", None, T, []), ("http://webkit.org/LAA/MAA", None, T, [CSS]), ("http://webkit.org/", None, T, [])]))

# The global style sheet and the rules kept out of it (WebKit's backend1-6 of that test).
hidden = {"type": CSS, "selector": ".hidden"}
def hid(**trigger):
    t = {"url-filter": ".*"}
    t.update({k.replace("_", "-"): v for k, v in trigger.items()})
    return {"action": dict(hidden), "trigger": t}
TESTS.append(("GlobalStyleSheet .*", [hid()], [("http://webkit.org", None, T, [])]))
TESTS.append(("GlobalStyleSheet if-domain", [hid(if_domain=["webkit.org"])], [
    ("http://webkit.org", None, T, [CSS]), ("http://w3c.org", None, T, [])]))
TESTS.append(("GlobalStyleSheet unless-domain", [hid(unless_domain=["webkit.org"])], [
    ("http://webkit.org", None, T, []), ("http://w3c.org", None, T, [CSS])]))
TESTS.append(("GlobalStyleSheet third-party", [hid(load_type=["third-party"])], [
    ("http://webkit.org", None, T, []), ("http://not_webkit.org", "http://webkit.org", T, [CSS])]))
TESTS.append(("GlobalStyleSheet after ignore-previous-rules", [rule(".*", IGN), hid()], [("http://webkit.org", None, T, [CSS])]))
b6 = [rule(".*", B, if_domain=["webkit.org", "*w3c.org"], resource_type=["document", "script"]),
      rule("ignore", IGN, if_domain=["*webkit.org", "w3c.org"]),
      rule(".*", C, unless_domain=["webkit.org", "whatwg.org"], resource_type=["script", "image"], load_type=["third-party"])]
TESTS.append(("DomainsAndFlagsMatchingEverything", b6, [(u, m, t, e) for u, m, t, e in [
    ("http://webkit.org", None, T, [B]), ("http://w3c.org", None, T, [B]), ("http://whatwg.org", None, T, []),
    ("http://sub.webkit.org", None, T, []), ("http://sub.w3c.org", None, T, [B]), ("http://sub.whatwg.org", None, T, []),
    ("http://webkit.org/ignore", None, T, []), ("http://w3c.org/ignore", None, T, []), ("http://whatwg.org/ignore", None, T, []),
    ("http://sub.webkit.org/ignore", None, T, []), ("http://sub.w3c.org/ignore", None, T, [B]),
    ("http://sub.whatwg.org/ignore", None, T, []),
    ("http://example.com/image.png", "http://webkit.org/", I, []),
    ("http://example.com/image.png", "http://w3c.org/", I, [C]),
    ("http://example.com/doc.html", "http://webkit.org/", T, [B]),
    ("http://example.com/script.js", "http://webkit.org/", S, [B]),
    ("http://example.com/script.js", "http://w3c.org/", S, [C, B]),
    ("http://example.com/script.js", "http://example.com/", S, []),
    ("http://example.com/ignore/image.png", "http://webkit.org/", I, []),
    ("http://example.com/ignore/image.png", "http://example.com/", I, []),
    ("http://example.com/ignore/image.png", "http://example.org/", I, [C]),
    ("http://example.com/doc.html", "http://example.org/", T, []),
    ("http://example.com/", "http://example.com/", "font", []),
    ("http://example.com/ignore", "http://webkit.org/", I, []),
    ("http://example.com/ignore", "http://webkit.org/", "font", []),
    ("http://example.com/", "http://example.com/", S, []),
    ("http://example.com/ignore", "http://example.com/", S, [])]]))

TESTS.append(("StrictPrefixSeparatedMachines1", [rule("^.*foo"), rule("bar$"), rule("^[ab]+bang")], [
    (u, None, T, e) for u, e in [("http://webkit.org/foo", [B]), ("foo://webkit.org/bar", [B]), ("http://webkit.org/bar", [B]),
                                 ("bar://webkit.org/bar", [B]), ("abang://webkit.org/", [B]), ("bbang://webkit.org/", [B]),
                                 ("cbang://webkit.org/", []), ("http://webkit.org/bang", []), ("bang://webkit.org/", [])]]))
TESTS.append(("StrictPrefixSeparatedMachines2", [rule("^foo"), rule("^.*[a-c]+bar"), rule("^webkit:"), rule("[a-c]+b+oom")], [
    (u, None, T, e) for u, e in [("http://webkit.org/", []), ("foo://webkit.org/", [B]), ("webkit://webkit.org/", [B]),
                                 ("http://bar.org/", []), ("http://abar.org/", [B]), ("http://bbar.org/", [B]),
                                 ("http://cbar.org/", [B]), ("http://abcbar.org/", [B]), ("http://dbar.org/", [])]]))
TESTS.append(("StrictPrefixSeparatedMachines3", [rule("A*D"), rule("A*BA+", IGN), rule("A*BC", "make-https")], [
    (u, None, T, e) for u, e in [("http://webkit.org/D", [B]), ("http://webkit.org/AAD", [B]), ("http://webkit.org/AB", []),
                                 ("http://webkit.org/ABA", []), ("http://webkit.org/ABAD", []),
                                 ("http://webkit.org/BC", ["make-https"]), ("http://webkit.org/ABC", ["make-https"]),
                                 ("http://webkit.org/ABABC", ["make-https"]), ("http://webkit.org/ABABCAD", ["make-https"]),
                                 ("http://webkit.org/ABCAD", ["make-https", B])]]))

TESTS.append(("MinimizingWithMoreFinalStatesThanNonFinalStates", [rule("^h[a-z://]+"), rule("^http://foo.com/"), rule("^http://bar.com/")], [
    (u, None, T, e) for u, e in [("http://foo.com/", [B]), ("http://bar.com/", [B]), ("attp://foo.com/", []), ("attp://bar.com/", []),
                                 ("http://webkit.org/", [B]), ("https://webkit.org/", [B]), ("bttp://webkit.org/", []),
                                 ("bttps://webkit.org/", []), ("http://webkit.org/b", [B]), ("https://webkit.org/b", [B]),
                                 ("cttp://webkit.org/B", []), ("cttps://webkit.org/B", [])]]))
TESTS.append(("StatesWithDifferentActionsAreNotUnified1", [rule("^http://www.webkit.org/"), rule("^https://www.webkit.org/", C),
                                                           rule("^attps://www.webkit.org/", C)], [
    (u, None, T, e) for u, e in [("http://www.webkit.org/", [B]), ("https://www.webkit.org/", [C]), ("attps://www.webkit.org/", [C]),
                                 ("http://www.webkit.org/a", [B]), ("https://www.webkit.org/B", [C]), ("attps://www.webkit.org/c", [C]),
                                 ("http://www.whatwg.org/", []), ("https://www.whatwg.org/", []), ("attps://www.whatwg.org/", [])]]))
TESTS.append(("StatesWithDifferentActionsAreNotUnified2", [rule("^http://www.webkit.org/"), rule("^https://www.webkit.org/", C),
    {"action": {"type": CSS, "selector": "#foo"}, "trigger": {"url-filter": "^https://www.webkit.org/"}}], [
    (u, None, T, e) for u, e in [("http://www.webkit.org/", [B]), ("https://www.webkit.org/", [CSS, C]),
                                 ("https://www.whatwg.org/", []), ("attps://www.whatwg.org/", [])]]))

def scheme_cases(name, filters, blocked, allowed):
    TESTS.append((name, [rule(f) for f in filters],
                  [(u + "://www.webkit.org/", None, T, [B]) for u in blocked] + [(u + "://www.webkit.org/", None, T, []) for u in allowed]))
scheme_cases("FallbackTransitionsWithDifferentiatorDoNotMerge1", ["^a.a", "^b.a", "^bac", "^bbc", "^BCC"],
             ["aza", "bza", "bac", "bbc", "bcc"], ["aac", "abc", "acc", "bzc"])
scheme_cases("FallbackTransitionsWithDifferentiatorDoNotMerge2", ["^bac", "^bbc", "^BCC", "^a.a", "^b.a"],
             ["aza", "bza", "bac", "bbc", "bcc"], ["aac", "abc", "acc", "bzc"])
scheme_cases("FallbackTransitionsWithDifferentiatorDoNotMerge3", ["^a.c", "^b.c", "^baa", "^bba", "^BCA"],
             ["azc", "bzc", "baa", "bba", "bca"], ["aaa", "aba", "aca", "bza"])
scheme_cases("FallbackTransitionsWithDifferentiatorDoNotMerge4", ["^baa", "^bba", "^BCA", "^a.c", "^b.c"],
             ["azc", "bzc", "baa", "bba", "bca"], ["aaa", "aba", "aca", "bza"])
scheme_cases("FallbackTransitionsToOtherNodeInSameGroupDoesNotDifferentiateGroup", ["^aac", "^a.c", "^b.c"],
             ["aac", "abc", "bac"], ["aaa", "aca", "baa"])
scheme_cases("SimpleFallBackTransitionDifferentiator1", ["^a.bc.de", "^a.bd.ef"], ["abbccde", "aabcdde", "aabddef"], ["abcde", "abdef"])
scheme_cases("SimpleFallBackTransitionDifferentiator2", ["^cb.", "^db.b"], ["cba", "cbb", "dbab", "dbxb"], ["cca", "dddd", "bbbb"])

def overlap(name, rules, cases):
    TESTS.append((name, rules, [(u, None, T, e) for u, e in cases]))
overlap("RangeOverlapCase1 match", [rule("^[a-m]"), rule("^[c-e]", IGN)],
        [(c + "://www.webkit.org/", e) for c, e in [("a", [B]), ("b", [B]), ("c", []), ("d", []), ("e", []), ("f", [B]), ("m", [B]), ("n", [])]])
overlap("RangeOverlapCase1 search", [rule("[a-m]"), rule("[c-e]", IGN)],
        [("zzz://www.%s.xxx/" % c, e) for c, e in [("a", [B]), ("b", [B]), ("c", []), ("d", []), ("e", []), ("f", [B]), ("m", [B]), ("n", [])]])
overlap("RangeOverlapCase2 match", [rule("^[a-m]"), rule("^b", IGN)],
        [(c + "://www.webkit.org/", e) for c, e in [("a", [B]), ("b", []), ("c", [B]), ("m", [B]), ("n", [])]])
overlap("RangeOverlapCase2 search", [rule("[a-m]"), rule("l", IGN)],
        [("zzz://www.%s.xxx/" % c, e) for c, e in [("a", [B]), ("k", [B]), ("l", []), ("m", [B]), ("n", [])]])
hiddenCSS = lambda f: {"action": {"type": CSS, "selector": ".hidden"}, "trigger": {"url-filter": f}}
overlap("RangeOverlapCase3 match", [rule("^[b-d]"), hiddenCSS("^[a-m]")],
        [(c + "://www.webkit.org/", e) for c, e in [("a", [CSS]), ("b", [CSS, B]), ("d", [CSS, B]), ("e", [CSS]), ("m", [CSS]), ("n", [])]])
overlap("RangeOverlapCase3 search", [rule("[b-d]"), hiddenCSS("[a-m]")],
        [("zzz://www.%s.xxx/" % c, e) for c, e in [("a", [CSS]), ("b", [CSS, B]), ("d", [CSS, B]), ("e", [CSS]), ("m", [CSS]), ("n", [])]])

# RangeOverlapCase4-12: a block filter and a css-display-none filter over overlapping ranges;
# WebKit's expectations are css-display-none where the second range holds, then block where the
# first does (checked against the listed cases).
def letters(r):
    return set(chr(c) for c in range(ord(r[0]), ord(r[-1]) + 1))
for n, block, css, tested in [(4, "l", "a-m", "aklmn"), (5, "a-e", "e-h", "adefhi"), (6, "e", "e-h", "adefhi"),
                              (7, "a-e", "e", "adef"), (8, "e-h", "a-e", "adefhi"), (9, "e", "a-e", "adef"),
                              (10, "e-h", "e", "adefhi"), (11, "e-g", "d-f", "cdefgh"), (12, "e-g", "d-g", "cdefgh")]:
    B_, C_ = letters(block), letters(css)
    wrap = lambda r: r if len(r) == 1 else "[" + r + "]"
    expect = lambda ch: ([CSS] if ch in C_ else []) + ([B] if ch in B_ else [])
    overlap("RangeOverlapCase%d match" % n, [rule("^" + wrap(block)), hiddenCSS("^" + wrap(css))],
            [(ch + "://www.webkit.org/", expect(ch)) for ch in tested])
    overlap("RangeOverlapCase%d search" % n, [rule(wrap(block)), hiddenCSS(wrap(css))],
            [("zzz://www.%s.xxx/" % ch, expect(ch)) for ch in tested])

for n, block, css, tested in [(15, "c-f", "c-f", "abcdefg"), (16, "c", "c", "abcde")]:
    B_, C_ = letters(block), letters(css)
    wrap = lambda r: r if len(r) == 1 else "[" + r + "]"
    expect = lambda ch: ([CSS] if ch in C_ else []) + ([B] if ch in B_ else [])
    overlap("RangeOverlapCase%d match" % n, [rule("^" + wrap(block)), hiddenCSS("^" + wrap(css))],
            [(ch + "://www.webkit.org/", expect(ch)) for ch in tested])
    overlap("RangeOverlapCase%d search" % n, [rule(wrap(block)), hiddenCSS(wrap(css))],
            [("zzz://www.%s.xxx/" % ch, expect(ch)) for ch in tested])

quantified = [("aayyy", []), ("abyyy", []), ("acyyy", []), ("adyyy", []), ("aeyyy", []), ("afyyy", []), ("agyyy", []),
              ("ahyyy", []), ("aiyyy", []), ("ajyyy", []), ("akyyy", []),
              ("byyy", []), ("bayyy", []), ("bbyyy", []), ("bcyyy", []), ("bdyyy", []), ("beyyy", []), ("bfyyy", []),
              ("bgyyy", []), ("bhyyy", [CSS]), ("biyyy", [CSS]), ("bjyyy", [CSS]), ("bkyyy", []),
              ("cyyy", []), ("cayyy", []), ("cbyyy", []), ("ccyyy", []), ("cdyyy", []), ("ceyyy", []), ("cfyyy", []),
              ("cgyyy", [B]), ("chyyy", [CSS, B]), ("ciyyy", [CSS, B]), ("cjyyy", [CSS]), ("ckyyy", []),
              ("dgyyy", [B]), ("ddgyyy", [B]), ("ddhyyy", [CSS, B]), ("ddhhyyy", [CSS, B]), ("degyyy", [B]),
              ("dehyyy", [B]), ("dfgyyy", []), ("dfhyyy", []), ("djyyy", [CSS]), ("ddjyyy", [CSS]), ("ddjjyyy", [CSS])]
for name, first in [("QuantifiedOneOrMoreRangesCase11And13", "[c-e]+[g-i]+YYY"),
                    ("QuantifiedOneOrMoreRangesCase11And13InGroups", "([c-e])+([g-i]+YYY)")]:
    overlap(name, [rule(first), hiddenCSS("[b-d]+[h-j]+YYY")], [("zzz://www.%s.xxx/" % h, e) for h, e in quantified])

# CombinedRangeOverlapCase1-9: the same ranges behind "(foo)*" and "(bar)*".
overlap("CombinedRangeOverlapCase1 match", [rule("^(foo)*[a-m]"), rule("^(bar)*[c-e]", IGN)],
        [(c + "://www.webkit.org/", e) for c, e in [("a", [B]), ("b", [B]), ("c", []), ("d", []), ("e", []), ("f", [B]), ("m", [B]), ("n", [])]])
overlap("CombinedRangeOverlapCase1 search", [rule("(foo)*[a-m]"), rule("(bar)*[c-e]", IGN)],
        [("zzz://www.%s.xxx/" % c, e) for c, e in [("a", [B]), ("b", [B]), ("c", []), ("d", []), ("e", []), ("f", [B]), ("m", [B]), ("n", [])]])
overlap("CombinedRangeOverlapCase2 match", [rule("^(foo)*[a-m]"), rule("^(bar)*b", IGN)],
        [(c + "://www.webkit.org/", e) for c, e in [("a", [B]), ("b", []), ("c", [B]), ("m", [B]), ("n", [])]])
overlap("CombinedRangeOverlapCase2 search", [rule("(foo)*[a-m]"), rule("(bar)*l", IGN)],
        [("zzz://www.%s.xxx/" % c, e) for c, e in [("a", [B]), ("k", [B]), ("l", []), ("m", [B]), ("n", [])]])
for n, block, css, tested in [(3, "b-d", "a-m", "abdemn"), (4, "l", "a-m", "aklmn"), (5, "a-e", "e-h", "adefhi"),
                              (6, "e", "e-h", "adefhi"), (7, "a-e", "e", "adef"), (8, "e-h", "a-e", "adefhi")]:
    B_, C_ = letters(block), letters(css)
    wrap = lambda r: r if len(r) == 1 else "[" + r + "]"
    expect = lambda ch: ([CSS] if ch in C_ else []) + ([B] if ch in B_ else [])
    overlap("CombinedRangeOverlapCase%d match" % n, [rule("^(foo)*" + wrap(block)), hiddenCSS("^(bar)*" + wrap(css))],
            [(ch + "://www.webkit.org/", expect(ch)) for ch in tested])
    overlap("CombinedRangeOverlapCase%d search" % n, [rule("(foo)*" + wrap(block)), hiddenCSS("(bar)*" + wrap(css))],
            [("zzz://www.%s.xxx/" % ch, expect(ch)) for ch in tested])

for n, block, css, tested in [(13, "b-d", "c-e", "abcdeh"), (14, "b-e", "c-e", "abcdeh"), (15, "c-f", "c-f", "abcdefg"),
                              (16, "c", "c", "abcde")]:
    B_, C_ = letters(block), letters(css)
    wrap = lambda r: r if len(r) == 1 else "[" + r + "]"
    expect = lambda ch: ([CSS] if ch in C_ else []) + ([B] if ch in B_ else [])
    overlap("CombinedRangeOverlapCase%d match" % n, [rule("^(foo)*" + wrap(block)), hiddenCSS("^(bar)*" + wrap(css))],
            [(ch + "://www.webkit.org/", expect(ch)) for ch in tested])
    overlap("CombinedRangeOverlapCase%d search" % n, [rule("(foo)*" + wrap(block)), hiddenCSS("(bar)*" + wrap(css))],
            [("zzz://www.%s.xxx/" % ch, expect(ch)) for ch in tested])
for name, first in [("CombinedQuantifiedOneOrMoreRangesCase11And13", "(foo)*[c-e]+[g-i]+YYY"),
                    ("CombinedQuantifiedOneOrMoreRangesCase11And13InGroups", "(foo)*([c-e])+([g-i]+YYY)")]:
    overlap(name, [rule(first), hiddenCSS("(bar)*[b-d]+[h-j]+YYY")], [("zzz://www.%s.xxx/" % h, e) for h, e in quantified])

def case(name, request, expect, **lists):
    c = {"name": name}
    c.update(lists)
    c["request"] = {"url": request, "resourceType": T, "mainDocumentURL": request}
    c["expect"] = expect
    return c

EXTRA = []
# MultipleExtensions: two lists; ignore-previous-rules stops its own list only. (WebKit lists the
# second list's actions first there: the order of its HashMap of lists; ours is the lists' order.)
one, two = [rule("block_load")], [rule("block_cookies", C)]
for u, e in [("http://webkit.org", []), ("http://webkit.org/block_load.html", [B]), ("http://webkit.org/block_cookies.html", [C]),
             ("http://webkit.org/block_load/block_cookies.html", [B, C]), ("http://webkit.org/block_cookies/block_load.html", [B, C])]:
    EXTRA.append(case("MultipleExtensions " + u, u, {"actions": e}, ruleLists=[one, two]))
one, two = [rule("block_load"), rule("ignore1", IGN)], [rule("block_cookies", C), rule("ignore2", IGN)]
for u, e in [("http://webkit.org", []), ("http://webkit.org/block_load/ignore1.html", []),
             ("http://webkit.org/block_cookies/ignore1.html", [C]), ("http://webkit.org/block_load/ignore2.html", [B]),
             ("http://webkit.org/block_cookies/ignore2.html", []), ("http://webkit.org/block_load/block_cookies/ignore1/ignore2.html", [])]:
    EXTRA.append(case("MultipleExtensions ignore " + u, u, {"actions": e}, ruleLists=[one, two]))

# StringParameters: notifications and selectors, shared and combined.
def notify(f, n): return {"action": {"type": "notify", "notification": n}, "trigger": {"url-filter": f}}
def css(f, sel): return {"action": {"type": CSS, "selector": sel}, "trigger": {"url-filter": f}}
combine = [notify("A", "AAA"), notify("A", "AAA"), notify("B", "BBB"), css("C", "CCC"), css("C", "selectorCombinedWithC"),
           css("D", "DDD"), rule("E", IGN), rule("F"), notify("G", "GGG"), notify("I", "GGG"), notify("J", "AAA"), notify("K", "GGG")]
EXTRA.append(case("StringParameters test:///matches", "test:///matches", {"actions": ["notify"], "notifications": ["testnotification"]},
                  rules=[notify("matches", "testnotification")]))
for host, actions, notes, selectors in [
        ("A", ["notify"], ["AAA"], []), ("B", ["notify"], ["BBB"], []), ("C", [CSS], [], ["CCC,selectorCombinedWithC"]),
        ("D", [CSS], [], ["DDD"]), ("E", [], [], []), ("F", [B], [], []), ("G", ["notify"], ["GGG"], []),
        ("GIK", ["notify"], ["GGG"], []), ("AJ", ["notify", "notify"], ["AAA", "AAA"], []), ("AE", [], [], []),
        ("ABCDE", [], [], []), ("ABCDEFG", ["notify", B], ["GGG"], []), ("FG", ["notify", B], ["GGG"], []),
        ("EFG", ["notify", B], ["GGG"], [])]:
    EXTRA.append(case("StringParameters http://" + host, "http://" + host,
                      {"actions": actions, "notifications": notes, "cssSelectors": selectors}, rules=combine))

# InvalidJSON: WebKit's compile errors (None: compiles).
W = '{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org",%s}}'
invalid = [("[", "JSONInvalid"), ("123", "JSONTopLevelStructureNotAnArray"), ("{}", "JSONTopLevelStructureNotAnArray"),
           ("[5]", "JSONInvalidRule"), ("[]", "JSONContainsNoRules"),
           ('[{"action":{"type":"block"},"trigger":5}]', "JSONInvalidTrigger"),
           ('[{"action":{"type":"block"},"trigger":{"url-filter":""}}]', "JSONInvalidURLFilterInTrigger"),
           ('[{"action":{"type":"block"},"trigger":{"url-filter":{}}}]', "JSONInvalidURLFilterInTrigger")]
for key in ["load-type", "resource-type"]:
    for v, e in [("{}", "JSONInvalidTriggerFlagsArray"), ('["invalid"]', "JSONInvalidStringInTriggerFlagsArray"),
                 ("[5]", "JSONInvalidStringInTriggerFlagsArray"), ("5", "JSONInvalidTriggerFlagsArray"),
                 ('"first-party"' if key == "load-type" else '"document"', "JSONInvalidTriggerFlagsArray"),
                 ("null", "JSONInvalidTriggerFlagsArray"), ("false", "JSONInvalidTriggerFlagsArray")]:
        invalid.append(("[" + W % ('"%s":%s' % (key, v)) + "]", e))
N = '[{"action":{"type":"notify"%s},"trigger":{"url-filter":".*"}}]'
invalid += [(N % "", "JSONInvalidNotification"), (N % ',"notification":5', "JSONInvalidNotification"),
            (N % ',"notification":[]', "JSONInvalidNotification"), (N % ',"notification":"here\'s my notification"', None),
            (N % ',"notification":"\\u1234"', None)]
for t, e in [('"if-domain":{}', "JSONInvalidConditionList"), ('"if-domain":[5]', "JSONInvalidConditionList"),
             ('"if-domain":["a"]', None), ('"if-domain":"a"', "JSONInvalidConditionList"),
             ('"if-domain":false', "JSONInvalidConditionList"), ('"if-domain":null', "JSONInvalidConditionList"),
             ('"unless-domain":{}', "JSONInvalidConditionList"), ('"unless-domain":[5]', "JSONInvalidConditionList"),
             ('"unless-domain":[""]', "JSONInvalidConditionList"), ('"unless-domain":"a"', "JSONInvalidConditionList"),
             ('"unless-domain":null', "JSONInvalidConditionList"), ('"unless-domain":false', "JSONInvalidConditionList"),
             ('"unless-domain":["A"]', "JSONDomainNotLowerCaseASCII"), ('"unless-domain":["\\u00DC"]', "JSONDomainNotLowerCaseASCII"),
             ('"unless-domain":["0"]', None), ('"unless-domain":["a"]', None),
             ('"if-domain":[],"unless-domain":["a"]', "JSONInvalidConditionList"), ('"unless-domain":[]', "JSONInvalidConditionList"),
             ('"if-domain":5', "JSONInvalidConditionList"), ('"unless-domain":5', "JSONInvalidConditionList"),
             ('"if-domain":5,"unless-domain":5', "JSONInvalidConditionList"), ('"if-domain":[]', "JSONInvalidConditionList"),
             ('"if-domain":["a"],"unless-domain":[]', "JSONMultipleConditions")]:
    invalid.append(("[" + W % t + "]", e))
invalid += [('[{"action":5,"trigger":{"url-filter":"webkit.org"}}]', "JSONInvalidAction"),
            ('[{"action":{"type":"invalid"},"trigger":{"url-filter":"webkit.org"}}]', "JSONInvalidActionType")]
U = '[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org",%s}}]'
R = '[{"action":{"type":"redirect","redirect":%s},"trigger":{"url-filter":"webkit.org"}}]'
M = '[{"action":{"type":"modify-headers","priority":%s,"request-headers":%s},"trigger":{"url-filter":"webkit.org"}}]'
invalid += [
    ('[{"action":{"type":"ignore-previous-rules"},"trigger":{"url-filter":"webkit.org"}},{"action":{"type":"css-display-none","selector":".hidden"},"trigger":{"url-filter":".*"}}]', None),
    ('[{"action":{"type":"block"},"trigger":{"url-filter":".*","if-domain":["a"]}}]', None),
    ('[{"action":{"type":"block"},"trigger":{"url-filter":".*","unless-domain":["a"]}}]', None),
    ('[{"action":{"type":"block"},"trigger":{"url-filter":"["}}]', "JSONInvalidRegex"),
    (U % '"if-domain":["a"],"unless-domain":["a"]', "JSONMultipleConditions"),
    (U % '"if-top-url":["a"],"unless-top-url":[]', "JSONMultipleConditions"),
    (U % '"if-top-url":["a"],"if-frame-url":[]', "JSONMultipleConditions"),
    (U % '"if-top-url":["a"],"unless-top-url":["a"]', "JSONMultipleConditions"),
    (U % '"if-domain":["a"],"if-top-url":["a"]', "JSONMultipleConditions"),
    (U % '"if-top-url":[],"unless-domain":["a"]', "JSONMultipleConditions"),
    (U % '"if-top-url":["a"],"if-domain":["a"]', "JSONMultipleConditions"),
    ('[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-top-url":["a"]}}, {"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":["a"]}}]', None),
    ('[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-top-url":["a"]}}, {"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":["a"]}}]', None),
    ('[{"action":{"type":"block"},"trigger":{"url-filter":"test\\\\.html", "unless-top-url":["["]}}]', "JSONInvalidRegex"),
    (U % ' "unexpected-identifier-should-be-ignored":5', None),
    ('[{"action":{"type":"redirect"},"trigger":{"url-filter":"webkit.org"}}]', "JSONRedirectMissing"),
    (R % '{}', "JSONRedirectInvalidType"),
    (R % '{"transform":{"query-transform":{"remove-parameters":5}}}', "JSONRemoveParametersNotStringArray"),
    (R % '{"transform":{"query-transform":{"remove-parameters":[5]}}}', "JSONRemoveParametersNotStringArray"),
    (R % '{"transform":{"query-transform":{"add-or-replace-parameters":5}}}', "JSONAddOrReplaceParametersNotArray"),
    (R % '{"transform":{"query-transform":{"add-or-replace-parameters":[5]}}}', "JSONAddOrReplaceParametersKeyValueNotADictionary"),
    (R % '{"transform":{"query-transform":{"add-or-replace-parameters":[{}]}}}', "JSONAddOrReplaceParametersKeyValueMissingKeyString"),
    (R % '{"transform":{"query-transform":{"add-or-replace-parameters":[{"key":5}]}}}', "JSONAddOrReplaceParametersKeyValueMissingKeyString"),
    (R % '{"transform":{"query-transform":{"add-or-replace-parameters":[{"key":"k","value":5}]}}}', "JSONAddOrReplaceParametersKeyValueMissingValueString"),
    (R % '{"url":"https://127..1/"}', "JSONRedirectURLInvalid"),
    (R % '{"url":"JaVaScRiPt:dostuff"}', "JSONRedirectToJavaScriptURL"),
    (R % '{"transform":{"port":"not a number"}}', "JSONRedirectInvalidPort"),
    (R % '{"transform":{"port":"65536"}}', "JSONRedirectInvalidPort"),
    (R % '{"transform":{"query":"no-question-mark"}}', "JSONRedirectInvalidQuery"),
    (R % '{"transform":{"fragment":"no-number-sign"}}', "JSONRedirectInvalidFragment"),
    (R % '{"transform":{"port":"65535"}}', None),
    (R % '{"transform":{"port":""}}', None),
    (R % '{"extension-path":"/does/start/with/slash/"}', None),
    (R % '{"transform":{"scheme":"!@#$%"}}', "JSONRedirectURLSchemeInvalid"),
    (R % '{"transform":{"scheme":"JaVaScRiPt"}}', "JSONRedirectToJavaScriptURL"),
    (R % '{"transform":{"scheme":"About"}}', None),
    (M % ("2", "5"), "JSONModifyHeadersNotArray"),
    (M % ("2", "[5]"), "JSONModifyHeadersInfoNotADictionary"),
    (M % ("2", "[{}]"), "JSONModifyHeadersMissingOperation"),
    (M % ("2", '[{"operation":"remove"}]'), "JSONModifyHeadersMissingHeader"),
    (M % ("2", '[{"operation":"set","header":"testheader"}]'), "JSONModifyHeadersMissingValue"),
    (M % ("2", '[{"operation":"invalid","header":"testheader"}]'), "JSONModifyHeadersInvalidOperation"),
    (M % ('""', '[{"operation":"remove","header":"testheader"}]'), "JSONModifyHeadersInvalidPriority"),
    (M % ("-1", '[{"operation":"remove","header":"testheader"}]'), "JSONModifyHeadersInvalidPriority")]
# ParsingFailures and PatternMatchingTheEmptyString: a filter that parses (or matches everything)
# compiles; the others fail with JSONInvalidRegex.
OK, BAD = None, "JSONInvalidRegex"
patterns = [("a*b?.*.?[a-z]?[a-z]*", OK), ("a*b?.*.?[a-z]?[a-z]+", OK), ("a*b?.*.?[a-z]?[a-z]", OK), (".*?a", OK), (".*a", OK),
            ("(?!)", BAD), ("(?=)", BAD), ("(?!a)", BAD), ("(?=a)", BAD), ("(regex)", OK), ("(regex", BAD), ("((regex)", BAD),
            ("(?:regex)", OK), ("(?:regex", BAD), ("[^.]+", OK), ("a++", BAD), ("[a]++", BAD), ("+", BAD), ("[", BAD),
            ("[a}", BAD), ("a]", OK), ("{", OK), ("{[a]", OK), ("{0", OK), ("{0,", OK), ("{0,1", OK), ("a{0,1", OK),
            ("a{a,b}", OK), ("\u00ff", BAD), ("\\xff", BAD), ("\\x\\r\\n", OK), ("\\b", BAD), ("[\\d]", BAD),
            ("\\d\\D\\w\\s\\v\\h\\i\\c", BAD), ("this|that", BAD), ("a{0,1}b", OK), ("a{0,2}b", BAD),
            ("$$", BAD), ("a^", BAD), ("(^)", BAD), ("(a)\\1", OK), ("(<A>a)\\k<A>", OK), ("(?<A>a)\\k<A>", BAD),
            ("\\1(a)", OK), ("\\8(a)", OK), ("\\9(a)", OK), ("\\k<A>(<A>a)", OK), ("\\k<A>(?<A>a)", BAD), ("\\k<A>(a)", OK)]
patterns += [(p, OK) for p in [".*", "a*", ".?", "a?", "[a-z]*", "[a-z]?", "(foobar)*", "(foobar)?", "(.*)", "(a*)", "(.?)",
                               "(a?)", "([a-z]*)", "([a-z]?)", "(.)*", "(.+)*", "(.?)*", "(.*)*", "(.+)?", "(.?)+",
                               "((foo)?((.)*)(bar)*)"]]
for k, (pattern, e) in enumerate(patterns, 1):
    text = '[{"action":{"type":"block"},"trigger":{"url-filter":%s}}]' % json.dumps(pattern)
    EXTRA.append({"name": "ParsingFailures #%d" % k, "rulesJSON": text, "request": None, "expect": {"error": e}})

for k, (text, e) in enumerate(invalid, 1):
    EXTRA.append({"name": "InvalidJSON #%d" % k, "rulesJSON": text, "request": None, "expect": {"error": e}})

# RegexSubstitution (WebKit's test of RegexSubstitutionAction::applyToURL), through a redirect rule.
for k, (sub, regex, url, expected) in enumerate([
        ("https://\\1.xyz.com/", "^https://www\\.(abc?)\\.xyz\\.com/", "https://www.abc.xyz.com", "https://abc.xyz.com/"),
        ("https://\\1.\\1.xyz.com/", "^https://www\\.(abc?)\\.xyz\\.com/", "https://www.ab.xyz.com", "https://ab.ab.xyz.com/"),
        ("https://\\1.\\1.xyz.com/", "^https://www\\.(abc?)\\.xyz\\.com/", "https://ab.xyz.com", None),
        ("https://example.com/\\0\\1", "^https://www\\.(abc?)\\.xyz\\.com/", "https://www.ab.xyz.com",
         "https://example.com/https://www.ab.xyz.com/ab"),
        ("https://example.com/\\1\\2\\3\\4\\5\\6\\7\\8\\9\\10\\11\\12\\13\\14",
         "^https://(e)(x)(a)(m)(p)(l)(e)(w)(e)(b)(s)(i)(t)(e)/", "https://examplewebsite/", "https://example.com/examplewee0e1e2e3e4"),
        ("https://!@#$%^&*invalidURL\\1/", "^https://www\\.(abc?)\\.xyz\\.com/", "https://www.abc.xyz.com", None)], 1):
    EXTRA.append({"name": "RegexSubstitution (WebKit) #%d" % k,
                  "rules": [{"action": {"type": "redirect", "redirect": {"regex-substitution": sub}}, "trigger": {"url-filter": regex}}],
                  "request": {"url": url, "resourceType": "script", "mainDocumentURL": "https://page.com/"},
                  "expect": {"redirectURL": expected}})
# QueryTransformActions, through a redirect transform.
EXTRA.append({"name": "QueryTransformActions",
              "rules": [{"action": {"type": "redirect", "redirect": {"transform": {"query-transform": {
                  "add-or-replace-parameters": [{"key": "foo", "value": "bar", "replace-only": True}, {"key": "one", "value": "two"}],
                  "remove-parameters": ["baz"]}}}}, "trigger": {"url-filter": "webkit"}}],
              "request": {"url": "https://webkit.org/?foo=garply&baz=test&x+y=z&h%20llo=w%20rld", "resourceType": "script",
                          "mainDocumentURL": "https://page.com/"},
              "expect": {"redirectURL": "https://webkit.org/?foo=bar&x+y=z&h%20llo=w%20rld&one=two"}})
# IfFrameURL
def frame(name, rules, url, top, fr, typ, actions):
    EXTRA.append({"name": "IfFrameURL " + name, "rules": rules,
                  "request": {"url": url, "resourceType": typ, "mainDocumentURL": top, "frameURL": fr}, "expect": {"actions": actions}})
basic = [rule("https", if_frame_url=["whatwg"])]
frame("basic #1", basic, "https://example.com/", "https://webkit.org/", "https://whatwg.org/", T, [B])
frame("basic #2", basic, "https://example.com/", "https://webkit.org/", "https://webkit.org/", T, [])
frame("case #1", basic, "https://example.com/", "https://webkit.org/", "https://example.com/wHaTwG", T, [B])
frame("case #2", [rule("https", if_frame_url=["whatwg"], frame_url_filter_is_case_sensitive=True)],
      "https://example.com/", "https://webkit.org/", "https://example.com/wHaTwG", T, [])
other = [rule("https", if_frame_url=["whatwg"], resource_type=["image"])]
frame("flags #1", other, "https://example.com/", "https://webkit.org/", "https://whatwg.org/", T, [])
frame("flags #2", other, "https://example.com/", "https://webkit.org/", "https://whatwg.org/", I, [B])
both = [rule("https", if_frame_url=["whatwg"]), rule("https", C, if_top_url=["example"])]
frame("with top #1", both, "https://example.com/", "https://webkit.org/", "https://whatwg.org/", T, [B])
frame("with top #2", both, "https://example.com/", "https://example.com/", "https://webkit.org/", T, [C])
frame("with top #3", both, "https://example.com/", "https://example.com/", "https://whatwg.org/", T, [C, B])
everything = [rule("https", if_frame_url=[".*"])]
frame("everything #1", everything, "https://example.com/", "https://webkit.org/", "https://whatwg.org/", T, [B])
frame("everything #2", everything, "http://example.com/", "https://webkit.org/", "https://webkit.org/", T, [])

for c in EXTRA:
    print(json.dumps(c))

for name, rules, requests in TESTS:
    for i, (url, main, typ, expected) in enumerate(requests, 1):
        case = {"name": "%s #%d" % (name, i), "rules": rules,
                "request": {"url": url, "resourceType": typ, "mainDocumentURL": main or url},
                "expect": {"actions": expected}}
        print(json.dumps(case))
