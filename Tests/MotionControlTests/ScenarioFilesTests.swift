import XCTest
import Foundation
import MotionControl
import MotionDaemon
import MotionGestures
import MotionInput
#if canImport(Glibc)
import Glibc
#endif

/// `ctl scenario` writes Lua and JSON naming plugins whose names may hold any byte but '/', and
/// writes its three files all or none.
final class ScenarioFilesTests: XCTestCase {
    var folder = ""

    override func setUp() {
        folder = NSTemporaryDirectory() + "scenario-files-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: folder + "/config", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    /// A recording of one touch (down, lift).
    func record(_ path: String) throws {
        var d = DeviceDescription()
        d.name = "Pad"
        d.add(type: 1, code: 0x14a)
        for code: UInt16 in [0, 1] {
            d.add(type: 3, code: code)
            d.absinfo[code] = AbsInfo(minimum: 0, maximum: 1000)
        }
        let writer = try EvemuWriter(path: path, device: d)
        for e in [InputEventRecord(sec: 5, usec: 0, type: 1, code: 0x14a, value: 1), InputEventRecord(sec: 5, usec: 0, type: 3, code: 0, value: 100),
                  InputEventRecord(sec: 5, usec: 0, type: 3, code: 1, value: 200), InputEventRecord(sec: 5, usec: 0, type: 0, code: 0, value: 0),
                  InputEventRecord(sec: 5, usec: 10_000, type: 1, code: 0x14a, value: 0), InputEventRecord(sec: 5, usec: 10_000, type: 0, code: 0, value: 0)] {
            try writer.write(e)
        }
        try writer.close()
    }

    func listing(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func testControlBytesInAPluginsNameAreEscaped() throws {
        let name = "a\rb\u{1}\u{7f}c"
        try #"motion.pointers():subscribe(function(p) motion.emit("p", p.phase) end)"#
            .write(toFile: folder + "/config/" + name + ".lua", atomically: false, encoding: .utf8)
        let writer = ScenarioWriter(declarations: [], input: EventFileOptions())
        let script = writer.script(folder: folder + "/config", plugins: [name], seconds: 10)
        XCTAssertTrue(script.contains(#"ipairs{ "a\rb\001\127c" }"#), script)
        XCTAssertFalse(script.utf8.contains { $0 < 0x20 && $0 != 0x0A }, "no control byte but the line ends")
        let files = try writer.write(name: "misfire", into: folder + "/out", folder: folder + "/config", plugins: [name], seconds: 10,
                                     record: record)
        XCTAssertEqual(files.map { String($0.split(separator: "/").last!) }, ["misfire.lua", "misfire.evemu", "misfire.expected.jsonl"])
        XCTAssertEqual(try String(contentsOfFile: folder + "/out/misfire.expected.jsonl", encoding: .utf8), """
            {"t":0,"name":"p","value":"down"}
            {"t":0.01,"name":"p","value":"up"}

            """)
        XCTAssertEqual(listing(folder + "/out"), ["misfire.evemu", "misfire.expected.jsonl", "misfire.lua"])
    }

    func testAFolderWithANewlineStaysInItsComment() {
        let writer = ScenarioWriter(declarations: [], input: EventFileOptions())
        let script = writer.script(folder: "/home/u/odd\nos.exit()", plugins: ["p"], seconds: 10)
        XCTAssertEqual(script.split(separator: "\n").filter { $0.hasPrefix("os.exit") }, [])
        XCTAssertTrue(script.contains(#"local folder = "/home/u/odd\nos.exit()""#), script)
    }

    func testAScenarioThatFailsLeavesNothingBehind() throws {
        try "this is not Lua".write(toFile: folder + "/config/broken.lua", atomically: false, encoding: .utf8)
        let writer = ScenarioWriter(declarations: [], input: EventFileOptions())
        XCTAssertThrowsError(try writer.write(name: "misfire", into: folder + "/out", folder: folder + "/config", plugins: ["broken"],
                                              seconds: 10, record: record)) { error in
            XCTAssertTrue("\(error)".hasPrefix("the scenario script failed over the recording: "), "\(error)")
        }
        XCTAssertEqual(listing(folder + "/out"), [], "no file left behind")
    }

    func testARecordingThatFailsLeavesNothingBehind() throws {
        try "local x = 1".write(toFile: folder + "/config/p.lua", atomically: false, encoding: .utf8)
        let writer = ScenarioWriter(declarations: [], input: EventFileOptions())
        XCTAssertThrowsError(try writer.write(name: "misfire", into: folder + "/out", folder: folder + "/config", plugins: ["p"],
                                              seconds: 10, record: { path in
            try self.record(path)
            throw ControlError("no input in the last 10 s")
        }))
        XCTAssertEqual(listing(folder + "/out"), [], "no file left behind")
    }
}
