import Foundation
import Testing
import MotionGestures
import MotionInput

private func file(_ text: String) -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString).jsonl")
    try! text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

/// API.md "Event files": the JSON Lines format.
@Suite struct JSONLinesReaderTests {
    @Test func linesWithEqualTimeFormOneFrameAndTimeIsRelativeToTheFirstEvent() throws {
        let path = file("""
            {"t":10.5,"id":1,"phase":"down","x":100,"y":200}
            {"t":10.5,"id":2,"phase":"down","x":300,"y":400}

            {"t":10.516,"id":1,"phase":"move","x":101,"y":202,"pressure":0.5}
            {"t":10.532,"id":1,"phase":"up","x":101,"y":202}
            {"t":10.532,"id":2,"phase":"cancel","x":300,"y":400}
            """)
        let frames = try JSONLinesReader(path: path).readAll()
        #expect(frames.count == 3)
        #expect(frames[0] == Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 100, y: 200),
                                                  PointerEvent(t: 0, id: 2, phase: .down, x: 300, y: 400)]))
        #expect(abs(frames[1].t - 0.016) < 1e-12)
        #expect(frames[1].events.map(\.phase) == [.move])
        #expect(frames[2].events.map(\.phase) == [.up, .cancel])
    }

    @Test func pointersStillDownAtTheEndAreCancelled() throws {
        let frames = try JSONLinesReader(path: file("""
            {"t":0,"id":3,"phase":"down","x":1,"y":2}
            {"t":0.5,"id":3,"phase":"move","x":5,"y":6}
            """)).readAll()
        #expect(frames.count == 3)
        #expect(frames[2] == Frame(t: 0.5, events: [PointerEvent(t: 0.5, id: 3, phase: .cancel, x: 5, y: 6)]))
    }

    @Test func interleavedPointersKeepTheirOwnLastPositions() throws {
        // Moves alternate between pointers, one lifts and comes back, and each is cancelled at the
        // end where it last was.
        let frames = try JSONLinesReader(path: file("""
            {"t":0,"id":1,"phase":"down","x":1,"y":1}
            {"t":1,"id":1,"phase":"move","x":2,"y":2}
            {"t":2,"id":2,"phase":"down","x":10,"y":10}
            {"t":3,"id":1,"phase":"move","x":3,"y":3}
            {"t":4,"id":2,"phase":"move","x":11,"y":11}
            {"t":5,"id":2,"phase":"move","x":12,"y":12}
            {"t":6,"id":1,"phase":"up","x":3,"y":3}
            {"t":7,"id":2,"phase":"move","x":13,"y":13}
            {"t":8,"id":1,"phase":"down","x":4,"y":4}
            {"t":9,"id":2,"phase":"move","x":14,"y":14}
            {"t":10,"id":1,"phase":"move","x":5,"y":5}
            """)).readAll()
        #expect(frames.count == 12)
        #expect(frames[11] == Frame(t: 10, events: [PointerEvent(t: 10, id: 1, phase: .cancel, x: 5, y: 5),
                                                    PointerEvent(t: 10, id: 2, phase: .cancel, x: 14, y: 14)]))
    }

    @Test func moveForAPointerThatJustLiftedIsAnError() throws {
        let path = file("""
            {"t":0,"id":1,"phase":"down","x":1,"y":1}
            {"t":1,"id":1,"phase":"move","x":2,"y":2}
            {"t":2,"id":1,"phase":"up","x":2,"y":2}
            {"t":3,"id":1,"phase":"move","x":3,"y":3}
            """)
        #expect(throws: InputError(file: path, line: 4, "move for pointer 1, which is not down")) {
            _ = try JSONLinesReader(path: path).readAll()
        }
    }

    @Test(arguments: [
        ("{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2}\n{\"t\":0.1,\"id\":1,\"phase\":\"wiggle\",\"x\":1,\"y\":2}",
         ":2: unknown phase \"wiggle\" (expected down, move, up or cancel)"),
        ("{\"t\":0,\"id\":1,\"phase\":\"move\",\"x\":1,\"y\":2}", ":1: move for pointer 1, which is not down"),
        ("{\"t\":0,\"id\":1,\"phase\":\"up\",\"x\":1,\"y\":2}", ":1: up for pointer 1, which is not down"),
        ("{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2}\n{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2}",
         ":2: pointer 1 goes down twice without going up"),
        ("{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":1}", ":1: missing field \"y\""),
        ("{\"t\":1,\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2}\n{\"t\":0.5,\"id\":1,\"phase\":\"up\",\"x\":1,\"y\":2}",
         ":2: time goes backwards: t=0.5 after t=1.0"),
        ("{\"t\":0,\"id\":1,\"phase\":\"down\" \"x\":1,\"y\":2}", ":1: not JSON: byte 29: expected ',' or '}', found '\"'"),
        ("[1,2]", ":1: not JSON: byte 0: expected an object, found '['"),
        ("{\"t\":\"0\",\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2}", ":1: field \"t\" must be a number"),
        ("{\"t\":0,\"id\":1.5,\"phase\":\"down\",\"x\":1,\"y\":2}", ":1: field \"id\" must be an integer"),
    ])
    func badInputNamesFileAndLine(text: String, message: String) throws {
        let path = file(text)
        do {
            _ = try JSONLinesReader(path: path).readAll()
            Issue.record("expected an error")
        } catch let error as InputError {
            #expect(error.description == path + message)
        }
    }

    @Test func unreadableFileIsAnError() {
        #expect(throws: InputError(file: "/nonexistent/x.jsonl", "cannot open: No such file or directory")) {
            _ = try JSONLinesReader(path: "/nonexistent/x.jsonl")
        }
    }
}

/// Recognizers cost O(N²) in pointers down at once: JSON Lines stops at the bound evemu and
/// libinput recordings have (1,024 slots), with `file:line`, as the slot rule does.
@Suite struct JSONLinesPointerBoundTests {
    private func downs(_ n: Int) -> String {
        (1...n).map { #"{"t":0,"id":\#($0),"phase":"down","x":1,"y":2}"# }.joined(separator: "\n") + "\n"
    }

    @Test func pointersDownAtOnceAreBoundedAt1024() throws {
        let ok = try JSONLinesReader(path: file(downs(1024))).readAll()
        #expect(ok.first?.events.count == 1024)
        let path = file(downs(1025))
        #expect(throws: InputError(file: path, line: 1025, "more than 1024 pointers down at once (pointer 1025 goes down); recordings of real devices stop at 1024 slots")) {
            _ = try JSONLinesReader(path: path).readAll()
        }
    }

    @Test func pointersThatWentUpFreeTheirPlace() throws {
        var lines = downs(1024)
        lines += #"{"t":1,"id":1,"phase":"up","x":1,"y":2}"# + "\n"
        lines += #"{"t":2,"id":5000,"phase":"down","x":1,"y":2}"# + "\n"
        let frames = try JSONLinesReader(path: file(lines)).readAll()
        #expect(frames.count == 4)  // the downs, the up, the new down, the final cancel
    }
}
