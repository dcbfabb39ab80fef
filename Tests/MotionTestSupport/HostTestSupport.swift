import Foundation

/// A fresh temporary folder for one test.
public func makeTemporaryFolder(_ label: String = "host") -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("motionscript-\(label)-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes `text` to `name` in `folder`: in place (truncate and write, like `>`), or by
/// writing a temporary file and renaming it over the old one, as most editors save.
@discardableResult
public func writeFile(_ text: String, _ name: String, in folder: URL, byRename: Bool = false) -> String {
    let url = folder.appendingPathComponent(name)
    if byRename {
        let temporary = folder.appendingPathComponent(".\(name).swp")
        writeBytes(text, to: temporary.path)
        _ = rename(temporary.path, url.path)
    } else {
        writeBytes(text, to: url.path)
    }
    return url.path
}

/// open/write/close: Foundation's String.write fsyncs, which makes 1,000 rewrites slow.
private func writeBytes(_ text: String, to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    precondition(fd >= 0, "cannot write \(path)")
    defer { close(fd) }
    var bytes = Array(text.utf8)
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
        precondition(n > 0, "cannot write \(path)")
        done += n
    }
}

/// The drag of examples/drag.events.jsonl, short: down at (10,10), then (22,19), (30,25), up.
public let shortDragEvents = """
    {"t":0,"id":1,"phase":"down","x":10,"y":10}
    {"t":0.016,"id":1,"phase":"move","x":22,"y":19}
    {"t":0.032,"id":1,"phase":"move","x":30,"y":25}
    {"t":0.048,"id":1,"phase":"up","x":30,"y":25}

    """

/// One 24-byte `struct input_event` (little-endian), as /dev/input/eventN delivers it.
public func inputEvent(sec: Int64 = 0, usec: Int, _ type: UInt16, _ code: UInt16, _ value: Int32) -> [UInt8] {
    var bytes = [UInt8]()
    withUnsafeBytes(of: sec.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: Int64(usec).littleEndian) { bytes += $0 }
    withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: code.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    return bytes
}

/// Hands a value that is not Sendable to another thread; each test orders the accesses
/// (semaphores, joins) or uses only the value's thread-safe methods (`stop`).
public final class Shared<T>: @unchecked Sendable {
    public let value: T
    public init(_ value: T) { self.value = value }
}
