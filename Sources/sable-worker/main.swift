// sable-worker: the content, networking and rendering roles of the Sable Browser without the
// host's code (HostCore, the profile database through GRDB and with it Foundation, the
// WebDriver server on SwiftNIO, the window): each of these processes maps ~10 MB less than
// the `sable` binary in the same role. The host launches it when it sits next to `sable`
// (`Browser.Options.defaultExecutable`), as `sable-worker --lockdown-worker HOST_PID --role ROLE`;
// `sable` itself still serves the roles (tests launch it directly).

#if canImport(Glibc)
import Glibc
#endif
import Lockdown
import NetworkingCore
import RenderingCore
import WebContentCore

let arguments = CommandLine.arguments
guard arguments.count >= 5, arguments[1] == WorkerProcess.workerFlag, let parent = Int32(arguments[2]), arguments[3] == "--role" else {
    let text = "sable-worker: started by the sable host only (--lockdown-worker HOST_PID --role content|networking|rendering)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
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
