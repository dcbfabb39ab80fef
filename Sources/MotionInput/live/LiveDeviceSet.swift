import CLinux
#if canImport(Glibc)
import Glibc
#endif
import MotionGestures
import MotionStreams

/// Several live devices read as one input (`--device` repeated; the daemon's input hub): paths,
/// and selectors (`touchpad`, `touchscreen`, `mouse`, `name=GLOB`) matched against the devices
/// present and, through inotify on /dev/input, against devices plugged in later. Every device is
/// opened once, whoever reads the frames.
///
/// One wait per wake-up: `nextFrame` waits once on its `EventLoop` (`ReadySet`, epoll): every
/// device, the stop pipe, the hotplug watch and whatever else is registered with the loop,
/// whatever their number, with no polling interval (no time limit: no wake-up at all until
/// something happens). The set is the loop's `EventSource`.
/// Each device the wait says is readable is read once (one `read(2)`); its complete frames are
/// queued, and frames leave in timestamp order across devices (evdev timestamps share
/// CLOCK_MONOTONIC), not device by device. The first event of any device is t 0.
///
/// Every pointer event names its device (`PointerEvent.device`), and pointer ids stay unique
/// among the pointers down: an id already down on another device is replaced by a fresh one
/// (from 1,000,000) until that pointer lifts. A device that goes away cancels its pointers and
/// the rest go on. Input ends when every device named by path is gone (with selectors only, it
/// goes on until stopped), or on `stop()`/a signal — unless `waitsForDevices` is set (a
/// long-running host): then nothing but `stop()` ends input, and a device named by path that
/// went away is opened again when its node comes back (suspend/resume, Bluetooth), as
/// selectors pick up devices plugged in again.
public final class LiveDeviceSet {
    public struct Member {
        public let device: LiveDevice
        public let tag: PointerDevice
        public let node: String
        public let byPath: Bool
        var ids = DevicePointerIds()
        /// Frames read and decoded, not yet delivered (in the device's order).
        let queue = FrameQueue()
        /// Set once the device ended; the member leaves once its queue is empty.
        var endReason: String?

        var hasQueued: Bool { !queue.isEmpty }
    }

    public private(set) var members: [Member] = []
    /// Told of each device opened after it is set (hotplug, a device back), and of each device
    /// that leaves, after its last frame was handed over (`--proxy` makes and ends clones here).
    public var memberAdded: ((Member) -> Void)?
    public var memberRemoved: ((Member) -> Void)?
    /// The raw input's recording (the flight recorder): every device, present and joining
    /// later, reads into the ring it hands out, before the device's first frame is delivered
    /// (nil: nothing recorded).
    public var recording: RawRecording? {
        didSet { for member in members { record(member) } }
    }
    public let selectors: [DeviceSelector]
    /// Told when devices come and go, and about dropped events.
    public var diagnostics: ((String) -> Void)?
    /// The one wait: the devices, the stop pipe and everything registered with it.
    public let loop: EventLoop
    /// The loop was made by the set (closed with it).
    private let ownsLoop: Bool
    /// Stops reading (signals too, through `control.stopFileDescriptor`): the loop's stop pipe.
    public var control: LiveEventReader { loop.control }
    /// Only `stop()` ends input: devices that go away are waited for (see the type's comment).
    public let waitsForDevices: Bool

    private let options: EventFileOptions
    private let grab: Bool
    private var inotify: Int32 = -1
    /// inotify watch → the directory it watches.
    private var watchedDirectories: [Int32: String] = [:]
    /// Nodes named by path that went away, opened again when they reappear.
    private var awaiting: Set<String> = []
    /// Nodes a selector matched that could not be opened (udev had not yet given the node its
    /// group): tried again when their attributes change.
    private var unopened: Set<String> = []
    /// Whether the watched directories report attribute changes of their nodes (`IN_ATTRIB`),
    /// which they do only while a node is waited for (see `updateAttributeWatch`).
    public private(set) var watchesAttributes = false
    /// The inotify descriptor watching for nodes (-1: none): for tests, which read the
    /// kernel's view of its watches (/proc/self/fdinfo).
    public var hotplugDescriptor: Int32 { inotify }
    private var origin: Double?
    private var originMicroseconds: Int64 = 0
    private var pathsOpened = 0
    private var lastReason = "end of input"
    private var tagger = DeviceFrameTagger()
    private var ending = false
    /// Waits made so far (the loop's): one per wake-up, however many devices and registered
    /// descriptors were ready.
    public var waits: Int { loop.waits }
    /// Reads the devices into their backlogs while the host is busy between frames.
    let drain = InputDrain()
    private var drainStarted = false
    /// The last `nextFrame` handed over a frame.
    private var handedFrame = false
    private var closed = false

    public static let inputDirectory = "/dev/input"

    /// Opens every path (an error for one that cannot be opened) and every present device a
    /// selector matches; with selectors, watches /dev/input for more. With `waitsForDevices`,
    /// a path that is not there yet is waited for instead of an error.
    public init(selectors: [DeviceSelector], options: EventFileOptions = EventFileOptions(), grab: Bool = false,
                waitsForDevices: Bool = false, loop: EventLoop? = nil, diagnostics: ((String) -> Void)? = nil) throws {
        self.selectors = selectors
        self.options = options
        self.grab = grab
        self.waitsForDevices = waitsForDevices
        self.diagnostics = diagnostics
        self.loop = try loop ?? EventLoop()
        ownsLoop = loop == nil
        let paths = selectors.compactMap { if case .path(let path) = $0 { return path } else { return nil } }
        if selectors.contains(where: { !$0.isPath }) || (waitsForDevices && !paths.isEmpty) {
            inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        }
        if selectors.contains(where: { !$0.isPath }) { watchDirectory(Self.inputDirectory) }
        for path in paths {
            if waitsForDevices {
                watchDirectory(Self.directory(of: path))
                if !reopen(path) {
                    diagnostics?("motionscript: \(path) is not there yet; waiting for it")
                }
                continue
            }
            let device = try LiveDevice(path: path, options: options, grab: grab)
            add(device, node: path, byPath: true)
            pathsOpened += 1
        }
        if selectors.contains(where: { !$0.isPath }) {
            for info in InputDeviceList.current() {
                guard let node = info.eventNode, !info.isProxyClone,
                      selectors.contains(where: { $0.matches(name: info.name, kind: info.kind) }) else { continue }
                open(node)
            }
            if members.isEmpty {
                diagnostics?("motionscript: no device matches \(selectors.filter { !$0.isPath }.map(\.description).joined(separator: ", ")) yet; waiting for one to be plugged in")
            }
        }
        updateAttributeWatch()
        self.loop.attach(self)
        // A descriptor registered with the loop and closed without being unregistered is said
        // where the set says what happens to its devices.
        if self.loop.diagnostics == nil { self.loop.diagnostics = { [weak self] in self?.diagnostics?($0) } }
    }

    deinit { close() }

    /// Releases every grab and closes the devices (idempotent). Watched descriptors stay their
    /// owners' to close.
    public func close() {
        guard !closed else { return }  // a descriptor closed twice could be someone else's by then
        closed = true
        drain.end()  // before any device closes: the drain never reads a descriptor number reused
        for member in members { member.device.close() }
        members.removeAll()
        if inotify >= 0 { Glibc.close(inotify); inotify = -1 }
        loop.detach(self)
        if ownsLoop { loop.close() }
    }

    public func stop() { loop.stop() }

    /// The first member's description (for `--surface mm`'s screen size), or an empty one.
    public var firstDevice: LiveDevice? { members.first?.device }

    private func add(_ device: LiveDevice, node: String, byPath: Bool) {
        let d = device.device
        let kind = InputDeviceInfo.classify(properties: d.properties, abs: d.codes[EV.ABS] ?? [], rel: d.codes[EV.REL] ?? [])
        let name = d.name.isEmpty ? node : d.name
        device.diagnostics = { [weak self] in self?.diagnostics?("motionscript: \($0)") }
        let member = Member(device: device, tag: PointerDevice(name: name, kind: kind.rawValue), node: node, byPath: byPath)
        // The decoder names the device as it makes each event, so tagging a frame changes
        // nothing in it (and copies nothing) unless an id or the time line must change.
        device.pointerDevice = member.tag
        members.append(member)
        record(member)
        loop.sourceChanged()
        memberAdded?(member)
        // Said once a device: thresholds in millimetres would silently be device units.
        if let note = options.rawUnitsNote(for: d), rawUnitsSaid.insert(node).inserted {
            diagnostics?("motionscript: \(node): \(note)")
        }
    }

    /// Gives `member`'s reader its ring (`recording`), or none.
    private func record(_ member: Member) {
        member.device.reader.recorder = recording?.ring(for: member)
    }

    /// The devices whose raw units were said (`add`).
    private var rawUnitsSaid: Set<String> = []

    /// Opens a device a selector matched (present at start or plugged in); failures are said, not fatal.
    private func open(_ node: String) {
        guard !members.contains(where: { $0.node == node }) else { return }
        // A clone `--proxy` made (ours or another motionscript's) is never read nor grabbed.
        if InputDeviceList.current().contains(where: { $0.eventNode == node && $0.isProxyClone }) { return }
        do {
            let device = try LiveDevice(path: node, options: options, grab: grab)
            let d = device.device
            let kind = InputDeviceInfo.classify(properties: d.properties, abs: d.codes[EV.ABS] ?? [], rel: d.codes[EV.REL] ?? [])
            guard selectors.contains(where: { $0.matches(name: d.name, kind: kind) }) else {
                device.close()
                return
            }
            add(device, node: node, byPath: false)
            unopened.remove(node)
            diagnostics?("motionscript: reading \(node) (\(kind.rawValue): \(d.name))")
        } catch {
            // Said once, tried again when the node's attributes change (its group set by udev).
            if unopened.insert(node).inserted { diagnostics?("motionscript: \(error)") }
        }
    }

    /// Opens a device named by path again (`waitsForDevices`); false (and waits for its node)
    /// when it cannot be opened now.
    @discardableResult
    private func reopen(_ path: String) -> Bool {
        guard !members.contains(where: { $0.node == path }) else { return true }
        do {
            let device = try LiveDevice(path: path, options: options, grab: grab)
            add(device, node: path, byPath: true)
            awaiting.remove(path)
            return true
        } catch {
            awaiting.insert(path)
            return false
        }
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private func watchDirectory(_ directory: String) {
        guard inotify >= 0, !watchedDirectories.values.contains(directory) else { return }
        let wd = inotify_add_watch(inotify, directory, directoryEvents)
        if wd >= 0 { watchedDirectories[wd] = directory }
    }

    /// What a watched directory reports: nodes that appear, and attribute changes of its nodes
    /// only while one is waited for.
    private var directoryEvents: UInt32 {
        UInt32(IN_CREATE | IN_MOVED_TO) | (watchesAttributes ? UInt32(IN_ATTRIB) : 0)
    }

    /// `IN_ATTRIB` on the watched directories while a node is waited for (a node appears before
    /// udev gives it its group: the change of its attributes says when it can be opened), off
    /// otherwise. A directory watched for its children's attributes makes the kernel look up
    /// the watch on every read of every node in it (`fsnotify_parent`: a reference on the
    /// directory taken and dropped per read), ours and every other program's reading input
    /// devices — some 5,000 instructions per frame in the daemon (scripts/bench-lisgd ftrace).
    /// When it turns on, the nodes waited for are tried once more: a change made before the
    /// watch saw it would never be reported.
    private func updateAttributeWatch() {
        guard inotify >= 0 else { return }
        // A node a selector matched that is gone (unplugged before it could be opened) is not waited for.
        unopened = unopened.filter { access($0, F_OK) == 0 }
        let wanted = !awaiting.isEmpty || !unopened.isEmpty
        guard wanted != watchesAttributes else { return }
        watchesAttributes = wanted
        // The same directory again: the watch keeps its descriptor and takes the new events.
        for directory in Set(watchedDirectories.values) { _ = inotify_add_watch(inotify, directory, directoryEvents) }
        guard wanted else { return }
        for path in awaiting.sorted() where reopen(path) {
            diagnostics?("motionscript: \(path) is back; reading it again")
        }
        for node in unopened.sorted() { open(node) }
        if awaiting.isEmpty && unopened.isEmpty { updateAttributeWatch() }
    }

    /// New nodes in a watched directory: devices a selector names, and paths waited for.
    private func checkHotplug() {
        guard inotify >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var nodes: [String] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            while offset + 16 <= n {
                let wd = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset, as: Int32.self) }
                let length = Int(buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) })
                let nameBytes = buffer[(offset + 16)..<min(n, offset + 16 + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if let directory = watchedDirectories[wd] {
                    nodes.append((directory == "/" ? "" : directory) + "/" + name)
                }
                offset += 16 + length
            }
        }
        let prefix = Self.inputDirectory + "/event"
        for node in Set(nodes).sorted() {
            if awaiting.contains(node) {
                if reopen(node) { diagnostics?("motionscript: \(node) is back; reading it again") }
            } else if node.hasPrefix(prefix), selectors.contains(where: { !$0.isPath }) {
                open(node)
            }
        }
        updateAttributeWatch()
    }

    /// The shared time line's input time of a timestamp of a device (seconds on its clock,
    /// CLOCK_MONOTONIC); nil before the first frame fixed the line's origin.
    public func inputTime(ofDeviceTime seconds: Double) -> Double? {
        guard origin != nil else { return nil }
        return seconds - Double(originMicroseconds) / 1_000_000
    }

    /// Input time now on the shared time line (nil before the first event).
    public func inputTimeNow() -> Double? {
        guard origin != nil else { return nil }
        // By index: a copy of a member would retain every reference it holds.
        for i in members.indices {
            let device = members[i].device
            if let t = device.inputTimeNow(), let o = device.timeOriginMicroseconds {
                return Double(Int64((t * 1_000_000).rounded()) &+ (o &- originMicroseconds)) / 1_000_000
            }
        }
        return nil
    }

    /// The next frame of any device, in timestamp order across devices, waiting at most
    /// `timeout` seconds (nil: no limit). When a watched descriptor was ready, its handler ran
    /// and no frame is: `.timeout` at once, so the caller sees what the handler changed.
    /// While the caller is busy between calls, the devices are drained into backlogs
    /// (`InputDrain`): a slow moment of the host delays frames and loses none.
    public func nextFrame(timeout: Double?) throws -> LiveDevice.Next {
        drain.enter()
        var handed = false
        defer {
            drain.leave(handingFrame: handed)
            handedFrame = handed
        }
        if !drainStarted {
            drainStarted = true
            drain.start()
        }
        let deadline = timeout.map { LiveEventReader.now() + $0 }
        while true {
            if drain.hasBacklog { try takeBacklogs() }
            if let frame = takeEarliest() {
                handed = true
                return .frame(frame)
            }
            if ending || (members.isEmpty && inotify < 0 && !waitsForDevices) { return .end(lastReason) }
            // Nothing expected (no time limit, and no frame just handled): the drain's looks stop.
            if timeout == nil, !handedFrame { drain.quiesce() }
            let left = deadline.map { $0 - LiveEventReader.now() }
            switch try loop.wait(seconds: left) {
            case .nothing:
                if let deadline, LiveEventReader.now() >= deadline { return .timeout }
            case .ready(let handled):
                // A handler's work (a new plugin, scheduled work) is the caller's to see at once.
                if handled, !members.contains(where: { $0.hasQueued }) { return .timeout }
            }
        }
    }

    /// What the drain read while the caller was busy, a buffer's worth at a time into each
    /// device's queue once it is empty (so the earliest frame across devices is always queued).
    private func takeBacklogs() throws {
        var left = false
        var i = 0
        while i < members.count {
            if members[i].device.reader.hasBacklog {
                if !members[i].hasQueued, members[i].endReason == nil { try read(member: i) }
                if members[i].device.reader.hasBacklog { left = true }
            }
            i += 1
        }
        if !left { drain.backlogTaken() }
    }

    /// One read of a device the wait said is ready, and the frames it completes.
    private func read(member i: Int) throws {
        // Without reference counting: the member (`Unretained`'s owner) holds both while they are used.
        let result = try Unretained(members[i].device).with { device in
            try Unretained(members[i].queue).with { queue in
                try device.read(into: queue)
            }
        }
        if case .end(let reason) = result { endMember(i, reason) }
    }

    private func endMember(_ i: Int, _ reason: String) {
        guard members[i].endReason == nil else { return }
        members[i].endReason = reason
        if let cancel = members[i].device.end(reason) { members[i].queue.append(cancel) }
        loop.sourceChanged()
    }

    /// The queued frame with the earliest timestamp (ties: the first device), tagged; members
    /// that ended leave once their frames are out.
    @inline(__always)
    private func takeEarliest() -> Frame? {
        // One device (the usual case): its next frame is the earliest, no times to compare.
        if members.count == 1 {
            if !members[0].queue.isEmpty, var frame = members[0].queue.popFirst() {
                tag(&frame, member: 0)
                return frame
            }
            if members[0].endReason != nil { remove(member: 0) }
            return nil
        }
        return takeEarliestOfSeveral()
    }

    private func takeEarliestOfSeveral() -> Frame? {
        var best = -1
        var bestTime = Int64.max
        var i = 0
        // Members are read in place: a copy of one would retain every reference it holds.
        while i < members.count {
            if !members[i].hasQueued {
                if members[i].endReason != nil {
                    remove(member: i)
                    continue
                }
                i += 1
                continue
            }
            let t = Int64((members[i].queue.firstTime * 1_000_000).rounded()) &+ (members[i].device.timeOriginMicroseconds ?? 0)
            if t < bestTime {
                bestTime = t
                best = i
            }
            i += 1
        }
        guard best >= 0 else { return nil }
        // Moved out of the queue, so its events are tagged in place (no copy of the array).
        var frame = members[best].queue.popFirst()!
        tag(&frame, member: best)
        return frame
    }

    /// A member that ended and delivered its last frame: said, and waited for when it may come
    /// back.
    private func remove(member i: Int) {
        let member = members.remove(at: i)
        loop.sourceChanged()
        memberRemoved?(member)
        member.device.close()
        let reason = member.endReason ?? lastReason
        guard !ending else { return }
        lastReason = reason
        if waitsForDevices {
            if member.byPath {
                // A FIFO can be opened again at once (it waits for its next writer); a device
                // node that went away is waited for.
                if reopen(member.node) {
                    diagnostics?("motionscript: \(member.node): \(reason); opened it again")
                } else {
                    diagnostics?("motionscript: \(member.node): \(reason); waiting for it to come back")
                }
            } else {
                diagnostics?("motionscript: \(member.node): \(reason); its pointers are cancelled, waiting for it to come back")
            }
            updateAttributeWatch()
            return
        }
        let goesOn = members.contains(where: { $0.byPath }) || (pathsOpened == 0 && inotify >= 0)
        if goesOn { diagnostics?("motionscript: \(member.node): \(reason); its pointers are cancelled, the others go on") }
        if member.byPath, !members.contains(where: { $0.byPath }), pathsOpened > 0 {
            beginEnding(reason)
        }
    }

    /// Ends input: every device still open ends, so its pointers are cancelled.
    private func beginEnding(_ reason: String) {
        ending = true
        lastReason = reason
        for i in members.indices { endMember(i, reason) }
    }

    /// Puts the frame on the shared time line, each event naming its device, ids unique among
    /// the pointers down.
    @inline(__always)
    private func tag(_ frame: inout Frame, member i: Int) {
        if origin == nil {
            origin = members[i].device.timeOrigin
            originMicroseconds = members[i].device.timeOriginMicroseconds ?? 0
        }
        let offset = (members[i].device.timeOriginMicroseconds ?? originMicroseconds) &- originMicroseconds
        // The usual frame (fingers moving on a device that gives its own ids, on the first
        // device's time line) already is what tagging makes it.
        if offset == 0, members[i].ids.givesOwnIds, isTagged(frame, member: i) { return }
        retag(&frame, member: i, offset: offset)
    }

    @inline(never)
    private func retag(_ frame: inout Frame, member i: Int, offset: Int64) {
        let t = DeviceFrameTagger.shifted(frame.t, by: offset)
        // Other devices' ids are looked at only when a pointer goes down and there are other
        // devices; otherwise the ids are tagged in place (nothing taken out and put back).
        if members.count == 1 || !frame.events.contains(where: { $0.phase == .down }) {
            tagger.tag(&frame, t: t, device: members[i].tag, ids: &members[i].ids) { _ in false }
            return
        }
        // Taken out while tagging, so the other members can be looked at meanwhile.
        var ids = members[i].ids
        members[i].ids = DevicePointerIds()
        tagger.tag(&frame, t: t, device: members[i].tag, ids: &ids) { id in
            members.contains { $0.ids.gives(id) }
        }
        members[i].ids = ids
    }

    /// True when every event of `frame` is a move at the frame's time that names member `i`'s device.
    @inline(__always)
    private func isTagged(_ frame: Frame, member i: Int) -> Bool {
        for k in frame.events.indices {
            if frame.events[k].phase != .move || frame.events[k].t != frame.t || frame.events[k].device !== members[i].tag { return false }
        }
        return true
    }
}

/// The set's side of its loop: its devices and hotplug watch in the loop's one wait, handed back
/// by tag (hotplug -1, members by index).
extension LiveDeviceSet: EventSource {
    public func descriptors(into entries: inout [(fd: Int32, events: Int16, tag: Int)]) {
        if inotify >= 0 { entries.append((inotify, Int16(POLLIN), -1)) }
        for (i, member) in members.enumerated() where member.endReason == nil {
            entries.append((member.device.reader.fileDescriptor, Int16(POLLIN), i))
        }
        drain.setReaders(members.filter { $0.endReason == nil }.map(\.device.reader))
    }

    /// Reads a readable device once and queues its frames, or notices hotplug.
    @inline(__always)
    public func ready(tag: Int) throws {
        if tag < 0 {
            checkHotplug()
        } else if tag < members.count {
            try read(member: tag)
        }
    }

    public func closed(tag: Int) {
        if tag >= 0, tag < members.count { endMember(tag, "device closed") }
    }

    public func stopRequested() {
        if !ending { beginEnding("stopped") }
    }

    /// A handler may take long (a control request reloading a plugin, a focus change reaching
    /// every plugin): the devices are the drain's meanwhile.
    public func handlerWillRun() { drain.leave(handingFrame: true) }
    public func handlerDidRun() { drain.enter() }
}
