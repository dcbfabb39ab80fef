import MotionTestSupport
import Testing
import Foundation
import MotionGestures
#if canImport(Glibc)
import Glibc
#endif
@testable import MotionInput

/// docs/desktop.md, "Per-application gestures": evemu recordings carry focus changes as comments.
@Suite(.timeLimit(.minutes(5))) struct AppCommentTests {
    @Test func aRecordingWithAProviderReplaysItsFocusChangesBetweenTheSameEvents() throws {
        let dir = TempDir()
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        let bytes = rawBytes(pinchEvents)
        let writer = Thread { [fds] in writeInPieces(fds[1], bytes, chunks: [bytes.count], pause: 0) }
        writer.start()
        let reader = try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true)
        let path = dir.path("focus.evemu")
        var polls = 0
        let firefox = AppInfo(id: "firefox", className: "firefox", title: "a \"quoted\"\ttitle", pid: 12)
        try recordEvemu(from: reader, to: path, axes: EventFileOptions.ranges(x: 0...1000, y: 0...1000, resolution: 12)) {
            polls += 1
            switch polls {
            case 1: return [firefox]
            case 8: return [AppInfo(id: "kitty"), nil]
            default: return []
            }
        }
        reader.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#"# motionscript: {"app":{"id":"firefox","class":"firefox","title":"a \"quoted\"\ttitle","pid":12}}"#))
        #expect(text.contains("# motionscript: {\"app\":null}\n"))

        let frames = try openEventFile(path: path).readAll()
        // Recordings keep their device (name and kind): compare the pointer changes alone.
        let pointerFrames = frames.filter { $0.focus == nil }.map { frame in
            Frame(t: frame.t, events: frame.events.map { event in var plain = event; plain.device = nil; return plain })
        }
        #expect(pointerFrames == pinchFrames)
        let changes = frames.enumerated().filter { $0.element.focus != nil }
        #expect(changes.map { $0.element.focus!.app?.id } == ["firefox", "kitty", nil])
        #expect(changes[0].offset == 0 && changes[0].element.focus?.app == firefox)
        // Read before the 8th event: after the frames its first 7 events made, at their time.
        let kitty = changes[1].offset
        #expect(kitty > 0 && frames[kitty].t == frames[kitty - 1].t)
        #expect(changes[2].offset == kitty + 1)
    }

    /// Written by the JSON module's writer since it replaced the comment's own escaping: the
    /// same bytes as before, control characters as \u00XX.
    @Test func theCommentIsWrittenAsBefore() throws {
        let app = AppInfo(id: "a\u{1}\n\\\"é", className: nil, instance: "i", title: nil, pid: -3)
        let line = AppComment.line(app)
        #expect(line == #"# motionscript: {"app":{"id":"a\u0001\n\\\"é","instance":"i","pid":-3}}"# + "\n")
        #expect(AppComment.line(nil) == "# motionscript: {\"app\":null}\n")
    }

    @Test func aMalformedAppCommentIsAnErrorWithItsLine() throws {
        let dir = TempDir()
        let header = EvemuWriter.header(touchscreen(slots: 2))
        let path = dir.write("bad.evemu", header + "E: 0.000001 0003 002f 0000\n# motionscript: {\"app\":7}\n")
        do {
            _ = try openEventFile(path: path).readAll()
            Issue.record("no error")
        } catch {
            #expect("\(error)".contains("bad.evemu:\(header.split(separator: "\n").count + 2): malformed motionscript comment: field \"app\" must be an object"), "\(error)")
        }
    }

    /// A comment that is not JSON: the byte counted from the line's start, as the file shows it.
    @Test func aCommentThatIsNotJSONNamesItsByteInTheLine() throws {
        let dir = TempDir()
        let header = EvemuWriter.header(touchscreen(slots: 2))
        let path = dir.write("bad.evemu", header + "E: 0.000001 0003 002f 0000\n# motionscript: {\"app\":\"x\",}\n")
        do {
            _ = try openEventFile(path: path).readAll()
            Issue.record("no error")
        } catch {
            #expect("\(error)".hasSuffix("bad.evemu:\(header.split(separator: "\n").count + 2): malformed motionscript comment: not JSON: byte 26: trailing comma before '}'"), "\(error)")
        }
    }
}
