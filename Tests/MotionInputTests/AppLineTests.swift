import Foundation
import Testing
import MotionGestures
import MotionInput

private func file(_ text: String) -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("apps-\(UUID().uuidString).jsonl")
    try! text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

/// docs/desktop.md, "Per-application gestures": app lines in JSON Lines event files.
@Suite struct AppLineTests {
    @Test func appLinesAreFramesOfTheirOwnInTimeOrder() throws {
        let frames = try JSONLinesReader(path: file("""
            {"t":5,"app":{"id":"firefox","class":"Firefox","instance":"Navigator","title":"a, b","pid":42,"extra":[1]}}
            {"t":5,"id":1,"phase":"down","x":1,"y":2}
            {"t":5.5,"app":"kitty"}
            {"t":5.5,"id":1,"phase":"up","x":1,"y":2}
            {"t":6,"app":null}
            {"t":6.5,"app":{"class":"XTerm"}}
            """)).readAll()
        #expect(frames.count == 6)
        #expect(frames[0] == Frame(t: 0, focus: FocusChange(app: AppInfo(id: "firefox", className: "Firefox", instance: "Navigator",
                                                                         title: "a, b", pid: 42))))
        #expect(frames[1].events.map(\.phase) == [.down])
        #expect(frames[2] == Frame(t: 0.5, focus: FocusChange(app: AppInfo(id: "kitty"))))
        #expect(frames[3].events.map(\.phase) == [.up])
        #expect(frames[4] == Frame(t: 1, focus: FocusChange(app: nil)))
        #expect(frames[5].focus?.app?.id == "XTerm")
    }

    @Test(arguments: [
        (#"{"t":0,"app":{"title":"x"}}"#, "1: field \"app\" needs a non-empty \"id\" (or \"class\")"),
        (#"{"t":0,"app":3}"#, "1: field \"app\" must be an object {\"id\":…}, a name or null"),
        (#"{"t":0,"app":""}"#, "1: field \"app\" must not be an empty name"),
        (#"{"t":0,"app":{"id":"a","pid":1.5}}"#, "1: field \"app\": \"pid\" must be an integer"),
        (#"{"t":0,"app":{"id":7}}"#, "1: field \"app\": \"id\" must be a string"),
        (#"{"app":"a"}"#, "1: missing field \"t\""),
    ])
    func malformedAppLinesAreErrorsWithTheirLine(line: String, message: String) throws {
        let path = file(line + "\n")
        #expect(throws: (any Error).self) { try JSONLinesReader(path: path).readAll() }
        do {
            _ = try JSONLinesReader(path: path).readAll()
        } catch {
            #expect("\(error)".hasSuffix(message), "\(error)")
        }
    }

    @Test func anAppLineGoingBackInTimeIsAnError() throws {
        let path = file("""
            {"t":1,"id":1,"phase":"down","x":1,"y":2}
            {"t":0.5,"app":"kitty"}
            """)
        do {
            _ = try JSONLinesReader(path: path).readAll()
            Issue.record("no error")
        } catch {
            #expect("\(error)".contains(":2: time goes backwards: t=0.5 after t=1.0"), "\(error)")
        }
    }
}
