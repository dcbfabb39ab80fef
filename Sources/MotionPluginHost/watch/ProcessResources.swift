#if canImport(Glibc)
import Glibc
#endif
import CLuaShim

/// What the process holds now, for leak checks (1,000 reloads must leave these flat).
public enum ProcessResources {
    /// Bytes of the C heap in use (Lua states, Swift objects: both allocate with malloc).
    public static var heapInUse: Int { Int(ms_heapinuse()) }

    /// Open file descriptors: the entries of /proc/self/fd (less the one used to list them).
    public static var openFileDescriptors: Int {
        guard let directory = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { count += 1 }
        }
        return count - 1
    }
}
