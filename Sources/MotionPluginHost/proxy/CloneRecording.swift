import MotionInput
import MotionProxy

/// `--proxy-output FILE` in a replay: what the clones would have received, as an evemu
/// recording (each device's identity in the header, several devices as `motionscript record`
/// writes them), every event at the input time it was due (`CloneSink`), so a recording of the
/// clone reads next to the input's.
final class CloneRecording: CloneSink {
    private let writer: EvemuWriter
    private let device: Int
    private var failure: Error?

    /// One sink per device, sharing the writer.
    static func sinks(path: String, identities: [CloneIdentity], kinds: [String?]) throws -> [CloneRecording] {
        let writer = try EvemuWriter(path: path, devices: zip(identities, kinds).map { ($0.device, $1) })
        writer.keepTimes()
        return identities.indices.map { CloneRecording(writer: writer, device: $0) }
    }

    private init(writer: EvemuWriter, device: Int) {
        self.writer = writer
        self.device = device
    }

    func write(_ frame: UnsafeBufferPointer<InputEventRecord>, due: Double) {
        guard failure == nil else { return }
        let micros = Int64((due * 1e6).rounded())
        for var e in frame {
            (e.sec, e.usec) = (micros / 1_000_000, micros % 1_000_000)
            do { try writer.write(e, device: device) } catch { failure = error }
        }
    }

    /// Closes the file; the first write error, if any.
    func close() throws {
        if let failure { throw failure }
        try writer.close()
    }
}
