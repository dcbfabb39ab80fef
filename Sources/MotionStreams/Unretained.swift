/// The one audited way a per-frame path reaches an object without a retain and a release of it
/// (`Unmanaged.passUnretained`, `_withUnsafeGuaranteedRef`): a dispatcher's recognizers, the
/// plugin host's plugins, a plugin's running state, the watchdog a call publishes to.
///
/// Invariant, relied on by every use: **while an `Unretained` is used, a strong reference held
/// elsewhere keeps its object alive** — the owner named where the `Unretained` is stored (an
/// array of the same objects, a property set together with it), which is not cleared while a
/// call through it runs. Each use site names that owner; nothing else about it is unsafe.
/// (A retain and a release are some 10–40 instructions each, atomic; a daemon frame reaches
/// every plugin, every recognizer of each and the watchdog.)
@frozen
public struct Unretained<Object: AnyObject> {
    @usableFromInline let reference: Unmanaged<Object>

    /// Refers to `object`, which its owner keeps alive (see the invariant above).
    @inlinable
    public init(_ object: Object) {
        reference = Unmanaged.passUnretained(object)
    }

    /// Calls `body` with the object, with no retain or release of it.
    @inlinable @inline(__always)
    public func with<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }

    /// The object, retained (for a caller that may outlive the owner's reference: a call that
    /// may close what it reached).
    @inlinable
    public var object: Object { reference.takeUnretainedValue() }
}

/// Objects reached unretained, in order: the same objects an owning array holds (`Unretained`'s
/// invariant: the owner appends to both, and removes from this first).
@frozen
public struct UnretainedList<Object: AnyObject> {
    @usableFromInline var items: [Unretained<Object>] = []

    /// An empty list.
    @inlinable
    public init() {}

    /// The list of `objects`, which the caller's owning array holds.
    @inlinable
    public init(_ objects: [Object]) {
        items = objects.map(Unretained.init)
    }

    /// How many objects it reaches.
    @inlinable
    public var count: Int { items.count }

    /// Whether it reaches none.
    @inlinable
    public var isEmpty: Bool { items.isEmpty }

    /// Adds `object`, which the owning array holds too.
    @inlinable
    public mutating func append(_ object: Object) {
        items.append(Unretained(object))
    }

    /// Calls `body` with the object at `index`, with no retain or release of it.
    @inlinable @inline(__always)
    public func with<Result>(_ index: Int, _ body: (Object) throws -> Result) rethrows -> Result {
        try items[index].with(body)
    }
}
