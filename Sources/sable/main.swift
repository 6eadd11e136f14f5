// sable: the browser, one binary with four roles (as Chromium's): the host (this main
// without --role), and the content, networking and rendering processes the host launches
// as `sable --lockdown-worker HOST_PID --role ROLE` (socket to the host on 3, the
// violation-report pipe on 4). Each role is a thin call into its library.
//
// Usage: sable --headless --screenshot out.png URL|FILE [--width N] [--height N] [--profile DIR]
//              [--linger SECONDS]
//        sable --content-blocker add NAME list.json | list | remove NAME  [--profile DIR]
//              (content blockers: WebKit's JSON rule lists, compiled into the profile; the
//              networking process of a browser with that profile applies them)

#if canImport(Glibc)
import Glibc
#endif
import ContentBlocker
import HostCore
import Lockdown
import NetworkingCore
import RenderingCore
import WebContentCore

func value(_ v: String?) -> String {
    guard let v else { usage() }
    return v
}

func number<T: LosslessStringConvertible>(_ v: String?) -> T {
    guard let n = T(value(v)) else { usage() }
    return n
}

func usage() -> Never {
    let text = "usage: sable --headless --screenshot out.png URL|FILE [--width N] [--height N] [--profile DIR] [--linger SECONDS]\n"
        + "       sable --content-blocker add NAME list.json | list | remove NAME  [--profile DIR]\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

let arguments = CommandLine.arguments
if arguments.count >= 5, arguments[1] == WorkerProcess.workerFlag, let parent = Int32(arguments[2]), arguments[3] == "--role" {
    var profile: String?
    if arguments.count >= 7, arguments[5] == "--profile" { profile = arguments[6] }
    switch arguments[4] {
    case "content":
        exit(ContentProcess.roleMain(socketFD: WorkerDescriptors.socket, reportFD: WorkerDescriptors.report, parent: parent))
    case "networking":
        exit(NetworkingProcess.roleMain(controlFD: WorkerDescriptors.socket, profileDirectory: profile))
    case "rendering":
        exit(RenderingProcess.roleMain(controlFD: WorkerDescriptors.socket))
    default:
        exit(2)
    }
}

if arguments.dropFirst().contains("--content-blocker") {
    exit(ContentBlockerCommand.run(Array(arguments.dropFirst())))
}

var headless = false
var screenshot: String?
var target: String?
var options = Browser.Options()
var linger = 0.0
var rest = arguments.dropFirst()
while let a = rest.popFirst() {
    switch a {
    case "--headless": headless = true
    case "--screenshot": screenshot = value(rest.popFirst())
    case "--profile": options.profileDirectory = value(rest.popFirst())
    case let a where a.hasPrefix("--profile="): options.profileDirectory = String(a.dropFirst("--profile=".count))
    case "--width": options.viewportWidth = number(rest.popFirst())
    case "--height": options.viewportHeight = number(rest.popFirst())
    case "--linger": linger = number(rest.popFirst())
    default:
        if a.hasPrefix("--") || target != nil { usage() }
        target = a
    }
}
// A window comes later: headless is the only host for now.
guard headless, let screenshot, let target else { usage() }
signal(SIGPIPE, SIG_IGN)
exit(Headless.screenshot(target: target, output: screenshot, options: options, linger: linger))
