import Testing
import Foundation
@testable import MotionInput

@Test func scratch() throws {
    for name in ["3m", "wetab", "ntrig-dell-xt2", "bcm5974"] {
        let r = try EvemuReader(path: "/work/shared/recordings/\(name).evemu")
        let frames = try r.readAll()
        let evs = frames.flatMap(\.events)
        var c: [String: Int] = [:]
        for e in evs { c[e.phase.rawValue, default: 0] += 1 }
        print(name, frames.count, c, Set(evs.map(\.id)).count, frames.last!.t, r.unknownEventCount, r.device.name)
        print(frames.prefix(3).map { "\($0)" }.joined(separator: "\n"))
    }
}
