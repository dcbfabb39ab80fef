import MotionControl
import MotionScenarios
import XCTest
#if canImport(Glibc)
import Glibc
import MotionJSON
#endif

final class ControlServerTests: XCTestCase {
    var folder = ""

    override func setUp() {
        var template = Array("/tmp/motionscript-control-XXXXXX".utf8CString)
        folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    override func tearDown() {
        _ = try? FileManager.default.removeItem(atPath: folder)
    }

    /// Sends one raw line and serves until an answer line comes back.
    func exchange(_ server: ControlServer, _ client: RawClient, _ line: String) throws -> JSONValue {
        client.write(line + "\n")
        return try XCTUnwrap(readAnswer(server, client))
    }

    func readAnswer(_ server: ControlServer, _ client: RawClient) throws -> JSONValue? {
        for _ in 0..<200 {
            server.serve(timeout: 0.01)
            if let line = client.readLineNow() { return try JSONValue.parse(line) }
        }
        return nil
    }

    func testAnswersCarryTheRequestIdAndRefusalsSayWhy() throws {
        let target = FakeTarget()
        let server = try ControlServer(path: folder + "/control.sock", target: target)
        defer { server.close() }
        let client = try RawClient(path: server.path)
        server.serve(timeout: 0.1)

        let hello = try exchange(server, client, #"{"id":7,"command":"hello"}"#)
        XCTAssertEqual(hello["id"], .number(7))
        XCTAssertEqual(hello["ok"], .bool(true))
        XCTAssertEqual(hello["protocol"], .number(1))

        let status = try exchange(server, client, #"{"id":"s","command":"status"}"#)
        XCTAssertEqual(status["id"], .string("s"))
        XCTAssertEqual(status["status"]?["plugins"]?.arrayValue?.count, 2)
        XCTAssertEqual(status["status"]?["plugins"]?.arrayValue?[0]["name"], .string("pinch"))
        XCTAssertEqual(status["status"]?["plugins"]?.arrayValue?[0]["state"], .string("failed"))
        XCTAssertEqual(status["status"]?["devices"]?.arrayValue?[0]["kind"], .string("touchpad"))

        let reload = try exchange(server, client, #"{"id":2,"command":"reload","plugin":"swipe"}"#)
        XCTAssertEqual(reload["ok"], .bool(true))
        let unknown = try exchange(server, client, #"{"id":3,"command":"disable","plugin":"nope"}"#)
        XCTAssertEqual(unknown["ok"], .bool(false))
        XCTAssertEqual(unknown["error"], .string("no plugin named nope"))
        let noPlugin = try exchange(server, client, #"{"id":4,"command":"enable"}"#)
        XCTAssertEqual(noPlugin["error"], .string("enable needs a \"plugin\""))
        let notJSON = try exchange(server, client, "reload everything")
        XCTAssertEqual(notJSON["ok"], .bool(false))
        XCTAssertEqual(notJSON["id"], .null)
        let noId = try exchange(server, client, #"{"command":"stop"}"#)
        XCTAssertEqual(noId["error"], .string("a request needs an \"id\" (a number or a string)"))
        let eval = try exchange(server, client, #"{"id":5,"command":"eval","code":"os.exit()"}"#)
        XCTAssertEqual(eval["ok"], .bool(false))
        XCTAssertTrue(eval["error"]?.stringValue?.hasPrefix("unknown command eval") == true)
        let relative = try exchange(server, client, #"{"id":6,"command":"record","path":"f.evemu","last":10}"#)
        XCTAssertEqual(relative["ok"], .bool(false))
        _ = try exchange(server, client, #"{"id":8,"command":"pause"}"#)
        XCTAssertEqual(target.calls, ["reload swipe", "pause"])
        XCTAssertTrue(target.paused)

        let stop = try exchange(server, client, #"{"id":9,"command":"stop"}"#)
        XCTAssertEqual(stop["ok"], .bool(true))
        XCTAssertEqual(target.calls.last, "stop")
    }

    /// `ctl enable/disable/pause/resume` print what happened: the answer carries the line.
    func testEnableDisablePauseAndResumeSayWhatHappened() throws {
        let target = FakeTarget()
        let server = try ControlServer(path: folder + "/control.sock", target: target)
        defer { server.close() }
        let client = try RawClient(path: server.path)
        defer { client.close() }
        func message(_ line: String) throws -> String? { try exchange(server, client, line)["message"]?.stringValue }
        XCTAssertEqual(try message(#"{"id":1,"command":"disable","plugin":"swipe"}"#),
                       "swipe: disabled (its held keys released) until `ctl enable swipe` or its file changes")
        XCTAssertEqual(try message(#"{"id":2,"command":"enable","plugin":"swipe"}"#), "swipe: enabled (version 1 running)")
        // A plugin that did not load again says so.
        XCTAssertEqual(try message(#"{"id":3,"command":"enable","plugin":"pinch"}"#), "pinch: not running (failed)")
        XCTAssertEqual(try message(#"{"id":4,"command":"pause"}"#),
                       "paused: no plugin receives gestures, every held key released (`ctl resume` resumes)")
        XCTAssertEqual(try message(#"{"id":5,"command":"pause"}"#), "already paused")
        XCTAssertEqual(try message(#"{"id":6,"command":"resume"}"#), "resumed: gestures reach the plugins again")
        XCTAssertEqual(try message(#"{"id":7,"command":"resume"}"#), "not paused: nothing to resume")
    }

    func testTheSocketIsTheUsersAloneAndASecondDaemonIsRefused() throws {
        let path = folder + "/sub/control.sock"
        let server = try ControlServer(path: path, target: FakeTarget())
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFSOCK)
        XCTAssertEqual(stat(folder + "/sub", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)

        XCTAssertThrowsError(try ControlServer(path: path, target: FakeTarget())) { error in
            XCTAssertEqual("\(error)", "another motionscript daemon (process \(getpid())) already serves \(path); stop it first (motionscript ctl --socket \(path) stop) or choose another --socket")
        }
        // Still served by the first.
        let client = try RawClient(path: path)
        XCTAssertEqual(try exchange(server, client, #"{"id":1,"command":"hello"}"#)["ok"], .bool(true))
        client.close()

        // Once it is gone, its leftover socket file does not stand in the way.
        server.close()
        XCTAssertNoThrow(try ControlServer(path: path, target: FakeTarget()).close())
    }

    func testAPeerOfAnotherUserIsRefused() throws {
        // CI runs as root, so this runs there; elsewhere the skip says why.
        guard getuid() == 0 else {
            throw XCTSkip("runs only as root (CI is root): connecting as a second uid needs setuid; this run is uid \(getuid())")
        }
        let path = folder + "/control.sock"
        let server = try ControlServer(path: path, target: FakeTarget())
        defer { server.close() }
        // Loosen the file mode as a careless admin might: the peer check must still refuse.
        chmod(folder, 0o755)
        chmod(path, 0o666)
        let answer = try RawClient.answerAsUser(65534, path: path, request: #"{"id":1,"command":"status"}"#) {
            server.serve(timeout: 0.01)
        }
        let refusal = try JSONValue.parse(answer)
        XCTAssertEqual(refusal["ok"], .bool(false))
        XCTAssertEqual(refusal["error"], .string("refused: uid 65534 is not this daemon's user (uid 0)"))
        XCTAssertEqual(server.refusedPeers, 1)
    }

    func testLogsAreKeptAndFollowedAndMonitorStreamsOutputLines() throws {
        let server = try ControlServer(path: folder + "/control.sock", target: FakeTarget())
        defer { server.close() }
        server.publish(log: "swipe: loaded (version 1)", plugin: "swipe")
        server.publish(log: "pinch: error: pinch.lua:3: boom", plugin: "pinch")
        let client = try RawClient(path: server.path)
        let logs = try exchange(server, client, #"{"id":1,"command":"logs","plugin":"pinch","follow":true}"#)
        XCTAssertEqual(logs["lines"]?.arrayValue, [.object(["plugin": .string("pinch"), "priority": .string("error"),
                                                            "text": .string("pinch: error: pinch.lua:3: boom")])])
        server.publish(log: "swipe: warning: slow", plugin: "swipe")
        server.publish(log: "pinch: reloaded", plugin: "pinch")
        let followed = try XCTUnwrap(try readAnswer(server, client))
        XCTAssertEqual(followed["id"], .number(1))
        XCTAssertEqual(followed["log"]?["text"], .string("pinch: reloaded"))
        XCTAssertEqual(followed["log"]?["priority"], .string("info"))

        let monitor = try RawClient(path: server.path)
        XCTAssertEqual(try exchange(server, monitor, #"{"id":"m","command":"monitor","plugin":"swipe"}"#)["ok"], .bool(true))
        XCTAssertTrue(server.hasMonitors)
        server.publish(output: #"{"t":1.5,"plugin":"pinch","action":"keys","keys":"a"}"#, plugin: "pinch")
        server.publish(output: #"{"t":2,"plugin":"swipe","action":"keys","keys":"ctrl+alt+Right"}"#, plugin: "swipe")
        let line = try XCTUnwrap(try readAnswer(server, monitor))
        XCTAssertEqual(line["id"], .string("m"))
        XCTAssertEqual(line["line"]?["keys"], .string("ctrl+alt+Right"))
        XCTAssertEqual(line["line"]?["t"], .number(2))
        // A focus change is every plugin's: a monitor of one plugin sees it too.
        server.publish(output: #"{"t":3,"app":{"id":"firefox","title":"Home"}}"#, plugin: nil)
        let app = try XCTUnwrap(try readAnswer(server, monitor))
        XCTAssertEqual(app["line"]?["app"]?["id"], .string("firefox"))
        XCTAssertEqual(app["line"]?["t"], .number(3))
    }

    func testTheClientSaysWhenNoDaemonRuns() {
        XCTAssertThrowsError(try ControlClient(path: folder + "/none.sock")) { error in
            XCTAssertEqual("\(error)", "no motionscript daemon is running on \(folder)/none.sock")
        }
    }

    func testTheDefaultSocketIsInTheRuntimeFolder() {
        XCTAssertEqual(ControlSocketPath.standard(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]),
                       "/run/user/1000/motionscript/control.sock")
        XCTAssertEqual(ControlSocketPath.standard(environment: [:]), "/tmp/motionscript-\(geteuid())/control.sock")
    }
}
