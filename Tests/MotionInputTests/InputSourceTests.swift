import MotionTestSupport
import Foundation
import Testing
import MotionGestures
@testable import MotionInput

/// Writes `bytes` into a new pipe from another thread and returns a path that opens the pipe's
/// read end (as `/dev/stdin` does when a shell pipes into motionscript).
private func pipePath(_ bytes: [UInt8]) -> (path: String, close: () -> Void) {
    var fds: [Int32] = [0, 0]
    _ = pipeClosingOnExec(&fds)
    let (r, w) = (fds[0], fds[1])
    Thread.detachNewThread {
        bytes.withUnsafeBytes { b in
            var off = 0
            while off < b.count {
                let n = write(w, b.baseAddress! + off, b.count - off)
                if n <= 0 { break }
                off += n
            }
        }
        close(w)
    }
    return ("/proc/self/fd/\(r)", { close(r) })
}

/// Shares a value with another thread; each test orders the accesses (semaphores, locks, joins).
final class Box<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}

/// The right format whatever the source: pipes and FIFOs are read once, from their start.
@Suite(.timeLimit(.minutes(5))) struct InputSourceTests {
    @Test func jsonLinesThroughAPipeKeepAllLines() throws {
        var text = "{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":0,\"y\":0}\n"
        for i in 1..<199_999 { text += "{\"t\":\(i),\"id\":1,\"phase\":\"move\",\"x\":\(i),\"y\":0}\n" }
        text += "{\"t\":199999,\"id\":1,\"phase\":\"up\",\"x\":199998,\"y\":0}\n"
        let (path, done) = pipePath(Array(text.utf8))
        defer { done() }
        let source = try openEventFile(path: path)
        #expect(source is JSONLinesReader)
        let frames = try source.readAll()
        #expect(frames.count == 200_000)
        #expect(frames.last == Frame(t: 199_999, events: [p(199_999, 1, .up, 199_998, 0)]))
    }

    @Test func rawBytesThroughAPipeStayAligned() throws {
        var events: [InputEventRecord] = [axis(0, ABS.MT_TRACKING_ID, 3), axis(0, ABS.MT_POSITION_X, 0), axis(0, ABS.MT_POSITION_Y, 0), syn(0)]
        for i in 1...2000 { events += [axis(Double(i), ABS.MT_POSITION_X, Int32(i)), syn(Double(i))] }
        events += [axis(2001, ABS.MT_TRACKING_ID, -1), syn(2001)]
        let dir = TempDir()
        let fromFile = try openEventFile(path: dir.write("drag.raw", bytes: rawBytes(events))).readAll()
        let (path, done) = pipePath(rawBytes(events))
        defer { done() }
        let fromPipe = try openEventFile(path: path).readAll()
        #expect(fromPipe.count == 2002)
        #expect(fromPipe == fromFile)
    }

    @Test func devZeroIsAnErrorAtItsByteOffset() throws {
        let error = Box<String?>(nil)
        #expect(finishes(within: 60) { error.value = errorText { _ = try openEventFile(path: "/dev/zero").readAll() } })
        #expect(error.value == "/dev/zero: byte 24000: not evdev input: more than 1000 empty frames (SYN_REPORT with no events) in a row")
    }

    @Test func devUrandomIsAnErrorAtByteZero() throws {
        // Read as raw evdev (as detection finds it nearly always): an 8-byte tv_usec of random
        // bytes is out of range but for 1 in 10^13.
        let error = Box<String?>(nil)
        #expect(finishes(within: 60) { error.value = errorText { _ = try openEventFile(path: "/dev/urandom", format: .raw).readAll() } })
        #expect(error.value?.hasPrefix("/dev/urandom: byte 0: not an input_event: tv_usec ") == true)
        // Detected: random bytes whose first line happens to start with "{" (about 1 run in
        // 256) are read as JSON Lines, which fail on their own terms. Whatever the format, an
        // error that names the file, not a hang.
        let detected = Box<String?>(nil)
        #expect(finishes(within: 60) { detected.value = errorText { _ = try openEventFile(path: "/dev/urandom").readAll() } })
        #expect(detected.value?.hasPrefix("/dev/urandom") == true, "\(detected.value ?? "no error")")
    }

    @Test func fifoWithoutWriterWaitsAndSaysSo() throws {
        let dir = TempDir()
        let fifo = dir.path("events.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening does not wait for a writer.
        let input = Box<InputBytes?>(nil)
        #expect(finishes(within: 30) { input.value = try? InputBytes(path: fifo) })
        let bytes = try #require(input.value)
        let notices = Box<[String]>([])
        let lock = NSLock()
        bytes.notice = { message in lock.withLock { notices.value.append(message) } }
        let read = Box<[UInt8]>([])
        let reader = DispatchSemaphore(value: 0)
        let sharedBytes = Box(bytes)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 64)
            while let n = try? buffer.withUnsafeMutableBytes({ try sharedBytes.value.read(into: $0) }), n > 0 { read.value += buffer[..<n] }
            reader.signal()
        }
        // The reader says once what it waits for (after a second without data), then a writer comes.
        for _ in 0..<300 where lock.withLock({ notices.value.isEmpty }) { usleep(100_000) }
        #expect(lock.withLock { notices.value } == ["\(fifo): waiting for a writer on this FIFO (nothing received yet)"])
        let w = open(fifo, O_WRONLY | O_CLOEXEC)
        _ = write(w, "hello", 5)
        close(w)
        #expect(reader.wait(timeout: .now() + 30) == .success)
        #expect(read.value == Array("hello".utf8))
    }

    @Test func fifoWithALateWriterIsRead() throws {
        let dir = TempDir()
        let fifo = dir.path("late.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        Thread.detachNewThread {
            usleep(200_000)
            let w = open(fifo, O_WRONLY | O_CLOEXEC)
            let text = "{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2}\n{\"t\":1,\"id\":1,\"phase\":\"up\",\"x\":1,\"y\":2}\n"
            _ = text.withCString { write(w, $0, strlen($0)) }
            close(w)
        }
        let frames = Box<[Frame]>([])
        #expect(finishes(within: 60) { frames.value = (try? openEventFile(path: fifo).readAll()) ?? [] })
        #expect(frames.value == [Frame(t: 0, events: [p(0, 1, .down, 1, 2)]), Frame(t: 1, events: [p(1, 1, .up, 1, 2)])])
    }
}

/// JSON Lines as other tools write it: a byte order mark, nested extra fields, any escape.
@Suite(.timeLimit(.minutes(5))) struct JSONLinesVariantsTests {
    private let tap = "{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2}\n{\"t\":1,\"id\":1,\"phase\":\"up\",\"x\":1,\"y\":2}\n"
    private let frames = [Frame(t: 0, events: [p(0, 1, .down, 1, 2)]), Frame(t: 1, events: [p(1, 1, .up, 1, 2)])]

    @Test func byteOrderMarkIsSkipped() throws {
        let dir = TempDir()
        let source = try openEventFile(path: dir.write("bom.jsonl", bytes: [0xEF, 0xBB, 0xBF] + Array(tap.utf8)))
        #expect(source is JSONLinesReader)
        #expect(try source.readAll() == frames)
    }

    @Test func nulByteIsAJSONErrorNotRawInput() throws {
        let dir = TempDir()
        let path = dir.write("nul.jsonl", bytes: Array(tap.utf8) + [0] + Array("\n".utf8))
        let source = try openEventFile(path: path)
        #expect(source is JSONLinesReader)
        #expect(throws: InputError(file: path, line: 3, "not JSON: byte 0: expected an object, found byte 0x00")) { _ = try source.readAll() }
    }

    @Test func nestedExtraFieldsAreIgnored() throws {
        let dir = TempDir()
        let text = tap.replacingOccurrences(of: "\"y\":2}", with: "\"y\":2,\"extra\":{\"a\":[1,{\"b\":\"]}\"}],\"c\":[]}}")
        #expect(try openEventFile(path: dir.write("nested.jsonl", text)).readAll() == frames)
    }

    @Test func nestedValueForAKnownFieldIsAnError() throws {
        let dir = TempDir()
        let path = dir.write("nested.jsonl", "{\"t\":[0],\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2}\n")
        #expect(throws: InputError(file: path, line: 1, "field \"t\" must be a number")) { _ = try openEventFile(path: path).readAll() }
    }

    @Test func unbalancedNestedValueIsAnError() throws {
        let dir = TempDir()
        let path = dir.write("nested.jsonl", "{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2,\"e\":[1}}\n")
        #expect(throws: InputError(file: path, line: 1, "not JSON: byte 47: expected ',' or ']', found '}'")) { _ = try openEventFile(path: path).readAll() }
    }

    @Test func surrogatePairEscapesAreAcceptedALoneSurrogateIsAnError() throws {
        let dir = TempDir()
        let text = tap.replacingOccurrences(of: "\"y\":2}", with: "\"y\":2,\"note\":\"\\ud83d\\ude00\"}")
        #expect(try openEventFile(path: dir.write("emoji.jsonl", text)).readAll() == frames)
        // Before the readers shared one grammar, this one read a lone surrogate as U+FFFD.
        let lone = tap.replacingOccurrences(of: "\"y\":2}", with: "\"y\":2,\"note\":\"\\udc00\"}")
        let path = dir.write("lone.jsonl", lone)
        #expect(throws: InputError(file: path, line: 1, "not JSON: byte 49: unpaired surrogate in a \\u escape")) {
            _ = try openEventFile(path: path).readAll()
        }
    }
}

/// libinput recordings that are not what `libinput record` writes are errors with file:line.
@Suite(.timeLimit(.minutes(5))) struct LibinputStructureTests {
    private func recording(_ events: String) -> String {
        """
        # libinput record
        version: 1
        ndevices: 1
        libinput:
          version: "1.23.0"
        devices:
        - node: /dev/input/event7
          evdev:
            name: "Pad"
            codes:
              3: [53, 54, 57]
            absinfo:
              53: [0, 700, 0, 0, 10]
              54: [0, 500, 0, 0, 10]
              57: [0, 65535, 0, 0, 0]
          events:
          - evdev:
            - [  0,      0,   3,  57,    5]
            - [  0,      0,   3,  53,    6]
            - [  0,      0,   3,  54,    7]
            - [  0,      0,   0,   0,    0]
        \(events)
        """
    }

    private func lineOf(_ text: String, _ marker: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(marker) }! + 1
    }

    @Test func wellFormedRecordingReads() throws {
        let dir = TempDir()
        let frames = try openEventFile(path: dir.write("ok.yml", recording("\t# a comment may follow a tab\n  - evdev:\n    - [  0,  10000,   3,  53,    8]\n    - [  0,  10000,   0,   0,    0]\n"))).readAll()
        #expect(frames.map(\.events) == [[p(0, 5, .down, 6, 7)], [p(0.01, 5, .move, 8, 7)], [p(0.01, 5, .cancel, 8, 7)]])
    }

    @Test(arguments: [
        ("  - evdev:\n\t- [  0,  10000,   3,  53,    8] # tab\n", "tab in indentation (YAML indents with spaces)"),
        ("stray # col0\n  - evdev:\n    - [  0,  10000,   3,  53,    8]\n", "unexpected line at column 1 in the events (expected '- evdev:' items of '[sec, usec, type, code, value]' rows)"),
        ("  - evdevv: # typo\n    - [  0,  10000,   3,  53,    8]\n", "unknown item 'evdevv' in the events (expected '- evdev:')"),
        ("  - evdev:\n    junk # not a row\n", "malformed libinput event row: expected '- [sec, usec, type, code, value]'"),
    ])
    func malformedEventsAreErrorsWithTheirLine(events: String, message: String) throws {
        let dir = TempDir()
        let text = recording(events)
        let path = dir.write("bad.yml", text)
        let line = lineOf(text, events.contains("# tab") ? "# tab" : events.contains("# col0") ? "# col0" : events.contains("# typo") ? "# typo" : "# not a row")
        #expect(throws: InputError(file: path, line: line, message)) { _ = try openEventFile(path: path).readAll() }
    }

    @Test func misspelledEventsKeyNamesTheDevice() throws {
        let dir = TempDir()
        let text = recording("").replacingOccurrences(of: "  events:", with: "  evnets:")
        let path = dir.write("typo.yml", text)
        #expect(throws: InputError(file: path, line: lineOf(text, "- node:"), "device with touch or pointer axes has no 'events:' list")) {
            _ = try openEventFile(path: path)
        }
    }
}
