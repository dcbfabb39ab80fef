/// The one audited way a per-frame path reaches an object without a retain and a release of it
/// (`Unmanaged.passUnretained`, `_withUnsafeGuaranteedRef`): a dispatcher's recognizers, the
/// plugin host's plugins, a plugin's running state, the watchdog a call publishes to, a live
/// device set's devices and queues, the live loop's output.
///
/// Invariant, relied on by every use: **while an `Unretained` is used, a strong reference held
/// elsewhere keeps its object alive** — the owner named where the `Unretained` is stored (an
/// array of the same objects, a property set together with it), which is not cleared while a
/// call through it runs. Each use site names that owner; nothing else about it is unsafe.
/// (A retain and a release are atomic read-modify-writes of a shared count; a daemon frame
/// reaches every plugin, every recognizer of each and the watchdog.)
/// A list of them is a plain array (`[Unretained<T>]`, beside the owning array of the same
/// objects): walked by index on the class that holds it, it is read in place, where a wrapper
/// struct around the array was copied, with a retain and a release of its buffer, per use.
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
