import MotionTestSupport
import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionInput
import MotionLua
#if canImport(Glibc)
import Glibc
#endif

/// Live time flows between frames: a pipe carries the events, the device clock is injected, and
/// the test drives `LiveLoop` one step at a time (no sleeping, no timing assertions).
@Suite struct LiveClockTests {
    /// A pipe-fed live device whose clock reads `clock.now` (seconds, same base as the events).
    final class Rig {
        /// The pipe's ends; the write end is -1 once closed (`closeWriter`), so that `deinit`
        /// does not close its number again (by then it may be another test's descriptor).
        var fds: [Int32]
        let device: LiveDevice
        let loop: LiveLoop
        let runtime: LuaRuntime
        let output = CollectedOutput()
        var now = 0.0

        init(_ script: String) throws {
            var fds: [Int32] = [0, 0]
            #expect(pipeClosingOnExec(&fds) == 0)
            self.fds = fds
            let reader = try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true)
            device = LiveDevice(reader: reader)
            loop = LiveLoop(device: device)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("clock-\(UUID().uuidString).lua").path
            try script.write(toFile: path, atomically: true, encoding: .utf8)
            runtime = try LuaRuntime(scriptPath: path, output: output)
            try runtime.load()
            device.timestampsAreMonotonic = true
            device.monotonicNow = { [unowned self] in self.now }
        }

        deinit {
            runtime.close()
            device.close()
            if fds[1] >= 0 { Glibc.close(fds[1]) }
        }

        /// Writes a frame stamped `t` seconds (on the device clock).
        func write(_ t: Double, _ events: [(UInt16, UInt16, Int32)]) {
            let sec = Int64(t), usec = Int((t - Double(sec)) * 1_000_000 + 0.5)
            var bytes = [UInt8]()
            for (type, code, value) in events { bytes += inputEvent(sec: sec, usec: usec, type, code, value) }
            bytes += inputEvent(sec: sec, usec: usec, 0, 0, 0)
            _ = bytes.withUnsafeBytes { Glibc.write(fds[1], $0.baseAddress, $0.count) }
        }

        func down(_ t: Double, id: Int32, x: Int32, y: Int32) { write(t, [(3, 0x2f, 0), (3, 0x39, id), (3, 0x35, x), (3, 0x36, y)]) }
        func lift(_ t: Double) { write(t, [(3, 0x39, -1)]) }
        func closeWriter() {
            if fds[1] >= 0 { Glibc.close(fds[1]) }
            fds[1] = -1
        }

        /// One step that must not block: a generous hang guard, never reached when it works.
        func step() throws -> LiveLoop.Step { try loop.step(runtime, maxWait: 5) }
        func quietStep() throws -> LiveLoop.Step { try loop.step(runtime, maxWait: 0) }
    }

    /// A device whose timestamps are on this machine's clock needs no clock read per event
    /// (one per event before: a system call each where the clock source has no vDSO).
    @Test func framesOfAMonotonicDeviceReadNoClockWhenNothingIsDue() throws {
        let rig = try Rig(#"motion.pointers():emit("p")"#)
        var reads = 0
        rig.device.monotonicNow = { [unowned rig] in reads += 1; return rig.now }
        rig.now = 1000.0
        rig.down(1000.0, id: 4, x: 10, y: 10)
        for i in 1...10 { rig.write(1000.0 + Double(i) * 0.008, [(3, 0x35, Int32(10 + i))]) }
        rig.lift(1000.1)
        for _ in 0..<12 { #expect(try rig.loop.step(rig.runtime) == .frame) }
        #expect(rig.output.lines.count == 12)
        #expect(reads == 0)
    }

    /// A device on another clock (a FIFO) estimates input time from when each timestamp
    /// arrived: the events of a frame share one and arrive together, so the clock is read once
    /// per frame, not once per event (a system call each where the clock source has no vDSO).
    @Test func framesOfAnotherClockReadTheClockOncePerFrame() throws {
        let rig = try Rig(#"motion.pointers():emit("p")"#)
        rig.device.timestampsAreMonotonic = false
        var reads = 0
        rig.device.monotonicNow = { [unowned rig] in reads += 1; return rig.now }
        rig.now = 1000.0
        rig.down(1000.0, id: 4, x: 10, y: 10)  // 5 events
        for i in 1...10 { rig.write(1000.0 + Double(i) * 0.008, [(3, 0x35, Int32(10 + i))]) }  // 2 each
        rig.lift(1000.1)  // 2
        for _ in 0..<12 { #expect(try rig.loop.step(rig.runtime) == .frame) }
        #expect(rig.output.lines.count == 12)
        #expect(reads == 12)
        // The estimate: the last event's time plus what elapsed here since it arrived.
        rig.now = 1000.25
        #expect(rig.device.inputTimeNow() == 0.35)
    }

    @Test func aDelayFiresWhenItFallsDueWithoutFurtherInput() throws {
        let rig = try Rig("""
            motion.pointers():filter(function(p) return p.phase == "down" end):delay(0.5)
              :map(function(p) return p.id end):emit("late")
            """)
        rig.now = 1000.0
        rig.down(1000.0, id: 4, x: 10, y: 10)
        #expect(try rig.step() == .frame)
        #expect(rig.output.lines == [])
        rig.now = 1000.3
        #expect(try rig.quietStep() == .idle)
        #expect(rig.output.lines == [])
        rig.now = 1000.6
        #expect(try rig.step() == .due)
        #expect(rig.output.lines == [#"{"t":0.5,"name":"late","value":4}"#])
    }

    /// A stall (the host busy, a reload): a frame already waiting is handled before what fell
    /// due after it, so output times never go back and a tap's lift counts before its interval.
    @Test func inputAlreadyWaitingComesBeforeWhatFellDueAfterIt() throws {
        let rig = try Rig("""
            motion.pointers():map(function(p) return p.phase end):emit("now")
            motion.pointers():filter(function(p) return p.phase == "down" end):delay(0.2)
              :map(function(p) return p.id end):emit("late")
            """)
        rig.now = 1000.0
        rig.down(1000.0, id: 4, x: 10, y: 10)
        #expect(try rig.step() == .frame)
        rig.lift(1000.1)
        rig.now = 1000.5
        #expect(try rig.step() == .frame)
        #expect(try rig.quietStep() == .due)
        #expect(rig.output.lines == [#"{"t":0,"name":"now","value":"down"}"#, #"{"t":0.1,"name":"now","value":"up"}"#,
                                     #"{"t":0.2,"name":"late","value":4}"#])
    }

    @Test func aLoneTapIsDecidedWhenTheDoubleTapsIntervalRunsOut() throws {
        let rig = try Rig("""
            local double = motion.tap{taps = 2}
            local single = motion.tap{}
            single:requireToFail(double)
            motion.tapSource(single):emit("single")
            """)
        rig.now = 50.0
        rig.down(50.0, id: 1, x: 10, y: 10)
        #expect(try rig.step() == .frame)
        rig.lift(50.1)
        rig.now = 50.1
        #expect(try rig.step() == .frame)
        rig.now = 50.35
        #expect(try rig.quietStep() == .idle)
        #expect(!rig.output.lines.contains { $0.contains("\"single\"") })
        rig.now = 50.45  // past lift + interval (0.3 s)
        #expect(try rig.step() == .due)
        #expect(rig.output.lines.filter { $0.contains("\"single\"") }.first == #"{"t":0.4,"name":"single","state":"active"}"#)
    }

    @Test func aSpringRunsOnWithoutInput() throws {
        let rig = try Rig("""
            motion.spring{to = 100, from = 0}:emit("spring")
            """)
        rig.now = 7.0
        rig.down(7.0, id: 1, x: 0, y: 0)
        #expect(try rig.step() == .frame)
        rig.now = 7.1
        var steps = 0
        while case .due = try rig.quietStep(), steps < 100 { steps += 1 }
        let times = rig.output.lines.compactMap { line -> Double? in
            guard line.contains("\"value\"") else { return nil }
            return Double(line.split(separator: ":")[1].split(separator: ",")[0])
        }
        #expect(times.count >= 6)
        #expect(times.allSatisfy { $0 <= 0.1 })
        #expect(times.last! > 0.08)
    }

    @Test func endOfLiveInputSettlesWhatIsScheduledAsAtTheEndOfAFile() throws {
        let rig = try Rig("""
            motion.pointers():delay(0.5):map(function(p) return p.phase end):emit("delayed")
            """)
        rig.now = 3.0
        rig.down(3.0, id: 9, x: 1, y: 2)
        rig.write(3.1, [(3, 0x35, 5)])
        rig.closeWriter()
        #expect(try rig.loop.run(rig.runtime) == "end of input")
        #expect(rig.output.lines == [
            #"{"t":0.5,"name":"delayed","value":"down"}"#,
            #"{"t":0.6,"name":"delayed","value":"move"}"#,
            #"{"t":0.6,"name":"delayed","value":"cancel"}"#,
        ])
    }
}
