import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Filesystems on which inotify misses changes: made on another machine (NFS, SMB, AFS, Ceph…)
/// or at all (9p, FUSE). There, a daemon's folder or a `run --watch` script would silently
/// never reload; one warning at start-up says so and what still works (docs/daemon.md).
public enum UnwatchedFilesystem {
    /// statfs(2) f_type magic numbers (linux/magic.h and the filesystems' own headers).
    static let names: [Int: String] = [
        0x6969: "NFS", 0xFF53_4D42: "CIFS", 0xFE53_4D42: "SMB2", 0x517B: "SMB",
        0x0102_1997: "9p", 0x6573_5546: "FUSE", 0x5346_414F: "AFS", 0x6B41_4653: "AFS",
        0x7375_7245: "Coda", 0x0BD0_0BD0: "Lustre", 0x00C3_6400: "Ceph", 0x4750_4653: "GPFS",
        0x0000_564C: "NCP",
    ]

    /// The f_type of the filesystem holding `path`; nil when statfs fails.
    public static func type(of path: String) -> Int? {
        var info = statfs()
        guard statfs(path, &info) == 0 else { return nil }
        return Int(UInt32(truncatingIfNeeded: info.f_type))
    }

    /// The warning for `path` (`what`: "the config folder", "the script"), nil on a filesystem
    /// whose changes inotify sees. `type`: the statfs lookup (tests inject one).
    public static func warning(for path: String, what: String, reload: String,
                               type: (String) -> Int? = UnwatchedFilesystem.type(of:)) -> String? {
        guard let magic = type(path), let name = names[magic] else { return nil }
        return "warning: \(what) \(path) is on \(name), where file changes may not be seen (inotify misses changes made on other machines, or all of them): edits may not reload; \(reload)"
    }
}
