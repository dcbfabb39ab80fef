import MotionTestSupport
import Foundation
import Testing
@testable import MotionInput

/// Every line of `bytes` read with a buffer of `chunkSize` bytes, as byte arrays.
private func lines(_ bytes: [UInt8], chunkSize: Int) throws -> [[UInt8]] {
    let reader = LineReader(input: InputBytes(path: "t", bytes: bytes), chunkSize: chunkSize)
    var out: [[UInt8]] = []
    while let line = try reader.next() {
        out.append(Array(line))
        #expect(reader.lineNumber == out.count)
        if out.count > bytes.count + 1 { Issue.record("more lines than bytes"); break }
    }
    // The end stays the end.
    #expect(try reader.next() == nil)
    return out
}

private func lines(_ text: String, chunkSize: Int) throws -> [String] {
    try lines(Array(text.utf8), chunkSize: chunkSize).map { String(decoding: $0, as: UTF8.self) }
}

/// Lines are slices of the read buffer; only a line that straddles a chunk moves. These cases put
/// each boundary of that buffer at every place a line can have one.
@Suite(.timeLimit(.minutes(5))) struct LineReaderTests {
    @Test func lineEndingExactlyAtTheChunkEnd() throws {
        // 7 bytes and the newline fill the 8-byte chunk exactly.
        #expect(try lines("abcdefg\nhij\n", chunkSize: 8) == ["abcdefg", "hij"])
    }

    @Test func newlineIsTheFirstByteOfTheNextChunk() throws {
        #expect(try lines("abcdefgh\nij\n", chunkSize: 8) == ["abcdefgh", "ij"])
    }

    @Test func lineStraddlingAChunkBoundary() throws {
        #expect(try lines("abc\ndefghijk\nl\n", chunkSize: 8) == ["abc", "defghijk", "l"])
    }

    @Test func lineLongerThanAChunk() throws {
        let long = String(repeating: "0123456789", count: 10)
        #expect(try lines("a\n\(long)\nb\n", chunkSize: 8) == ["a", long, "b"])
        // With no newline at all, at the end of the input.
        #expect(try lines("a\n\(long)", chunkSize: 8) == ["a", long])
    }

    @Test func lastLineWithoutNewline() throws {
        #expect(try lines("a\nb", chunkSize: 8) == ["a", "b"])
        #expect(try lines("abcdefgh", chunkSize: 8) == ["abcdefgh"])
        #expect(try lines("abcdefghi", chunkSize: 8) == ["abcdefghi"])
    }

    @Test func emptyInputAndEmptyLines() throws {
        #expect(try lines("", chunkSize: 8) == [])
        #expect(try lines("\n", chunkSize: 8) == [""])
        #expect(try lines("\n\n", chunkSize: 8) == ["", ""])
        #expect(try lines("\n\n\n\n\n\n\n\n\n", chunkSize: 8) == Array(repeating: "", count: 9))
    }

    @Test func crlfLosesItsCarriageReturnEvenAcrossAChunkBoundary() throws {
        #expect(try lines("ab\r\ncd\r\n", chunkSize: 8) == ["ab", "cd"])
        // The CR is the last byte of the first chunk, the LF the first of the next.
        #expect(try lines("abcdefg\r\nxyz\r\n", chunkSize: 8) == ["abcdefg", "xyz"])
        // Only one CR goes, and only at the end; a CR alone at the end of the input goes too.
        #expect(try lines("a\r\r\nb\rc\nd\r", chunkSize: 8) == ["a\r", "b\rc", "d"])
    }

    @Test func nulBytesAreLineContent() throws {
        #expect(try lines([97, 0, 98, 10, 0, 10, 0], chunkSize: 2) == [[97, 0, 98], [0], [0]])
    }

    @Test func byteOrderMarkIsSkippedOnlyAtTheStartEvenWhenSplit() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        for chunk in 1...5 {
            #expect(try lines(bom + Array("x\n".utf8) + bom + Array("y\n".utf8), chunkSize: chunk) == [[120], bom + [121]])
        }
    }

    /// Every chunk size from 1 byte up: the same lines as splitting the text at its newlines.
    @Test func everyChunkSizeGivesTheSameLines() throws {
        let text = "E: 0.000000 0003 0039 0100\n\nE: 0.008000 0003 0035 0503\t# comment\r\n#\nlast line without newline"
        // Split as bytes: in Swift strings "\r\n" is one character.
        let expected = Array(text.utf8).split(separator: 10, omittingEmptySubsequences: false)
            .map { String(decoding: $0.last == 13 ? $0.dropLast() : $0, as: UTF8.self) }
        for chunk in 1...(text.utf8.count + 2) {
            #expect(try lines(text, chunkSize: chunk) == expected, "chunk size \(chunk)")
        }
    }

    @Test func lineOfTheLongestLengthReadsAndOneByteMoreIsAnErrorAtItsLine() throws {
        let longest = [UInt8](repeating: 120, count: LineReader.maxLineLength)
        let ok = try lines(Array("a\n".utf8) + longest + [10, 98], chunkSize: 1 << 16)
        #expect(ok.map(\.count) == [1, LineReader.maxLineLength, 1])
        // The carriage return counts: the bytes before the newline are what is bounded.
        for tooLong in [longest + [120, 10], longest + [120], longest + [13, 10]] {
            let reader = LineReader(input: InputBytes(path: "big.txt", bytes: Array("a\n".utf8) + tooLong), chunkSize: 1 << 16)
            _ = try reader.next()
            #expect(throws: InputError(file: "big.txt", line: 2, "line longer than \(LineReader.maxLineLength) bytes")) {
                _ = try reader.next()
            }
        }
    }

    @Test func aLongLineGrowsTheBufferOnlyAsFarAsTheBound() throws {
        // A line never held whole past the bound: the error comes after reading one byte more.
        let reader = LineReader(input: InputBytes(path: "big.txt", bytes: [UInt8](repeating: 120, count: LineReader.maxLineLength * 3)),
                                chunkSize: 4096)
        #expect(throws: InputError.self) { _ = try reader.next() }
        #expect(reader.bufferCapacity <= LineReader.maxLineLength + 1)
    }

    @Test func shortLinesNeverGrowTheBuffer() throws {
        var text = ""
        for i in 0..<10_000 { text += "line \(i)\n" }
        let reader = LineReader(input: InputBytes(path: "t", bytes: Array(text.utf8)), chunkSize: 256)
        var count = 0
        while let line = try reader.next() {
            #expect(String(decoding: line, as: UTF8.self) == "line \(count)")
            count += 1
        }
        #expect(count == 10_000)
        #expect(reader.bufferCapacity == 256)
    }

    @Test func aPipeHandsOutEachLineAsSoonAsItsNewlineArrives() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        let firstRead = DispatchSemaphore(value: 0)
        let writerDone = DispatchSemaphore(value: 0)
        let waitedInVain = Box(false)
        let writer = Thread { [fds] in
            _ = "first\nsec".withCString { write(fds[1], $0, 9) }
            // The rest only once the reader has the first line: it must not wait for a full chunk
            // (the timeout is a hang guard; running into it is the failure).
            waitedInVain.value = firstRead.wait(timeout: .now() + 30) == .timedOut
            _ = "ond\nthird".withCString { write(fds[1], $0, 9) }
            close(fds[1])
            writerDone.signal()
        }
        writer.start()
        let reader = try LineReader(path: "/proc/self/fd/\(fds[0])")
        defer { close(fds[0]) }
        #expect(try reader.nextLine { String(decoding: $0, as: UTF8.self) } == "first")
        firstRead.signal()
        #expect(try reader.nextLine { String(decoding: $0, as: UTF8.self) } == "second")
        #expect(try reader.nextLine { String(decoding: $0, as: UTF8.self) } == "third")
        #expect(try reader.next() == nil)
        writerDone.wait()
        #expect(waitedInVain.value == false)
    }
}
