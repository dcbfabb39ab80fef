import Foundation
import MotionGestures
@testable import MotionInput

/// Shorthand for expected pointer events.
func p(_ t: Double, _ id: Int, _ phase: PointerPhase, _ x: Double, _ y: Double) -> PointerEvent {
    PointerEvent(t: t, id: id, phase: phase, x: x, y: y)
}

/// An evdev event at `ms` milliseconds (whole microseconds in the record).
func ev(_ ms: Double, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEventRecord {
    let micros = Int64((ms * 1000).rounded())
    return InputEventRecord(sec: 1000 + micros / 1_000_000, usec: micros % 1_000_000, type: type, code: code, value: value)
}

func syn(_ ms: Double) -> InputEventRecord { ev(ms, EV.SYN, SYN.REPORT, 0) }
func mtReport(_ ms: Double) -> InputEventRecord { ev(ms, EV.SYN, SYN.MT_REPORT, 0) }
func axis(_ ms: Double, _ code: UInt16, _ value: Int32) -> InputEventRecord { ev(ms, EV.ABS, code, value) }
func key(_ ms: Double, _ code: UInt16, _ value: Int32) -> InputEventRecord { ev(ms, EV.KEY, code, value) }
func rel(_ ms: Double, _ code: UInt16, _ value: Int32) -> InputEventRecord { ev(ms, EV.REL, code, value) }

/// Decodes `events` (place = 1-based index) and returns every frame including the final cancel.
func decode(_ events: [InputEventRecord], device: DeviceDescription = DeviceDescription(),
            options: EventFileOptions = EventFileOptions(), strict: Bool = true) throws -> (frames: [Frame], decoder: EvdevDecoder) {
    let decoder = EvdevDecoder(device: device, options: options, strict: strict)
    var frames: [Frame] = []
    for (i, e) in events.enumerated() {
        if let f = try decoder.feed(e, place: i + 1) { frames.append(f) }
    }
    if let f = decoder.finish() { frames.append(f) }
    return (frames, decoder)
}

/// A protocol B touchscreen with `slots` slots and 0...1000 axes.
func touchscreen(slots: Int32 = 2, x: Int32 = 1000, y: Int32 = 1000) -> DeviceDescription {
    var d = DeviceDescription()
    d.name = "Test touchscreen"
    d.properties = [INPUT_PROP.DIRECT]
    for code in [ABS.X, ABS.Y, ABS.MT_SLOT, ABS.MT_POSITION_X, ABS.MT_POSITION_Y, ABS.MT_TRACKING_ID] { d.add(type: EV.ABS, code: code) }
    d.add(type: EV.KEY, code: BTN.TOUCH)
    d.absinfo[ABS.X] = AbsInfo(minimum: 0, maximum: x)
    d.absinfo[ABS.Y] = AbsInfo(minimum: 0, maximum: y)
    d.absinfo[ABS.MT_POSITION_X] = AbsInfo(minimum: 0, maximum: x)
    d.absinfo[ABS.MT_POSITION_Y] = AbsInfo(minimum: 0, maximum: y)
    d.absinfo[ABS.MT_SLOT] = AbsInfo(minimum: 0, maximum: slots - 1)
    d.absinfo[ABS.MT_TRACKING_ID] = AbsInfo(minimum: 0, maximum: 65535)
    return d
}

/// A scratch directory removed when the test ends.
final class TempDir {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("motioninput-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ name: String, _ text: String) -> String {
        let path = url.appendingPathComponent(name).path
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func write(_ name: String, bytes: [UInt8]) -> String {
        let path = url.appendingPathComponent(name).path
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

func rawBytes(_ events: [InputEventRecord]) -> [UInt8] { events.flatMap(\.rawBytes) }

/// The recordings folder beside the repository (`/work/shared/recordings` from a worktree in /work,
/// `../shared/recordings` from the package root in CI); nil when absent so tests skip.
let recordingsDir: String? = {
    let here = URL(fileURLWithPath: #filePath)  // <package>/Tests/MotionInputTests/Support.swift
    let package = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    for candidate in [package.appendingPathComponent("../shared/recordings"), package.appendingPathComponent("shared/recordings")] {
        let path = candidate.standardizedFileURL.path
        if FileManager.default.fileExists(atPath: path + "/wetab.evemu") { return path }
    }
    return nil
}()

/// Counts of each phase over frames.
func phaseCounts(_ frames: [Frame]) -> [PointerPhase: Int] {
    var counts: [PointerPhase: Int] = [:]
    for f in frames { for e in f.events { counts[e.phase, default: 0] += 1 } }
    return counts
}

func errorText(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(error)"
    }
}
