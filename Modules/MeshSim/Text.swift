extension String {
    /// At most `maxBytes` of UTF-8, cut on a character boundary: how the firmware's fixed
    /// name fields hold a longer name.
    func utf8Prefix(_ maxBytes: Int) -> String {
        var bytes = Array(utf8.prefix(maxBytes))
        while String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
