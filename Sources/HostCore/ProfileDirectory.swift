#if canImport(Glibc)
import Glibc
#endif

/// Where a browser profile lives: one directory for everything a user's browser keeps (the
/// session database `profile.sqlite`, the cookie jar, the content-blocker lists). `--profile
/// DIR` names it; without it, `$XDG_DATA_HOME/sable`, or `~/.local/share/sable` when
/// `XDG_DATA_HOME` is unset or not absolute (the XDG Base Directory rules).
public enum ProfileDirectory {
    /// The default profile directory (nil only without a usable `HOME`).
    public static func defaultPath() -> String? {
        if let xdg = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") {
            return xdg + "/sable"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
        return home + "/.local/share/sable"
    }

    /// Creates `path` and its missing parents (mode 0700 as browsers do); nil when it exists
    /// (or was made), otherwise why not.
    public static func create(_ path: String) -> String? {
        var st = stat()
        if stat(path, &st) == 0 {
            return (st.st_mode & S_IFMT) == S_IFDIR ? nil : "\(path) exists and is not a directory"
        }
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if stat(prefix, &st) == 0 { continue }
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                return "cannot create \(prefix): \(String(cString: strerror(errno)))"
            }
        }
        return nil
    }

    /// True when the process may create files in `path` (a read-only directory, a read-only
    /// file system or missing rights make it false).
    public static func isWritable(_ path: String) -> Bool {
        access(path, W_OK | X_OK) == 0
    }
}
