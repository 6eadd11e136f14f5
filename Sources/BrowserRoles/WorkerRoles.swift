// The worker roles of the Sable Browser, as both `sable` and `sable-worker` serve them: a
// process started as `--lockdown-worker HOST_PID --role content|networking|rendering
// [--profile DIR]` runs that role's main and exits with its status.

#if canImport(Glibc)
import Glibc
#endif
import JSSyntax
import Lockdown
import NetworkingCore
import RenderingCore
import WebContentCore

public enum WorkerRoles {
    /// Runs the role the arguments name and exits; returns when they do not name one
    /// (the process is not a worker).
    public static func runIfWorker(_ arguments: [String]) {
        guard arguments.count >= 5, arguments[1] == WorkerProcess.workerFlag, let parent = Int32(arguments[2]),
              arguments[3] == "--role" else { return }
        var profile: String?
        if arguments.count >= 7, arguments[5] == "--profile" { profile = arguments[6] }
        switch arguments[4] {
        case "content":
            // Pages run scripts on this thread: the same deep stack as jsrun's worker, so
            // deep but legitimate programs compile and run here too (issue 15).
            StackGuard.reserveMainThreadStack()
            exit(ContentProcess.roleMain(socketFD: WorkerDescriptors.socket, reportFD: WorkerDescriptors.report, parent: parent))
        case "networking":
            exit(NetworkingProcess.roleMain(controlFD: WorkerDescriptors.socket, profileDirectory: profile))
        case "rendering":
            exit(RenderingProcess.roleMain(controlFD: WorkerDescriptors.socket))
        default:
            exit(2)
        }
    }
}
