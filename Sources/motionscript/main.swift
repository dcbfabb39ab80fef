import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

// Exit codes: 0 success, 1 a script raised or a scenario failed, 2 bad usage or bad input.
if let problem = RepeatedOptions.problem(in: Array(CommandLine.arguments.dropFirst())) {
    fputs("Error: \(problem)\n", stderr)
    exit(2)
}
do {
    var command = try Motionscript.parseAsRoot()
    try command.run()
} catch let code as ExitCode {
    exit(code.rawValue)
} catch {
    let code = Motionscript.exitCode(for: error)
    if code == .success {
        print(Motionscript.fullMessage(for: error))
        exit(0)
    }
    fputs(Motionscript.fullMessage(for: error) + "\n", stderr)
    exit(code == .validationFailure ? 2 : code.rawValue)
}
