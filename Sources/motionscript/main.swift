import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

// Exit codes: 0 success, 1 a script raised or a scenario failed, 2 bad usage or bad input.
// Every error line starts "error: ", whether the parser or a command found it.
if let problem = RepeatedOptions.problem(in: Array(CommandLine.arguments.dropFirst())) {
    StandardError.write("error: \(problem)\n")
    exit(2)
}
do {
    let arguments = CtlArguments.normalized(Array(CommandLine.arguments.dropFirst()))
    let split = ScriptArguments.split(arguments)
    var command = try Motionscript.parseAsRoot(split?.parsed ?? arguments)
    if let split, var taking = command as? any TakesScriptArguments & ParsableCommand {
        taking.scriptArguments = split.script
        command = taking
    }
    do {
        try command.run()
    } catch let error as ValidationError {
        // Bad arguments a command finds while running get its own usage, as parse errors do.
        let type = type(of: command)
        let name = type.configuration.commandName.map { "motionscript \($0)" } ?? "motionscript"
        StandardError.write("error: \(error.message)\nUsage: \(Motionscript.usageString(for: type))\n"
              + "  See '\(name) --help' for more information.\n")
        exit(2)
    }
} catch let code as ExitCode {
    exit(code.rawValue)
} catch {
    let code = Motionscript.exitCode(for: error)
    if code == .success {
        print(Motionscript.fullMessage(for: error))
        exit(0)
    }
    var message = Motionscript.fullMessage(for: error)
    if message.hasPrefix("Error: ") { message = "error: " + message.dropFirst(7) }
    StandardError.write(message + "\n")
    exit(code == .validationFailure ? 2 : code.rawValue)
}
