// sable-contentblock: eval | compile | match — a thin command over the ContentBlocker library.
import ContentBlocker
#if canImport(Glibc)
import Glibc
#endif

exit(Command.run(CommandLine.arguments))
