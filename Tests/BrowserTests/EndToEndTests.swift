import Foundation
import Testing
import CPangoCairo
import Lockdown

/// `sable --headless --screenshot` against a local python3 http.server: the PNG's pixels,
/// and the process tree while it runs (four roles, the content process locked).
@Suite(.serialized) struct EndToEndTests {
    static let page = """
        <!doctype html><html><head><title>End to end</title></head>
        <body style="background-color: #ffffff">
        <h1>Sable end to end</h1>
        <div style="background-color: #0000ff; color: #ffffff">a blue box</div>
        <p>Some text that the rendering process measured.</p>
        </body></html>
        """

    func startServer(root: String) throws -> (Process, Int) {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let port = text.split(separator: " ").firstIndex(of: "port").flatMap { i in
            Int(text.split(separator: " ")[i + 1])
        }
        return (server, try #require(port))
    }

    @Test func screenshotOfAPageServedOverHTTP() throws {
        let dir = NSTemporaryDirectory() + "sable-e2e-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.page.write(toFile: dir + "/index.html", atomically: true, encoding: .utf8)
        let (server, port) = try startServer(root: dir)
        // SIGKILL: SIGTERM may be blocked in the mask the test runner's children inherit.
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }

        let png = dir + "/shot.png"
        let log = dir + "/sable.out"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let sable = Process()
        sable.executableURL = URL(fileURLWithPath: sablePath)
        sable.arguments = ["--headless", "--screenshot", png, "http://127.0.0.1:\(port)/index.html", "--linger", "3"]
        sable.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try sable.run()
        defer { if sable.isRunning { kill(sable.processIdentifier, SIGKILL) } }

        // The "processes: host H networking N rendering R content C" line.
        var pids: [String: Int32] = [:]
        let end = Date().addingTimeInterval(30)
        while pids.count < 4 && Date() < end {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("processes:") }) {
                let words = line.split(separator: " ").map(String.init)
                for (i, w) in words.enumerated() where i + 1 < words.count {
                    if let pid = Int32(words[i + 1]), ["host", "networking", "rendering", "content"].contains(w) { pids[w] = pid }
                }
            }
            usleep(50_000)
        }
        try #require(pids.count == 4, "sable printed: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        #expect(pids["host"] == sable.processIdentifier)
        // Four roles: the host and its three children, named by --role.
        for role in ["networking", "rendering", "content"] {
            let cmdline = (try? String(contentsOfFile: "/proc/\(pids[role]!)/cmdline", encoding: .utf8)) ?? ""
            #expect(cmdline.split(separator: "\0").contains { $0 == role }, "\(role): \(cmdline)")
            let stat = (try? String(contentsOfFile: "/proc/\(pids[role]!)/stat", encoding: .utf8)) ?? ""
            let ppid = stat.split(separator: ")").last?.split(separator: " ").dropFirst(1).first
            #expect(ppid.map(String.init) == String(sable.processIdentifier))
        }
        let content = try #require(ProcessInspection.inspect(pid: pids["content"]!))
        #expect(content.seccompMode == 2)
        #expect(content.writableExecutableMappings.isEmpty)
        #expect(ProcessInspection.inspect(pid: pids["networking"]!)?.seccompMode == 0)
        sable.waitUntilExit()
        #expect(sable.terminationStatus == 0)

        // Pixels: the blue box under the heading, dark text in the heading, white margins.
        let surface = cairo_image_surface_create_from_png(png)
        defer { cairo_surface_destroy(surface) }
        try #require(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
        #expect(cairo_image_surface_get_width(surface) == 800)
        let data = try #require(cairo_image_surface_get_data(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        func pixel(_ x: Int, _ y: Int) -> UInt32 {
            UnsafeRawPointer(data).load(fromByteOffset: y * stride + x * 4, as: UInt32.self) & 0xFF_FF_FF
        }
        #expect(pixel(2, 2) == 0xFF_FF_FF)
        var blueRows = 0, darkInHeading = 0
        for y in 0..<200 where pixel(400, y) == 0x00_00_FF { blueRows += 1 }
        for y in 20..<60 { for x in 8..<300 where pixel(x, y) & 0xFF < 0x40 { darkInHeading += 1 } }
        #expect(blueRows >= 15)
        #expect(darkInHeading > 200)
    }
}
