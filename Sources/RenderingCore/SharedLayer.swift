#if canImport(Glibc)
import Glibc
#endif
import CPangoCairo

/// Pixels in shared memory: a memfd mapped read-write here and passed to the host, which
/// maps it to show (or screenshot) the frame. Cairo's ARGB32: premultiplied, native-endian
/// 32-bit pixels, `stride` bytes a row.
public final class SharedLayer: @unchecked Sendable {
    public let fd: Int32
    public let width: Int
    public let height: Int
    public let stride: Int
    public let pixels: UnsafeMutableRawPointer
    let length: Int

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A new memfd of `width` x `height` pixels.
    public init(width: Int, height: Int) throws(Failure) {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        let length = stride * height
        let fd = sable_memfd_create("sable-layer")
        if fd < 0 { throw Failure(description: "memfd_create: errno \(errno)") }
        if ftruncate(fd, off_t(length)) != 0 {
            let e = errno
            close(fd)
            throw Failure(description: "ftruncate: errno \(e)")
        }
        guard let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), p != MAP_FAILED else {
            let e = errno
            close(fd)
            throw Failure(description: "mmap: errno \(e)")
        }
        self.fd = fd
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = p
        self.length = length
    }

    /// Maps a layer received from the rendering process (read-only). The descriptor's size
    /// must cover `stride * height`; otherwise this fails (a short memfd would fault).
    public init(mapping fd: Int32, width: Int, height: Int, stride: Int) throws(Failure) {
        let length = stride * height
        var st = stat()
        guard fstat(fd, &st) == 0, Int(st.st_size) >= length, length > 0 else {
            throw Failure(description: "layer descriptor smaller than \(length) bytes")
        }
        guard let p = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), p != MAP_FAILED else {
            throw Failure(description: "mmap: errno \(errno)")
        }
        self.fd = fd
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = p
        self.length = length
    }

    deinit {
        munmap(pixels, length)
        close(fd)
    }

    /// The pixel at (x, y) as (red, green, blue, alpha), un-premultiplied for opaque pixels.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let v = pixels.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
        return (UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v),
                UInt8(truncatingIfNeeded: v >> 24))
    }

    /// Writes the layer as a PNG file (Cairo's writer). Returns an error text or nil.
    public func writePNG(to path: String) -> String? {
        let surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                          Int32(width), Int32(height), Int32(stride))
        defer { cairo_surface_destroy(surface) }
        let rc = cairo_surface_write_to_png(surface, path)
        return rc == CAIRO_STATUS_SUCCESS ? nil : String(cString: cairo_status_to_string(rc))
    }

    /// The layer as PNG bytes (Cairo's writer, into memory), or nil on a Cairo error.
    public func pngData() -> [UInt8]? {
        let surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                          Int32(width), Int32(height), Int32(stride))
        defer { cairo_surface_destroy(surface) }
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let rc = cairo_surface_write_to_png_stream(surface, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        return withExtendedLifetime(sink) { rc == CAIRO_STATUS_SUCCESS ? sink.bytes : nil }
    }
}
