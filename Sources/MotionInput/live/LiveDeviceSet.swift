#if canImport(Glibc)
import Glibc
#endif
import MotionGestures

/// Several live devices read as one input (`--device` repeated): paths, and selectors
/// (`touchpad`, `touchscreen`, `mouse`, `name=GLOB`) matched against the devices present and,
/// through inotify on /dev/input, against devices plugged in later. Frames come out one device
/// at a time, on one time line (the first event of any device is t 0; evdev timestamps share
/// CLOCK_MONOTONIC). Every pointer event names its device (`PointerEvent.device`), and pointer
/// ids stay unique among the pointers down: an id already down on another device is replaced by a
/// fresh one (from 1,000,000) until that pointer lifts. A device that goes away cancels its
/// pointers and the rest go on; input ends when every device named by path is gone (with
/// selectors only, it goes on until stopped), or on `stop()`/a signal.
public final class LiveDeviceSet {
    public struct Member {
        public let device: LiveDevice
        public let tag: PointerDevice
        public let node: String
        public let byPath: Bool
        var ids: [Int: Int] = [:]
    }

    public private(set) var members: [Member] = []
    public let selectors: [DeviceSelector]
    /// Told when devices come and go, and about dropped events.
    public var diagnostics: ((String) -> Void)?
    /// Stops reading (signals too, through `control.stopOnSignals()`).
    public let control: LiveEventReader

    private let options: EventFileOptions
    private let grab: Bool
    private var inotify: Int32 = -1
    private var origin: Double?
    private var originMicroseconds: Int64 = 0
    private var pathsOpened = 0
    private var lastReason = "end of input"
    private var nextFreshId = 1_000_000
    private var ending = false
    private var nextIndex = 0
    private let controlPipe: [Int32]
    private var closed = false

    public static let inputDirectory = "/dev/input"

    /// Opens every path (an error for one that cannot be opened) and every present device a
    /// selector matches; with selectors, watches /dev/input for more.
    public init(selectors: [DeviceSelector], options: EventFileOptions = EventFileOptions(), grab: Bool = false,
                diagnostics: ((String) -> Void)? = nil) throws {
        self.selectors = selectors
        self.options = options
        self.grab = grab
        self.diagnostics = diagnostics
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw InputError(file: "<devices>", "cannot create a pipe: \(String(cString: strerror(errno)))") }
        controlPipe = fds
        control = try LiveEventReader(fileDescriptor: fds[0], name: "<control>", ownsDescriptor: true)
        for case .path(let path) in selectors {
            let device = try LiveDevice(path: path, options: options, grab: grab)
            add(device, node: path, byPath: true)
            pathsOpened += 1
        }
        if selectors.contains(where: { !$0.isPath }) {
            inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            if inotify >= 0 { _ = inotify_add_watch(inotify, Self.inputDirectory, UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB)) }
            for info in InputDeviceList.current() {
                guard let node = info.eventNode, selectors.contains(where: { $0.matches(name: info.name, kind: info.kind) }) else { continue }
                open(node)
            }
            if members.isEmpty {
                diagnostics?("motionscript: no device matches \(selectors.filter { !$0.isPath }.map(\.description).joined(separator: ", ")) yet; waiting for one to be plugged in")
            }
        }
    }

    deinit { close() }

    /// Releases every grab and closes the devices (idempotent).
    public func close() {
        guard !closed else { return }  // a descriptor closed twice could be someone else's by then
        closed = true
        for member in members { member.device.close() }
        members.removeAll()
        if inotify >= 0 { Glibc.close(inotify); inotify = -1 }
        control.close()
        Glibc.close(controlPipe[1])
    }

    public func stop() { control.stop() }

    /// The first member's description (for `--surface mm`'s screen size), or an empty one.
    public var firstDevice: LiveDevice? { members.first?.device }

    private func add(_ device: LiveDevice, node: String, byPath: Bool) {
        let d = device.device
        let kind = InputDeviceInfo.classify(properties: d.properties, abs: d.codes[EV.ABS] ?? [], rel: d.codes[EV.REL] ?? [])
        let name = d.name.isEmpty ? node : d.name
        device.diagnostics = { [weak self] in self?.diagnostics?("motionscript: \($0)") }
        members.append(Member(device: device, tag: PointerDevice(name: name, kind: kind.rawValue), node: node, byPath: byPath))
    }

    /// Opens a device a selector matched (present at start or plugged in); failures are said, not fatal.
    private func open(_ node: String) {
        guard !members.contains(where: { $0.node == node }) else { return }
        do {
            let device = try LiveDevice(path: node, options: options, grab: grab)
            let d = device.device
            let kind = InputDeviceInfo.classify(properties: d.properties, abs: d.codes[EV.ABS] ?? [], rel: d.codes[EV.REL] ?? [])
            guard selectors.contains(where: { $0.matches(name: d.name, kind: kind) }) else {
                device.close()
                return
            }
            add(device, node: node, byPath: false)
            diagnostics?("motionscript: reading \(node) (\(kind.rawValue): \(d.name))")
        } catch {
            diagnostics?("motionscript: \(error)")
        }
    }

    /// New nodes in /dev/input that a selector names.
    private func checkHotplug() {
        guard inotify >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var nodes: [String] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            while offset + 16 <= n {
                let length = Int(buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) })
                let nameBytes = buffer[(offset + 16)..<min(n, offset + 16 + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if name.hasPrefix("event") { nodes.append(Self.inputDirectory + "/" + name) }
                offset += 16 + length
            }
        }
        for node in Set(nodes).sorted() { open(node) }
    }

    /// Input time now on the shared time line (nil before the first event).
    public func inputTimeNow() -> Double? {
        guard origin != nil else { return nil }
        for member in members {
            if let t = member.device.inputTimeNow(), let o = member.device.timeOriginMicroseconds {
                return Double(Int64((t * 1_000_000).rounded()) &+ (o &- originMicroseconds)) / 1_000_000
            }
        }
        return nil
    }

    /// The next frame of any device, waiting at most `timeout` seconds (nil: no limit).
    public func nextFrame(timeout: Double?) throws -> LiveDevice.Next {
        let deadline = timeout.map { LiveEventReader.now() + $0 }
        while true {
            if !ending, case .end = try control.next(timeout: 0) { beginEnding("stopped") }
            // Frames already buffered or readable, one device after the other.
            var index = 0
            while index < members.count {
                let i = (nextIndex + index) % members.count
                switch try members[i].device.nextFrame(timeout: 0) {
                case .frame(let frame):
                    nextIndex = i + 1
                    return .frame(tagged(frame, member: i))
                case .end(let reason):
                    let member = members.remove(at: i)
                    member.device.close()
                    if !ending {
                        lastReason = reason
                        let goesOn = members.contains(where: { $0.byPath }) || (pathsOpened == 0 && inotify >= 0)
                        if goesOn { diagnostics?("motionscript: \(member.node): \(reason); its pointers are cancelled, the others go on") }
                    }
                    if member.byPath, !ending, !members.contains(where: { $0.byPath }), pathsOpened > 0 {
                        beginEnding(reason)
                    }
                    continue
                case .timeout:
                    index += 1
                }
            }
            if ending || (members.isEmpty && inotify < 0) { return .end(lastReason) }
            checkHotplug()
            let left = deadline.map { max(0, $0 - LiveEventReader.now()) }
            var fds = members.map { pollfd(fd: $0.device.reader.fileDescriptor, events: Int16(POLLIN), revents: 0) }
            fds.append(pollfd(fd: control.wakeFileDescriptor, events: Int16(POLLIN), revents: 0))
            if inotify >= 0 { fds.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
            let ready = pollWait(&fds, seconds: left)
            if ready == 0, let deadline, LiveEventReader.now() >= deadline { return .timeout }
        }
    }

    /// Ends input: every device still open is stopped, so its pointers are cancelled.
    private func beginEnding(_ reason: String) {
        ending = true
        lastReason = reason
        for member in members { member.device.stop() }
    }

    /// The frame on the shared time line, each event naming its device, ids unique among the
    /// pointers down.
    private func tagged(_ frame: Frame, member i: Int) -> Frame {
        let device = members[i].device
        if origin == nil {
            origin = device.timeOrigin
            originMicroseconds = device.timeOriginMicroseconds ?? 0
        }
        // Whole microseconds, so t stays the correctly rounded decimal the decoder gives.
        let offset = (device.timeOriginMicroseconds ?? originMicroseconds) &- originMicroseconds
        let t = offset == 0 ? frame.t : Double(Int64((frame.t * 1_000_000).rounded()) &+ offset) / 1_000_000
        var events = frame.events
        for k in events.indices {
            let raw = events[k].id
            var id = members[i].ids[raw] ?? raw
            if events[k].phase == .down {
                let taken = members.indices.contains { j in j != i && members[j].ids.values.contains(id) }
                if taken {
                    id = nextFreshId
                    nextFreshId += 1
                }
                members[i].ids[raw] = id
            }
            events[k].id = id
            events[k].t = t
            events[k].device = members[i].tag
            if events[k].phase == .up || events[k].phase == .cancel { members[i].ids[raw] = nil }
        }
        return Frame(t: t, events: events)
    }
}
