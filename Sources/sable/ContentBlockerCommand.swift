#if canImport(Glibc)
import Glibc
#endif
import ContentBlocker
import HostCore

/// `sable --content-blocker add NAME list.json | list | remove NAME [--profile DIR]`: the
/// host compiles content-blocker lists into the profile (`ContentBlockerProfile`); a browser
/// started with that profile applies them. Without `--profile`, the browser's default profile
/// directory (`ProfileDirectory.defaultPath()`: `$XDG_DATA_HOME/sable` or ~/.local/share/sable).
/// A list that fails to compile ends in WebKit's error and leaves the profile as it was.
enum ContentBlockerCommand {
    static func say(_ line: String, _ fd: Int32 = 1) {
        let text = line + "\n"
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }

    static func run(_ args: [String]) -> Int32 {
        var profile: String?
        var words: [String] = []
        var rest = args[...]
        while let a = rest.popFirst() {
            if a == "--content-blocker" { continue }
            if a == "--profile", let p = rest.popFirst() { profile = p; continue }
            if a.hasPrefix("--profile=") { profile = String(a.dropFirst("--profile=".count)); continue }
            words.append(a)
        }
        guard let directory = profile ?? ProfileDirectory.defaultPath() else {
            say("sable: no profile directory: give --profile DIR (HOME is not set)", 2)
            return 2
        }
        let store = ContentBlockerProfile(profileDirectory: directory)
        switch (words.first, words.count) {
        case ("add", 3):
            switch store.add(name: words[1], sourcePath: words[2]) {
            case .failure(let f):
                say("sable: cannot add content blocker \(words[1]): \(f.message)", 2)
                return 1
            case .success(let added):
                say("\(added.replaced ? "replaced" : "added") \(words[1]): \(added.ruleCount) rules, \(added.compiledBytes) bytes compiled, in \(store.directory)")
                return 0
            }
        case ("list", 1):
            for name in store.names() {
                switch ContentRuleListStore.loadOrCompile(compiledPath: store.compiledPath(name), sourcePath: store.sourcePath(name)) {
                case .success(let r):
                    say("\(name)\t\(r.list.ruleCount) rules\t\(r.list.byteCount) bytes" + (r.recompiled.map { "\t(recompiled: \($0.message))" } ?? ""))
                case .failure(let f):
                    say("\(name)\tunusable: \(f.message)")
                }
            }
            return 0
        case ("remove", 2):
            guard store.remove(name: words[1]) else {
                say("sable: no content blocker named \(words[1]) in \(store.directory)", 2)
                return 1
            }
            say("removed \(words[1])")
            return 0
        default:
            say("usage: sable --content-blocker add NAME list.json | list | remove NAME  [--profile DIR]", 2)
            return 2
        }
    }
}
