import MotionGestures
import MotionPluginHost
import MotionInput
import MotionLua
#if canImport(Glibc)
import Glibc
#endif

/// One scenario's run inside a worker process: its script over its events, under the time
/// limit, memory cap and output caps.
enum ScenarioExecution {
    /// The one place a scenario's Lua runtime is made: settings that shape every scenario's
    /// runtime go here.
    static func makeRuntime(for job: ScenarioJob, output: MotionOutput) throws -> LuaRuntime {
        try LuaRuntime(scriptPath: job.script, output: output, memoryLimit: job.memoryLimit, sandbox: job.sandbox)
    }

    /// Runs `job`, sending its output to `channel` as it comes.
    static func run(_ job: ScenarioJob, channel: Int32) -> ScenarioReply {
        var notes: [String] = []
        do {
            try run(job, notes: &notes) { WorkerMessage.sendOutput($0, to: channel) }
            return .finished(notes: notes)
        } catch let error as ScriptError {
            let kind: String
            switch error.kind {
            case .syntax: kind = "syntax"
            case .runtime: kind = "runtime"
            case .timeout: kind = "timeout"
            case .memory: kind = "memory"
            }
            return .failed(kind: kind, message: error.message, notes: notes)
        } catch let error as OutputOverflow {
            return .failed(kind: "output", message: error.message, notes: notes)
        } catch let error as InputError {
            return .failed(kind: "input", message: "\(error)", notes: notes)
        } catch {
            return .failed(kind: "other", message: "\(error)", notes: notes)
        }
    }

    /// Runs the script over the events; its output goes to `send` in chunks of whole lines.
    /// `notes` gets what the batch says of the scenario however it ends (its stderr is only
    /// kept for the JUnit report): a recognizer's `apps =` decided with the focus unknown, the
    /// likely reason an older scenario's gesture no longer begins.
    static func run(_ job: ScenarioJob, notes: inout [String], send: @escaping (UnsafeBufferPointer<UInt8>) -> Bool) throws {
        if !job.directory.isEmpty, chdir(job.directory) != 0 {
            throw InputError(file: job.directory, "cannot enter the scenario's folder: \(String(cString: strerror(errno)))")
        }
        let input = try ScenarioSurface.options(for: job.script, base: job.input)
        let app = try ScenarioSurface.app(for: job.script) ?? (job.app.isEmpty ? nil : job.app)
        let proxyFrom = try ScenarioSurface.proxy(for: job.script)
        let source = try Replay.openEvents(path: job.events, options: input)
        let output = CappedOutput(maxLines: job.maxOutputLines, maxBytes: job.maxOutputBytes, send: send)
        let runtime = try makeRuntime(for: job, output: output)
        defer { runtime.close() }
        defer { if runtime.appsMetUnknownFocus { notes.append(LuaRuntime.unknownFocusNote) } }
        Replay.setScreen(of: runtime, input, source: source)
        if let app { runtime.fixFocusedApp(AppInfo(id: app)) }
        // Stops Lua code at once (its hook sees the deadline passed) and fails what remains.
        output.onOverflow = { [unowned runtime, unowned output] in
            runtime.setTimeout(1e-9)
            runtime.fail(.memory, "\(job.script): \(output.overflowReason)")
        }
        let deadline = job.timeout > 0 ? Clock.monotonic() + job.timeout : .infinity
        runtime.setTimeout(job.timeout)
        do {
            try runtime.load()
            if let proxyFrom {
                // `-- proxy:`: the clone's decisions are output lines the expected file pins.
                let proxy = try ProxyReplay(source: source, eventsPath: job.events, outputPath: nil, from: proxyFrom,
                                            line: { [unowned output] in output.emit(t: $0, name: "proxy", value: $1) },
                                            consumers: { [unowned runtime] visit in for r in runtime.dispatcher.recognizers { visit(r) } })
                try Replay.feed(source, to: ProxiedTarget(runtime, proxy: proxy), timeout: job.timeout, deadline: deadline)
            } else {
                try Replay.feed(source, to: runtime, timeout: job.timeout, deadline: deadline)
            }
        } catch is ScriptError where output.overflowed {
            throw OutputOverflow(message: "\(job.script): \(output.overflowReason)")
        }
        if output.overflowed { throw OutputOverflow(message: "\(job.script): \(output.overflowReason)") }
        output.flush()
    }

    struct OutputOverflow: Error {
        let message: String
    }
}
