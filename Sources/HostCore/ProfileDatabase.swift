#if canImport(Glibc)
import Glibc
#endif
import GRDB

/// The profile's SQLite database (`PROFILE/profile.sqlite`, through GRDB): the open tabs in
/// order with their back-forward lists and current index, the selected tab, and the zoom
/// level of each site. WAL mode with `synchronous = NORMAL`: every change is its own
/// transaction, committed to the WAL file before the browser goes on, so killing the browser
/// (SIGKILL) at any moment loses at most the change in flight (a power cut may lose the
/// last few, which `FULL` would keep at the price of an fsync per navigation).
///
/// Schema version 2 (`PRAGMA user_version`; `application_id` 'Sabl'):
///   tab(id PRIMARY KEY, position, current_index)
///   entry(tab → tab.id ON DELETE CASCADE, position, url, title, scroll_y, scroll_x; PRIMARY KEY(tab, position))
///   setting(key PRIMARY KEY, value)             -- 'selected_tab' → a tab id
///   site_zoom(site PRIMARY KEY, level)           -- levels other than 1.0
/// A database of a later version is refused and left as it is; one that SQLite cannot read
/// (not a database, corrupt) is moved aside and a new one started. Version 1 (no `scroll_x`)
/// is brought up to 2 when it is opened (the column added, 0 for its entries).
public final class ProfileDatabase {
    public static let schemaVersion = 2
    public static let applicationID: Int32 = 0x5361_626C  // "Sabl"
    public static let fileName = "profile.sqlite"

    public let path: String
    let queue: DatabaseQueue
    /// The lock held on `PROFILE/profile.lock` while this browser uses the profile.
    let lockFD: Int32

    /// What a profile database holds.
    public struct Session: Equatable, Sendable {
        public struct SavedTab: Equatable, Sendable {
            public var entries: [HistoryEntry]
            public var index: Int
            public init(entries: [HistoryEntry], index: Int) {
                self.entries = entries
                self.index = index
            }
        }
        public var tabs: [SavedTab] = []
        /// The index in `tabs` of the selected tab.
        public var selected: Int?
        public var zoom: [String: Double] = [:]
        public init() {}
    }

    /// The outcome of opening a profile: a database (maybe after moving a damaged one aside),
    /// or why the browser runs without one. `messages` are for the user (stderr).
    public struct Opened {
        public var database: ProfileDatabase?
        public var session = Session()
        public var messages: [String] = []
        public init() {}
    }

    /// Opens (or creates) the database of `directory` and reads its session. Never
    /// overwrites what it cannot understand: a newer schema is refused, a damaged file is
    /// renamed `profile.sqlite.damaged-TIMESTAMP` (with its -wal and -shm), a read-only
    /// directory or a profile in use gives no database (the browser then saves nothing).
    public static func open(directory: String) -> Opened {
        var out = Opened()
        if let problem = ProfileDirectory.create(directory) {
            out.messages.append("cannot use the profile directory: \(problem); the session will not be saved")
            return out
        }
        let path = directory + "/" + fileName
        guard ProfileDirectory.isWritable(directory) else {
            out.messages.append("the profile directory \(directory) is read-only (\(String(cString: strerror(EACCES)))): "
                                + "the browser starts with no saved session and saves nothing; \(path) is left as it is")
            return out
        }
        let lockPath = directory + "/profile.lock"
        let lockFD = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if lockFD < 0 {
            out.messages.append("cannot open \(lockPath): \(String(cString: strerror(errno))); the session will not be saved")
            return out
        }
        if flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            close(lockFD)
            out.messages.append("the profile \(directory) is in use by another Sable: this browser starts empty and saves nothing")
            return out
        }
        do {
            let (database, session) = try openAndRead(path: path, lockFD: lockFD)
            out.database = database
            out.session = session
            return out
        } catch OpenError.newerSchema(let version) {
            out.messages.append("\(path) was written by a newer Sable (schema version \(version); this one knows \(schemaVersion)): "
                                + "it is left as it is, the browser starts empty and saves nothing")
        } catch OpenError.foreign(let id) {
            out.messages.append("\(path) is a SQLite database of another application (application_id \(id)): "
                                + "it is left as it is, the browser starts empty and saves nothing")
        } catch {
            // Damaged or unreadable: moved aside, then a new database.
            let aside = path + ".damaged-" + timestamp()
            var moved = rename(path, aside) == 0
            if !moved && errno == ENOENT { moved = true }
            for suffix in ["-wal", "-shm"] { _ = rename(path + suffix, aside + suffix) }
            guard moved else {
                out.messages.append("\(path) cannot be read (\(describe(error))) nor moved aside (\(String(cString: strerror(errno)))): "
                                    + "the browser starts empty and saves nothing")
                close(lockFD)
                return out
            }
            out.messages.append("\(path) was damaged (\(describe(error))): moved aside to \(aside); the browser starts with an empty session")
            do {
                let (database, session) = try openAndRead(path: path, lockFD: lockFD)
                out.database = database
                out.session = session
                return out
            } catch {
                out.messages.append("cannot create a new \(path): \(describe(error)); the session will not be saved")
            }
        }
        close(lockFD)
        return out
    }

    enum OpenError: Error {
        case newerSchema(Int)
        case foreign(Int32)
    }

    static func openAndRead(path: String, lockFD: Int32) throws -> (ProfileDatabase, Session) {
        var configuration = Configuration()
        configuration.label = "profile"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        // No `configuration.journalMode = .wal`: GRDB's WAL set-up writes to the file (it
        // creates and drops a table) before this code could see the schema version. The
        // file is only read until it is known to be ours, and then switched to WAL.
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let version = try queue.read { db -> Int in
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? ""
            guard check == "ok" else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "quick_check: \(check)") }
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            if application != 0 && application != applicationID { throw OpenError.foreign(application) }
            if version > schemaVersion { throw OpenError.newerSchema(version) }
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            if version == 0 && tables != 0 && application != applicationID { throw OpenError.foreign(application) }
            return version
        }
        try queue.writeWithoutTransaction { db in
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode == "wal" else { throw DatabaseError(message: "cannot switch to WAL mode (\(mode ?? "?"))") }
        }
        let session = try queue.write { db -> Session in
            if version == 0 { try createSchema(db) }
            if version == 1 { try migrateFrom1(db) }
            return try readSession(db)
        }
        return (ProfileDatabase(path: path, queue: queue, lockFD: lockFD), session)
    }

    static func createSchema(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE tab(id INTEGER PRIMARY KEY, position INTEGER NOT NULL, current_index INTEGER NOT NULL);
            CREATE TABLE entry(tab INTEGER NOT NULL REFERENCES tab(id) ON DELETE CASCADE, position INTEGER NOT NULL,
                               url TEXT NOT NULL, title TEXT NOT NULL, scroll_y REAL NOT NULL, scroll_x REAL NOT NULL DEFAULT 0,
                               PRIMARY KEY(tab, position));
            CREATE TABLE setting(key TEXT PRIMARY KEY, value);
            CREATE TABLE site_zoom(site TEXT PRIMARY KEY, level REAL NOT NULL);
            PRAGMA application_id = \(applicationID);
            PRAGMA user_version = \(schemaVersion);
            """)
    }

    /// Version 1 -> 2: the entries' horizontal scroll position.
    static func migrateFrom1(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE entry ADD COLUMN scroll_x REAL NOT NULL DEFAULT 0;
            PRAGMA user_version = 2;
            """)
    }

    static func readSession(_ db: Database) throws -> Session {
        var session = Session()
        var entries: [Int64: [HistoryEntry]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT tab, url, title, scroll_y, scroll_x FROM entry ORDER BY tab, position") {
            var entry = HistoryEntry(url: row[1], title: row[2], scrollY: row[3])
            entry.scrollX = row[4]
            entries[row[0], default: []].append(entry)
        }
        let selected = try Int64.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'selected_tab'")
        for row in try Row.fetchAll(db, sql: "SELECT id, current_index FROM tab ORDER BY position") {
            let id: Int64 = row[0]
            let list = entries[id] ?? []  // empty: a tab that never navigated
            let index: Int = row[1]
            if id == selected { session.selected = session.tabs.count }
            session.tabs.append(.init(entries: list, index: list.isEmpty ? -1 : min(max(index, 0), list.count - 1)))
        }
        for row in try Row.fetchAll(db, sql: "SELECT site, level FROM site_zoom") {
            let level: Double = row[1]
            if ZoomLevels.range.contains(level) { session.zoom[row[0]] = level }
        }
        return session
    }

    init(path: String, queue: DatabaseQueue, lockFD: Int32) {
        self.path = path
        self.queue = queue
        self.lockFD = lockFD
    }

    deinit {
        close(lockFD)
    }

    // MARK: - Writes (each one transaction)

    /// Rewrites the whole session: after a restore (the tabs' ids are new) and when tabs
    /// are reordered.
    public func replaceSession(tabs: [(id: UInt32, entries: [HistoryEntry], index: Int)], selected: UInt32?) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM entry; DELETE FROM tab")
            for (position, tab) in tabs.enumerated() {
                try insertTab(db, id: tab.id, position: position, index: tab.index)
                try insertEntries(db, tab: tab.id, entries: tab.entries, from: 0)
            }
            try setSelected(db, selected)
        }
    }

    /// A new tab at the end.
    public func addTab(id: UInt32, entries: [HistoryEntry], index: Int) throws {
        try queue.write { db in
            let position = (try Int.fetchOne(db, sql: "SELECT max(position) FROM tab") ?? -1) + 1
            try insertTab(db, id: id, position: position, index: index)
            try insertEntries(db, tab: id, entries: entries, from: 0)
        }
    }

    /// A tab's list changed from entry `from` on (a navigation: the new entry; a load that
    /// committed: the current entry's URL and title; a scroll), and its current index.
    public func updateTab(id: UInt32, entries: [HistoryEntry], index: Int, changedFrom from: Int) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE tab SET current_index = ? WHERE id = ?", arguments: [index, id])
            guard db.changesCount == 1 else { throw DatabaseError(message: "tab \(id) is not in the profile") }
            try db.execute(sql: "DELETE FROM entry WHERE tab = ? AND position >= ?", arguments: [id, from])
            try insertEntries(db, tab: id, entries: entries, from: from)
        }
    }

    public func removeTab(id: UInt32, selected: UInt32?) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM entry WHERE tab = ?; DELETE FROM tab WHERE id = ?", arguments: [id, id])
            try setSelected(db, selected)
        }
    }

    public func setSelected(_ id: UInt32?) throws {
        try queue.write { db in try setSelected(db, id) }
    }

    /// A site's zoom level (1.0 removes it: the default).
    public func setZoom(site: String, level: Double) throws {
        try queue.write { db in
            if abs(level - 1) < 0.001 {
                try db.execute(sql: "DELETE FROM site_zoom WHERE site = ?", arguments: [site])
            } else {
                try db.execute(sql: "INSERT OR REPLACE INTO site_zoom(site, level) VALUES (?, ?)", arguments: [site, level])
            }
        }
    }

    /// Reads the session back (tests and tools; the browser reads it once, at `open`).
    public func readSession() throws -> Session {
        try queue.read { db in try ProfileDatabase.readSession(db) }
    }

    func insertTab(_ db: Database, id: UInt32, position: Int, index: Int) throws {
        try db.execute(sql: "INSERT INTO tab(id, position, current_index) VALUES (?, ?, ?)", arguments: [id, position, index])
    }

    func insertEntries(_ db: Database, tab: UInt32, entries: [HistoryEntry], from: Int) throws {
        guard from < entries.count else { return }
        let statement = try db.cachedStatement(sql: "INSERT INTO entry(tab, position, url, title, scroll_y, scroll_x) VALUES (?, ?, ?, ?, ?, ?)")
        for position in from..<entries.count {
            let e = entries[position]
            try statement.execute(arguments: [tab, position, e.url, e.title, e.scrollY, e.scrollX])
        }
    }

    func setSelected(_ db: Database, _ id: UInt32?) throws {
        if let id {
            try db.execute(sql: "INSERT OR REPLACE INTO setting(key, value) VALUES ('selected_tab', ?)", arguments: [id])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = 'selected_tab'")
        }
    }

    static func describe(_ error: Error) -> String {
        if let e = error as? DatabaseError { return e.message ?? "\(e.resultCode)" }
        return "\(error)"
    }

    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let n = strftime(&buffer, buffer.count, "%Y%m%dT%H%M%SZ", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
