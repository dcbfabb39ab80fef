import Foundation
import Testing
import MotionDaemon

/// A plugin cannot make the daemon wait on a file: a FIFO with no writer (open(2) waits for
/// one), a terminal or a device (a read waits for input), stdin. Each way of opening a file
/// refuses them at once, naming the plugin and the path; regular files read as ever.
@Suite struct BlockingFileTests {
    @Test func aFIFOADeviceAndStdinAreRefusedAtOnceAndRegularFilesStillRead() throws {
        let config = TestConfig(["good.lua": echoPlugin, "lib/text.lua": "return 'module'", "lib/data.txt": "one\ntwo\n"])
        let fifo = config.path + "/lib/fifo.lua"
        #expect(mkfifo(fifo, 0o600) == 0)
        config.write("bad.lua", """
            local fifo, data = \(PluginProfileTestNames.literal(fifo)), \(PluginProfileTestNames.literal(config.path + "/lib/data.txt"))
            package.path = \(PluginProfileTestNames.literal(config.path + "/?.lua"))
            local function try(f, ...)
              local r = table.pack(pcall(f, ...))
              for i = 1, r.n do r[i] = tostring(r[i]) end
              return table.concat(r, " ", 1, r.n)
            end
            motion.emit("open", try(io.open, fifo))
            motion.emit("open w", try(io.open, fifo, "w"))
            motion.emit("lines", try(io.lines, fifo))
            motion.emit("loadfile", try(loadfile, fifo))
            motion.emit("dofile", try(dofile, fifo))
            motion.emit("require", try(require, "lib.fifo"))
            motion.emit("output", try(io.output, fifo))
            motion.emit("device", try(io.open, "/dev/null"))
            motion.emit("stdin", try(io.stdin.read, io.stdin, "l"))
            motion.emit("input", try(function() return io.input():read("a") end))
            motion.emit("loadfile stdin", try(loadfile))
            motion.emit("read", try(io.read))
            motion.emit("lines stdin", try(io.lines))
            -- Regular files, as before.
            local f = assert(io.open(data))
            motion.emit("regular", f:read("a"))
            f:close()
            local n = 0
            for line in io.lines(data) do n = n + 1 end
            motion.emit("lines regular", n)
            motion.emit("module", require("lib.text"))
            motion.emit("missing", try(io.open, data .. ".missing"))
            motion.pointers():subscribe(function(p) motion.emit("p", p.phase) end)
            """)
        let (host, _) = config.host()
        let start = Date()
        host.loadAll()
        host.run(taps(2))
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(host.plugin(named: "bad")?.state == .running)
        let values = Dictionary(host.lines(of: "bad").compactMap { line -> (String, String)? in
            guard let name = line.range(of: #""name":""#), let value = line.range(of: #","value":"#) else { return nil }
            return (String(line[name.upperBound..<line[name.upperBound...].firstIndex(of: "\"")!]), String(line[value.upperBound...].dropLast()))
        }, uniquingKeysWith: { a, _ in a })
        let refusal = "a FIFO, not a regular file: a plugin (bad) opens regular files only: reading anything else can block every plugin"
        #expect(values["open"] == #""true nil \#(fifo): \#(refusal)""#, "\(values)")
        #expect(values["open w"]?.contains("No such device or address") == true || values["open w"]?.contains(refusal) == true, "\(values)")
        #expect(values["lines"] == #""false cannot open file '\#(fifo)' (\#(refusal))""#, "\(values)")
        #expect(values["loadfile"] == #""true nil cannot open \#(fifo): \#(refusal)""#, "\(values)")
        #expect(values["dofile"] == #""false cannot open \#(fifo): \#(refusal)""#, "\(values)")
        #expect(values["require"]?.contains("error loading module 'lib.fifo' from file '\(fifo)':") == true, "\(values)")
        #expect(values["require"]?.contains(refusal) == true, "\(values)")
        #expect(values["output"]?.hasPrefix(#""false "#) == true, "\(values)")
        #expect(values["device"] == #""true nil /dev/null: a character device, not a regular file: a plugin (bad) opens regular files only: reading anything else can block every plugin""#, "\(values)")
        #expect(values["stdin"] == #""true nil""#, "\(values)")
        #expect(values["input"] == #""true ""#, "\(values)")
        #expect(values["loadfile stdin"] == #""true nil cannot read stdin: a plugin (bad) opens regular files only: reading anything else can block every plugin""#, "\(values)")
        #expect(values["read"]?.contains("io.read is not available to a plugin (bad)") == true, "\(values)")
        #expect(values["lines stdin"]?.contains("io.lines() on stdin is not available to a plugin (bad)") == true, "\(values)")
        #expect(values["regular"] == #""one\ntwo\n""#, "\(values)")
        #expect(values["lines regular"] == "2", "\(values)")
        #expect(values["module"] == #""module""#, "\(values)")
        #expect(values["missing"] == #""true nil \#(config.path)/lib/data.txt.missing: No such file or directory 2""#, "\(values)")
        #expect(host.lines(of: "bad").filter { $0.contains(#""name":"p""#) }.count == 4)
        #expect(host.lines(of: "good").count == 1 + 4)
    }

    /// A plugin file that turns into a FIFO (the listing skips one, an edit can make one) is not
    /// read — reading it would wait for a writer — but failed with what it is.
    @Test func aPluginFileThatIsAFIFOFailsWithoutBeingRead() throws {
        let config = TestConfig(["good.lua": echoPlugin])
        let (host, _) = config.host()
        host.loadAll()
        #expect(mkfifo(config.path + "/pipe.lua", 0o600) == 0)
        host.filesChanged([config.file("pipe.lua")])
        host.run(taps(1))
        #expect(host.lines(of: "pipe") == [#"{"t":0,"plugin":"pipe","status":"failed","version":0,"error":"\#(config.file("pipe.lua")): a FIFO, not a regular file: a plugin is a regular file"}"#])
        #expect(host.lines(of: "good").count == 1 + 2)
    }
}

enum PluginProfileTestNames {
    /// A Lua string literal (paths of the temporary folder hold only plain characters).
    static func literal(_ text: String) -> String { "\"" + text + "\"" }
}
