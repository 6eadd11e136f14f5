// sable-worker: the content, networking and rendering roles of the Sable Browser without the
// host's code (HostCore, the profile database through GRDB and with it Foundation, the
// WebDriver server on SwiftNIO, the window): each of these processes maps ~10 MB less than
// the `sable` binary in the same role. The host launches it when it sits next to `sable`
// (`Browser.Options.defaultExecutable`), as `sable-worker --lockdown-worker HOST_PID --role ROLE`;
// `sable` itself still serves the roles (tests launch it directly).

#if canImport(Glibc)
import Glibc
#endif
import BrowserRoles

WorkerRoles.runIfWorker(CommandLine.arguments)
let text = "sable-worker: started by the sable host only (--lockdown-worker HOST_PID --role content|networking|rendering)\n"
_ = text.withCString { write(2, $0, strlen($0)) }
exit(2)
