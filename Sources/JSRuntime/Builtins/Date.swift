// Date (https://tc39.es/ecma262/#sec-date-objects): time values, local time through libc,
// parsing (ISO format, the toString/toUTCString formats and common legacy forms),
// formatting in V8's formats, getters/setters, Annex B getYear/setYear/toGMTString.
//
// Date objects are kind `.date` with the time value (a number, NaN when invalid) in word 1.
// The local time zone: glibc loads the zone once (`tzset` at realm initialization) and
// afterwards `localtime_r` only reads its cached rules, so it works after lockdown.

#if canImport(Glibc)
import Glibc
#endif

enum DateMath {
    static let msPerDay = 86400000.0

    static func day(_ t: Double) -> Double { (t / msPerDay).rounded(.down) }
    static func timeWithinDay(_ t: Double) -> Double {
        let r = t.truncatingRemainder(dividingBy: msPerDay)
        return r < 0 ? r + msPerDay : r
    }

    /// Days from 1970-01-01 to the civil date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// (year, month 0-11, date 1-31) of a day number.
    static func civilFromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m - 1, d)
    }

    /// The components of a (finite) time value: year, month, date, hours, minutes, seconds, ms, weekday.
    static func components(_ t: Double) -> (year: Int64, month: Int64, date: Int64, h: Int64, m: Int64, s: Int64, ms: Int64, wd: Int64) {
        let d = day(t)
        let (y, mo, da) = civilFromDays(Int64(d))
        let tw = Int64(timeWithinDay(t))
        var wd = (Int64(d) + 4) % 7
        if wd < 0 { wd += 7 }
        return (y, mo, da, tw / 3600000, (tw / 60000) % 60, (tw / 1000) % 60, tw % 1000, wd)
    }

    static func makeTime(_ h: Double, _ m: Double, _ s: Double, _ ms: Double) -> Double {
        if !h.isFinite || !m.isFinite || !s.isFinite || !ms.isFinite { return .nan }
        return h.rounded(.towardZero) * 3600000 + m.rounded(.towardZero) * 60000 + s.rounded(.towardZero) * 1000 + ms.rounded(.towardZero)
    }

    static func makeDay(_ year: Double, _ month: Double, _ date: Double) -> Double {
        if !year.isFinite || !month.isFinite || !date.isFinite { return .nan }
        let y = year.rounded(.towardZero), m = month.rounded(.towardZero), dt = date.rounded(.towardZero)
        let ym = y + (m / 12).rounded(.down)
        if abs(ym) > 400000 { return .nan }
        var mn = m.truncatingRemainder(dividingBy: 12)
        if mn < 0 { mn += 12 }
        let days = daysFromCivil(Int64(ym), Int64(mn) + 1, 1)
        return Double(days) + dt - 1
    }

    static func makeDate(_ day: Double, _ time: Double) -> Double {
        if !day.isFinite || !time.isFinite { return .nan }
        let tv = day * msPerDay + time
        return tv.isFinite ? tv : .nan
    }

    static func timeClip(_ t: Double) -> Double {
        if !t.isFinite || abs(t) > 8.64e15 { return .nan }
        return t.rounded(.towardZero) + 0  // +0 for -0
    }

    /// The local time zone's offset from UTC (ms) at the UTC time value t.
    static func offset(atUTC t: Double) -> Double {
        if !t.isFinite { return 0 }
        var secs = time_t((t / 1000).rounded(.down).clamped(-1e16, 1e16))
        var tmv = tm()
        guard localtime_r(&secs, &tmv) != nil else { return 0 }
        return Double(tmv.tm_gmtoff) * 1000
    }

    static func localTime(_ t: Double) -> Double { t + offset(atUTC: t) }

    /// UTC(t) for a local time value t.
    static func utc(_ t: Double) -> Double {
        if !t.isFinite { return .nan }
        // Candidate offsets from a day before, at, and a day after; the earliest consistent
        // interpretation wins (a repeated local time maps to before the transition), and a
        // local time inside a gap uses the offset before the transition.
        let before = offset(atUTC: t - msPerDay)
        let o1 = offset(atUTC: t)
        if before == o1, offset(atUTC: t - o1) == o1, offset(atUTC: t + msPerDay) == o1 { return t - o1 }
        var best = Double.infinity
        for o in [before, o1, offset(atUTC: t + msPerDay)] where offset(atUTC: t - o) == o { best = min(best, t - o) }
        return best.isFinite ? best : t - before
    }

    static func zoneName(atUTC t: Double) -> String {
        var secs = time_t((t / 1000).rounded(.down).clamped(-1e16, 1e16))
        var tmv = tm()
        guard localtime_r(&secs, &tmv) != nil, let z = tmv.tm_zone else { return "Coordinated Universal Time" }
        let abbr = String(cString: z)
        switch abbr {
        case "UTC", "UCT", "Universal", "Zulu": return "Coordinated Universal Time"
        case "GMT": return tmv.tm_gmtoff == 0 ? "Greenwich Mean Time" : abbr
        case "CET": return "Central European Standard Time"
        case "CEST": return "Central European Summer Time"
        case "EET": return "Eastern European Standard Time"
        case "EEST": return "Eastern European Summer Time"
        case "WET": return "Western European Standard Time"
        case "WEST": return "Western European Summer Time"
        case "BST": return "British Summer Time"
        case "EST": return "Eastern Standard Time"
        case "EDT": return "Eastern Daylight Time"
        case "CST": return "Central Standard Time"
        case "CDT": return "Central Daylight Time"
        case "MST": return "Mountain Standard Time"
        case "MDT": return "Mountain Daylight Time"
        case "PST": return "Pacific Standard Time"
        case "PDT": return "Pacific Daylight Time"
        case "JST": return "Japan Standard Time"
        case "IST": return "India Standard Time"
        case "AEST": return "Australian Eastern Standard Time"
        case "AEDT": return "Australian Eastern Daylight Time"
        case "MSK": return "Moscow Standard Time"
        default: return abbr
        }
    }

    // MARK: - Formatting

    static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    static func yearString(_ y: Int64) -> String { y >= 0 ? pad(y, 4) : "-" + pad(-y, 4) }

    static func dateString(_ tLocal: Double) -> String {
        let c = components(tLocal)
        return "\(dayNames[Int(c.wd)]) \(monthNames[Int(c.month)]) \(pad(c.date, 2)) \(yearString(c.year))"
    }

    static func timeString(_ tLocal: Double) -> String {
        let c = components(tLocal)
        return "\(pad(c.h, 2)):\(pad(c.m, 2)):\(pad(c.s, 2)) GMT"
    }

    static func timeZoneString(_ tv: Double) -> String {
        let off = Int64(offset(atUTC: tv) / 60000)
        let sign = off >= 0 ? "+" : "-"
        let a = abs(off)
        return "\(sign)\(pad(a / 60, 2))\(pad(a % 60, 2)) (\(zoneName(atUTC: tv)))"
    }

    static func toDateString(_ tv: Double) -> String {
        if tv.isNaN { return "Invalid Date" }
        let t = localTime(tv)
        return dateString(t) + " " + timeString(t) + timeZoneString(tv)
    }

    static func toUTCString(_ tv: Double) -> String {
        if tv.isNaN { return "Invalid Date" }
        let c = components(tv)
        return "\(dayNames[Int(c.wd)]), \(pad(c.date, 2)) \(monthNames[Int(c.month)]) \(yearString(c.year)) \(pad(c.h, 2)):\(pad(c.m, 2)):\(pad(c.s, 2)) GMT"
    }

    static func toISOString(_ tv: Double) -> String {
        let c = components(tv)
        let y: String
        if c.year >= 0 && c.year <= 9999 { y = pad(c.year, 4) } else { y = (c.year < 0 ? "-" : "+") + pad(abs(c.year), 6) }
        return "\(y)-\(pad(c.month + 1, 2))-\(pad(c.date, 2))T\(pad(c.h, 2)):\(pad(c.m, 2)):\(pad(c.s, 2)).\(pad(c.ms, 3))Z"
    }

    /// en-US style, like node's default locale: "11/22/2026, 10:26:39 PM".
    static func localeDate(_ tLocal: Double) -> String {
        let c = components(tLocal)
        return "\(c.month + 1)/\(c.date)/\(c.year)"
    }

    static func localeTime(_ tLocal: Double) -> String {
        let c = components(tLocal)
        let h12 = c.h % 12 == 0 ? 12 : c.h % 12
        return "\(h12):\(pad(c.m, 2)):\(pad(c.s, 2)) \(c.h < 12 ? "AM" : "PM")"
    }

    // MARK: - Parsing

    /// Date.parse: the ISO format first, then the legacy forms.
    static func parse(_ units: [UInt16]) -> Double {
        let s = units.map { $0 < 128 ? UInt8($0) : UInt8(ascii: "?") }
        if let v = parseISO(s) { return v }
        // A malformed expanded year (e.g. -000000) is not left to the legacy forms.
        if let f = s.first, f == UInt8(ascii: "+") || f == UInt8(ascii: "-") { return .nan }
        return parseLegacy(s)
    }

    static func parseISO(_ s: [UInt8]) -> Double? {
        var i = 0
        let n = s.count
        func digits(_ count: Int) -> Int64? {
            if i + count > n { return nil }
            var v: Int64 = 0
            for k in 0..<count {
                let c = s[i + k]
                if c < 48 || c > 57 { return nil }
                v = v * 10 + Int64(c - 48)
            }
            i += count
            return v
        }
        func peek(_ c: Character) -> Bool { i < n && s[i] == c.asciiValue! }
        var year: Int64
        if peek("+") || peek("-") {
            let neg = peek("-")
            i += 1
            guard let y = digits(6) else { return nil }
            if neg && y == 0 { return nil }
            year = neg ? -y : y
        } else {
            guard let y = digits(4) else { return nil }
            year = y
        }
        var month: Int64 = 1, day: Int64 = 1
        if peek("-") {
            i += 1
            guard let m = digits(2) else { return nil }
            month = m
            if peek("-") {
                i += 1
                guard let d = digits(2) else { return nil }
                day = d
            }
        }
        var h: Int64 = 0, mi: Int64 = 0, sec: Int64 = 0, ms: Int64 = 0
        var hasTime = false
        var offsetMs: Int64? = nil
        if peek("T") || peek("t") {
            hasTime = true
            i += 1
            guard let hh = digits(2), peek(":") else { return nil }
            i += 1
            guard let mm = digits(2) else { return nil }
            h = hh; mi = mm
            if peek(":") {
                i += 1
                guard let ss = digits(2) else { return nil }
                sec = ss
                if peek(".") || peek(",") {
                    i += 1
                    var count = 0
                    var frac: Int64 = 0
                    while i < n && s[i] >= 48 && s[i] <= 57 {
                        if count < 3 { frac = frac * 10 + Int64(s[i] - 48) }
                        count += 1; i += 1
                    }
                    if count == 0 { return nil }
                    var c2 = count
                    while c2 < 3 { frac *= 10; c2 += 1 }
                    ms = frac
                }
            }
            if peek("Z") || peek("z") { i += 1; offsetMs = 0 }
            else if peek("+") || peek("-") {
                let neg = peek("-")
                i += 1
                guard let oh = digits(2) else { return nil }
                var om: Int64 = 0
                if peek(":") { i += 1 }
                guard let m2 = digits(2) else { return nil }
                om = m2
                if oh > 23 || om > 59 { return nil }
                offsetMs = (neg ? -1 : 1) * (oh * 3600000 + om * 60000)
            }
        } else if peek("Z") || peek("z") {
            i += 1; offsetMs = 0
        }
        if i != n { return nil }
        if month < 1 || month > 12 || day < 1 || day > 31 { return nil }
        let dim: [Int64] = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        if day > dim[Int(month - 1)] { return nil }
        if month == 2 && day == 29 && !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) { return nil }
        if h > 24 || mi > 59 || sec > 59 || (h == 24 && (mi != 0 || sec != 0 || ms != 0)) { return nil }
        let dayNum = Double(daysFromCivil(year, month, day))
        var t = makeDate(dayNum, makeTime(Double(h), Double(mi), Double(sec), Double(ms)))
        if let o = offsetMs { t -= Double(o) } else if hasTime { t = utc(t) }
        return timeClip(t)
    }

    static func parseLegacy(_ s: [UInt8]) -> Double {
        // Tokenize: numbers, words, signs/punctuation; parenthesized comments are skipped.
        var numbers: [(Int64, Int, UInt8)] = []  // value, digit count, following separator
        var month: Int64? = nil
        var pm: Bool? = nil
        var offset: Int64? = nil
        var time: [Int64] = []
        var i = 0
        let n = s.count
        var depth = 0
        var sawTime = false
        while i < n {
            let c = s[i]
            if c == UInt8(ascii: "(") { depth += 1; i += 1; continue }
            if c == UInt8(ascii: ")") { depth = max(0, depth - 1); i += 1; continue }
            if depth > 0 { i += 1; continue }
            if c >= 48 && c <= 57 {
                var v: Int64 = 0
                var cnt = 0
                while i < n && s[i] >= 48 && s[i] <= 57 { if cnt < 12 { v = v * 10 + Int64(s[i] - 48) }; cnt += 1; i += 1 }
                if i < n && s[i] == UInt8(ascii: ":") && !sawTime {
                    // h:m[:s[.ms]]
                    time = [v]
                    while i < n && s[i] == UInt8(ascii: ":") {
                        i += 1
                        var x: Int64 = 0
                        var dc = 0
                        while i < n && s[i] >= 48 && s[i] <= 57 { x = x * 10 + Int64(s[i] - 48); i += 1; dc += 1 }
                        if dc == 0 { return .nan }
                        time.append(x)
                    }
                    if i < n && s[i] == UInt8(ascii: ".") && time.count == 3 {
                        i += 1
                        var x: Int64 = 0
                        var dc = 0
                        while i < n && s[i] >= 48 && s[i] <= 57 { if dc < 3 { x = x * 10 + Int64(s[i] - 48) }; i += 1; dc += 1 }
                        while dc < 3 { x *= 10; dc += 1 }
                        time.append(x)
                    }
                    sawTime = true
                    continue
                }
                let sep = i < n ? s[i] : 0
                numbers.append((v, cnt, sep))
                continue
            }
            if (c == UInt8(ascii: "+") || c == UInt8(ascii: "-")) && (sawTime || offset == 0) && i + 1 < n && s[i + 1] >= 48 && s[i + 1] <= 57 {
                let neg = c == UInt8(ascii: "-")
                i += 1
                var v: Int64 = 0
                var cnt = 0
                while i < n && s[i] >= 48 && s[i] <= 57 { v = v * 10 + Int64(s[i] - 48); i += 1; cnt += 1 }
                var mins: Int64
                if i < n && s[i] == UInt8(ascii: ":") {
                    i += 1
                    var m: Int64 = 0
                    while i < n && s[i] >= 48 && s[i] <= 57 { m = m * 10 + Int64(s[i] - 48); i += 1 }
                    mins = v * 60 + m
                } else if cnt <= 2 { mins = v * 60 } else { mins = (v / 100) * 60 + v % 100 }
                offset = (neg ? -1 : 1) * mins * 60000
                continue
            }
            if (c | 0x20) >= 97 && (c | 0x20) <= 122 {
                var w: [UInt8] = []
                while i < n && (s[i] | 0x20) >= 97 && (s[i] | 0x20) <= 122 { w.append(s[i] | 0x20); i += 1 }
                let word = String(decoding: w, as: UTF8.self)
                if word == "am" || word == "pm" { pm = word == "pm"; continue }
                if word == "z" || word == "gmt" || word == "utc" || word == "ut" { offset = 0; continue }
                let zones: [String: Int64] = ["est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7]
                if let z = zones[word] { offset = z * 3600000; continue }
                if word == "t" && sawTime == false { continue }
                if w.count >= 3 {
                    let p = String(word.prefix(3))
                    if let mi = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].firstIndex(of: p) {
                        month = Int64(mi); continue
                    }
                    if ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].contains(p) { continue }
                }
                return .nan
            }
            i += 1
        }
        var year: Int64, mon: Int64, day: Int64
        if let m = month {
            guard numbers.count >= 1 && numbers.count <= 2 else { return .nan }
            mon = m
            if numbers.count == 1 { day = 1; year = numbers[0].0 }
            else if numbers[0].1 >= 3 { year = numbers[0].0; day = numbers[1].0 }
            else { day = numbers[0].0; year = numbers[1].0 }
        } else {
            guard numbers.count == 3 else { return .nan }
            if numbers[0].1 >= 3 { year = numbers[0].0; mon = numbers[1].0 - 1; day = numbers[2].0 }
            else { mon = numbers[0].0 - 1; day = numbers[1].0; year = numbers[2].0 }
        }
        if numbers.count > 0, year < 100, (numbers.last!.1 <= 2) { year += year < 50 ? 2000 : 1900 }
        if mon < 0 || mon > 11 || day < 1 || day > 31 { return .nan }
        var h: Int64 = 0, mi: Int64 = 0, sec: Int64 = 0, ms: Int64 = 0
        if time.count >= 2 { h = time[0]; mi = time[1] }
        if time.count >= 3 { sec = time[2] }
        if time.count >= 4 { ms = time[3] }
        if let p = pm {
            if h > 12 { return .nan }
            if p && h < 12 { h += 12 } else if !p && h == 12 { h = 0 }
        }
        if h > 24 || mi > 59 || sec > 59 { return .nan }
        var t = makeDate(Double(daysFromCivil(year, mon + 1, day)), makeTime(Double(h), Double(mi), Double(sec), Double(ms)))
        if let o = offset { t -= Double(o) } else { t = utc(t) }
        return timeClip(t)
    }
}

extension Double {
    func clamped(_ lo: Double, _ hi: Double) -> Double { self < lo ? lo : (self > hi ? hi : self) }
}

extension Runtime {
    func thisTimeValue(_ this: Value, _ name: String) throws(JSException) -> Double {
        if isObject(this), JSObject(this).kind == .date { return JSObject(this).extraValue(1).asNumber }
        throw try typeError("this is not a Date object.")
    }

    static func currentTimeMs() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return (Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec / 1_000_000)).rounded(.down)
    }

    func makeDateObject(_ tv: Double, newTarget: Value) throws(JSException) -> JSObject {
        let proto = Value(cell: try prototypeFromConstructor(newTarget, realm.datePrototype).cell)
        heap.pushRoot(proto)
        defer { heap.popRoots(1) }
        let o = try allocateObject(.date, shape: try rootShape(for: proto))
        o.setExtraValue(1, Value(tv))
        o.setExtraValue(2, .undefined)
        return o
    }

    /// ToPrimitive with @@toPrimitive (falls back to OrdinaryToPrimitive).
    func toPrimitiveWithExoticHint(_ v: Value, _ hint: PreferredType) throws(JSException) -> Value {
        if wellKnown.toPrimitive.isCell, let exotic = try getMethod(v, symbolKey(wellKnown.toPrimitive)) {
            let h = try makeString(hint == .string ? "string" : (hint == .number ? "number" : "default"))
            let r = try call(exotic, this: v, h)
            if isObject(r) { throw try typeError("Cannot convert object to primitive value") }
            return r
        }
        return try ordinaryToPrimitive(v, hint == .none ? .number : hint)
    }

    /// Loads the local time zone (glibc reads it once, then only its cached rules): at
    /// realm creation, before any lockdown, even though Date itself is installed lazily.
    static func loadTimeZone() {
        tzset()
        _ = DateMath.offset(atUTC: Runtime.currentTimeMs())
    }

    func installDate() throws(JSException) {
        let proto = try newObject()
        realm.datePrototype = proto
        let ctor = try constructor("Date", length: 7, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            if newTarget.isUndefined { return try rt.makeString(DateMath.toDateString(Runtime.currentTimeMs())) }
            var tv: Double
            if args.count == 0 {
                tv = Runtime.currentTimeMs()
            } else if args.count == 1 {
                let v = args[0]
                if rt.isObject(v), JSObject(v).kind == .date {
                    tv = JSObject(v).extraValue(1).asNumber
                } else {
                    let p = try rt.toPrimitive(v)
                    if rt.isString(p) { tv = DateMath.parse(try rt.flatten(p).codeUnits) } else { tv = try rt.toNumber(p) }
                }
                tv = DateMath.timeClip(tv)
            } else {
                tv = DateMath.timeClip(DateMath.utc(try rt.dateFromComponents(args)))
            }
            return Value(cell: try rt.makeDateObject(tv, newTarget: newTarget).cell)
        }
        try method(ctor, "now", 0) { _, _, _, _ throws(JSException) in Value(Runtime.currentTimeMs()) }
        try method(ctor, "parse", 1) { rt, _, args, _ throws(JSException) in
            Value(DateMath.parse(try rt.flatten(try rt.toString(rt.arg(args, 0))).codeUnits))
        }
        try method(ctor, "UTC", 7) { rt, _, args, _ throws(JSException) in
            Value(DateMath.timeClip(try rt.dateFromComponents(args)))
        }

        // Getters.
        typealias Getter = (Double) -> Double
        let getters: [(String, Bool, Getter)] = [
            ("getDate", true, { Double(DateMath.components($0).date) }),
            ("getDay", true, { Double(DateMath.components($0).wd) }),
            ("getFullYear", true, { Double(DateMath.components($0).year) }),
            ("getHours", true, { Double(DateMath.components($0).h) }),
            ("getMilliseconds", true, { Double(DateMath.components($0).ms) }),
            ("getMinutes", true, { Double(DateMath.components($0).m) }),
            ("getMonth", true, { Double(DateMath.components($0).month) }),
            ("getSeconds", true, { Double(DateMath.components($0).s) }),
            ("getUTCDate", false, { Double(DateMath.components($0).date) }),
            ("getUTCDay", false, { Double(DateMath.components($0).wd) }),
            ("getUTCFullYear", false, { Double(DateMath.components($0).year) }),
            ("getUTCHours", false, { Double(DateMath.components($0).h) }),
            ("getUTCMilliseconds", false, { Double(DateMath.components($0).ms) }),
            ("getUTCMinutes", false, { Double(DateMath.components($0).m) }),
            ("getUTCMonth", false, { Double(DateMath.components($0).month) }),
            ("getUTCSeconds", false, { Double(DateMath.components($0).s) }),
            ("getYear", true, { Double(DateMath.components($0).year - 1900) }),
        ]
        for (name, local, f) in getters {
            try method(proto, name, 0) { rt, this, _, _ throws(JSException) in
                let t = try rt.thisTimeValue(this, name)
                if t.isNaN { return Value(Double.nan) }
                return Value(f(local ? DateMath.localTime(t) : t))
            }
        }
        try method(proto, "getTime", 0) { rt, this, _, _ throws(JSException) in Value(try rt.thisTimeValue(this, "getTime")) }
        try method(proto, "valueOf", 0) { rt, this, _, _ throws(JSException) in Value(try rt.thisTimeValue(this, "valueOf")) }
        try method(proto, "getTimezoneOffset", 0) { rt, this, _, _ throws(JSException) in
            let t = try rt.thisTimeValue(this, "getTimezoneOffset")
            if t.isNaN { return Value(Double.nan) }
            return Value((t - DateMath.localTime(t)) / 60000)
        }

        // Setters: (name, first component, max argument count, local).
        let setters: [(String, Int, Int, Bool)] = [
            ("setMilliseconds", 6, 1, true), ("setSeconds", 5, 2, true), ("setMinutes", 4, 3, true),
            ("setHours", 3, 4, true), ("setDate", 2, 1, true), ("setMonth", 1, 2, true), ("setFullYear", 0, 3, true),
            ("setUTCMilliseconds", 6, 1, false), ("setUTCSeconds", 5, 2, false), ("setUTCMinutes", 4, 3, false),
            ("setUTCHours", 3, 4, false), ("setUTCDate", 2, 1, false), ("setUTCMonth", 1, 2, false), ("setUTCFullYear", 0, 3, false),
        ]
        for (name, first, count, local) in setters {
            try method(proto, name, count) { rt, this, args, _ throws(JSException) in
                var t = try rt.thisTimeValue(this, name)
                var vals: [Double?] = []
                for i in 0..<count { vals.append(i == 0 || i < args.count ? try rt.toNumber(rt.arg(args, i)) : nil) }
                if t.isNaN {
                    if first != 0 { return Value(Double.nan) }
                    t = 0
                } else if local {
                    t = DateMath.localTime(t)
                }
                let c = DateMath.components(t)
                var comps = [Double(c.year), Double(c.month), Double(c.date), Double(c.h), Double(c.m), Double(c.s), Double(c.ms)]
                for i in 0..<count { if let v = vals[i] { comps[first + i] = v } }
                let date = DateMath.makeDate(DateMath.makeDay(comps[0], comps[1], comps[2]),
                                             DateMath.makeTime(comps[3], comps[4], comps[5], comps[6]))
                let u = DateMath.timeClip(local ? DateMath.utc(date) : date)
                JSObject(this).setExtraValue(1, Value(u))
                return Value(u)
            }
        }
        try method(proto, "setTime", 1) { rt, this, args, _ throws(JSException) in
            _ = try rt.thisTimeValue(this, "setTime")
            let t = DateMath.timeClip(try rt.toNumber(rt.arg(args, 0)))
            JSObject(this).setExtraValue(1, Value(t))
            return Value(t)
        }
        try method(proto, "setYear", 1) { rt, this, args, _ throws(JSException) in
            var t = try rt.thisTimeValue(this, "setYear")
            let y = try rt.toNumber(rt.arg(args, 0))
            t = t.isNaN ? 0 : DateMath.localTime(t)
            if y.isNaN { JSObject(this).setExtraValue(1, Value(Double.nan)); return Value(Double.nan) }
            var yyyy = y
            let yi = y.rounded(.towardZero)
            if yi >= 0 && yi <= 99 { yyyy = 1900 + yi }
            let c = DateMath.components(t)
            let d = DateMath.makeDay(yyyy, Double(c.month), Double(c.date))
            let u = DateMath.timeClip(DateMath.utc(DateMath.makeDate(d, DateMath.timeWithinDay(t))))
            JSObject(this).setExtraValue(1, Value(u))
            return Value(u)
        }

        // String conversions.
        let formats: [(String, (Double) -> String)] = [
            ("toString", { DateMath.toDateString($0) }),
            ("toDateString", { $0.isNaN ? "Invalid Date" : DateMath.dateString(DateMath.localTime($0)) }),
            ("toTimeString", { $0.isNaN ? "Invalid Date" : DateMath.timeString(DateMath.localTime($0)) + DateMath.timeZoneString($0) }),
            ("toUTCString", { DateMath.toUTCString($0) }),
            ("toLocaleString", { $0.isNaN ? "Invalid Date" : DateMath.localeDate(DateMath.localTime($0)) + ", " + DateMath.localeTime(DateMath.localTime($0)) }),
            ("toLocaleDateString", { $0.isNaN ? "Invalid Date" : DateMath.localeDate(DateMath.localTime($0)) }),
            ("toLocaleTimeString", { $0.isNaN ? "Invalid Date" : DateMath.localeTime(DateMath.localTime($0)) }),
        ]
        for (name, f) in formats {
            let fn = try method(proto, name, 0) { rt, this, _, _ throws(JSException) in
                try rt.makeString(f(try rt.thisTimeValue(this, name)))
            }
            if name == "toUTCString" { try put(proto, "toGMTString", Value(cell: fn.cell)) }
        }
        try method(proto, "toISOString", 0) { rt, this, _, _ throws(JSException) in
            let t = try rt.thisTimeValue(this, "toISOString")
            if !t.isFinite { throw try rt.rangeError("Invalid time value") }
            return try rt.makeString(DateMath.toISOString(t))
        }
        try method(proto, "toJSON", 1) { rt, this, _, _ throws(JSException) in
            let o = try rt.toObject(this)
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let tv = try rt.toPrimitive(Value(cell: o.cell), .number)
            if tv.isNumber && !tv.asNumber.isFinite { return .null }
            let f = try rt.get(o, rt.key(static: "toISOString"), receiver: Value(cell: o.cell))
            if !rt.isCallable(f) { throw try rt.typeError("toISOString is not a function") }
            return try rt.call(f, this: Value(cell: o.cell))
        }
        let toPrim = try makeNativeFunction("[Symbol.toPrimitive]", length: 1) { rt, this, args, _ throws(JSException) in
            guard rt.isObject(this) else { throw try rt.typeError("Date.prototype[Symbol.toPrimitive] called on non-object") }
            let h = rt.arg(args, 0)
            guard rt.isString(h) else { throw try rt.typeError("Invalid hint") }
            let hs = try rt.flatten(h).swiftString
            let hint: PreferredType
            switch hs {
            case "string", "default": hint = .string
            case "number": hint = .number
            default: throw try rt.typeError("Invalid hint: \(hs)")
            }
            return try rt.ordinaryToPrimitive(this, hint)
        }
        try defineOwnProperty(proto, symbolKey(wellKnown.toPrimitive), .data(Value(cell: toPrim.cell), [.configurable]))
    }

    /// The local time value of Date(year, month[, date, hours, minutes, seconds, ms]) arguments.
    func dateFromComponents(_ args: UnsafeBufferPointer<Value>) throws(JSException) -> Double {
        var v = [Double](repeating: 0, count: 7)
        v[2] = 1
        for i in 0..<min(args.count, 7) { v[i] = try toNumber(args[i]) }
        if args.count == 0 { v[0] = .nan }
        if !v[0].isNaN {
            let yi = v[0].rounded(.towardZero)
            if yi >= 0 && yi <= 99 { v[0] = 1900 + yi }
        }
        return DateMath.makeDate(DateMath.makeDay(v[0], v[1], v[2]), DateMath.makeTime(v[3], v[4], v[5], v[6]))
    }
}
