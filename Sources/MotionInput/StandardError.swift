#if canImport(Glibc)
@preconcurrency import Glibc

/// glibc's `stderr` is a mutable C global, which the Swift 6 language mode refuses to read from
/// concurrent code. This immutable copy shadows it for this module: the pointer is set before
/// `main` and never reassigned, and stdio locks each FILE internally, so sharing it is safe.
/// (`@usableFromInline`: a public default argument may name it.)
@usableFromInline nonisolated(unsafe) let stderr: UnsafeMutablePointer<FILE> = Glibc.stderr
#endif
