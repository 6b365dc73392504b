import Glibc

/// C copies of Swift strings and bytes for one Paho call (Paho copies what it keeps), freed
/// together when this goes.
final class CCopies {
    private var pointers: [UnsafeMutableRawPointer] = []

    func copy(_ text: String?) -> UnsafePointer<CChar>? {
        guard let text, let pointer = strdup(text) else { return nil }
        pointers.append(UnsafeMutableRawPointer(pointer))
        return UnsafePointer(pointer)
    }

    func copy(bytes: [UInt8]) -> UnsafeRawPointer? {
        guard !bytes.isEmpty, let pointer = malloc(bytes.count) else { return nil }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { pointer.copyMemory(from: base, byteCount: source.count) }
        }
        pointers.append(pointer)
        return UnsafeRawPointer(pointer)
    }

    deinit { for pointer in pointers { free(pointer) } }
}
