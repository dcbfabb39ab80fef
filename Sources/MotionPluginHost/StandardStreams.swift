#if canImport(Glibc)
@preconcurrency import Glibc

// glibc's `stdout` and `stderr` are mutable C globals, which the Swift 6 language mode refuses to
// read from concurrent code. These immutable copies shadow them for this module: the pointers are
// set before `main` and never reassigned, and stdio locks each FILE internally, so sharing is safe.
// (`@usableFromInline`: a public default argument may name them.)
@usableFromInline nonisolated(unsafe) let stdout: UnsafeMutablePointer<FILE> = Glibc.stdout
@usableFromInline nonisolated(unsafe) let stderr: UnsafeMutablePointer<FILE> = Glibc.stderr
#endif
