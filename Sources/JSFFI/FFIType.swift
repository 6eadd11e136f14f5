// The FFI's value types (Deno's names) and call signatures prepared with libffi.

import CFFI
import JSRuntime

/// A parameter or result type of a foreign function, as Deno names them
/// (`Deno.dlopen`'s `NativeType`): integers, floats, pointers, binary data, function
/// pointers and `void` (results only).
public enum FFIType: UInt8, CaseIterable, Sendable {
    case void, bool, i8, u8, i16, u16, i32, u32, i64, u64, isize, usize, f32, f64, pointer, buffer, function

    public var name: String {
        switch self {
        case .void: "void"
        case .bool: "bool"
        case .i8: "i8"
        case .u8: "u8"
        case .i16: "i16"
        case .u16: "u16"
        case .i32: "i32"
        case .u32: "u32"
        case .i64: "i64"
        case .u64: "u64"
        case .isize: "isize"
        case .usize: "usize"
        case .f32: "f32"
        case .f64: "f64"
        case .pointer: "pointer"
        case .buffer: "buffer"
        case .function: "function"
        }
    }

    public init?(name: String) {
        guard let t = FFIType.allCases.first(where: { $0.name == name }) else { return nil }
        self = t
    }

    var ffiType: UnsafeMutablePointer<ffi_type> {
        switch self {
        case .void: sable_ffi_type_void()
        case .bool, .u8: sable_ffi_type_uint8()
        case .i8: sable_ffi_type_sint8()
        case .i16: sable_ffi_type_sint16()
        case .u16: sable_ffi_type_uint16()
        case .i32: sable_ffi_type_sint32()
        case .u32: sable_ffi_type_uint32()
        case .i64, .isize: sable_ffi_type_sint64()
        case .u64, .usize: sable_ffi_type_uint64()
        case .f32: sable_ffi_type_float()
        case .f64: sable_ffi_type_double()
        case .pointer, .buffer, .function: sable_ffi_type_pointer()
        }
    }

    /// What a value of this type must be, for error messages.
    var expectation: String {
        switch self {
        case .void: "undefined"
        case .bool: "a boolean"
        case .i8: "an i8 (an integer from -128 to 127)"
        case .u8: "a u8 (an integer from 0 to 255)"
        case .i16: "an i16 (an integer from -32768 to 32767)"
        case .u16: "a u16 (an integer from 0 to 65535)"
        case .i32: "an i32 (an integer from -2147483648 to 2147483647)"
        case .u32: "a u32 (an integer from 0 to 4294967295)"
        case .i64, .isize: "an \(name) (a BigInt, or a safe integer Number, from -2^63 to 2^63-1)"
        case .u64, .usize: "a \(name) (a BigInt, or a safe integer Number, from 0 to 2^64-1)"
        case .f32, .f64: "a Number"
        case .pointer: "a Sable.Pointer or null"
        case .buffer: "an ArrayBuffer, a typed array, a DataView or null"
        case .function: "a Sable.Callback, a Sable.Pointer or null"
        }
    }
}

/// A call signature prepared once with `ffi_prep_cif` (kept for the life of the functions
/// and callbacks that use it).
public final class FFISignature {
    public let parameters: [FFIType]
    public let result: FFIType
    let cif: UnsafeMutablePointer<ffi_cif>
    let argTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    /// The parameters as raw bytes (the call path reads them without Swift array checks).
    let kinds: UnsafeMutablePointer<FFIType>

    /// The most parameters a signature may have.
    public static let maxParameters = 64

    public struct Invalid: Error, CustomStringConvertible { public var description: String }

    public init(parameters: [FFIType], result: FFIType) throws(Invalid) {
        if parameters.count > Self.maxParameters {
            throw Invalid(description: "\(parameters.count) parameters: at most \(Self.maxParameters)")
        }
        if let i = parameters.firstIndex(of: .void) {
            throw Invalid(description: "parameter \(i + 1) is void: void is only a result type")
        }
        self.parameters = parameters
        self.result = result
        let n = parameters.count
        argTypes = .allocate(capacity: max(n, 1))
        kinds = .allocate(capacity: max(n, 1))
        for (i, p) in parameters.enumerated() {
            argTypes[i] = p.ffiType
            kinds[i] = p
        }
        cif = .allocate(capacity: 1)
        if sable_ffi_prep_cif(cif, UInt32(n), result.ffiType, argTypes) != 0 {
            argTypes.deallocate(); kinds.deallocate(); cif.deallocate()
            throw Invalid(description: "libffi cannot prepare this signature")
        }
    }

    deinit {
        argTypes.deallocate()
        kinds.deallocate()
        cif.deallocate()
    }

    public var description: String {
        "(\(parameters.map(\.name).joined(separator: ", "))) -> \(result.name)"
    }
}
