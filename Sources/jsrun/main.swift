import JSRunCLI
#if canImport(Glibc)
import Glibc
#endif
exit(JSRun.main(CommandLine.arguments))
