/// Token types. Keywords are `.name` tokens classified by `Keyword`.
public enum TokenType: UInt8, Sendable {
    case eof
    case name          // identifiers and all keywords (see `Token.keyword`)
    case privateName   // #name
    case number
    case bigint
    case string
    case template      // a template chunk: `...${  or  }...${  or  }...`  or `...`
    case regexp
    // Punctuators
    case braceL, braceR, parenL, parenR, bracketL, bracketR
    case semi, comma, colon, dot, ellipsis, question, questionDot, arrow
    case eq                 // =
    case assignOp           // += -= ... ??=  (see `assignOp`)
    case incDec             // ++ --
    case bang, tilde
    case plus, minus        // + - (binary or unary)
    case star, slash, modulo, starstar
    case lt, gt, le, ge, eqeq, ne, eqeqeq, nee
    case shl, sar, shr
    case bitAnd, bitOr, bitXor
    case and, or, coalesce
    case at
}

/// Reserved words and the contextual keywords the parser needs to recognize quickly.
public enum Keyword: UInt8, Sendable {
    case none
    // Reserved words
    case `await`, `break`, `case`, `catch`, `class`, `const`, `continue`, `debugger`, `default`, `delete`, `do`
    case `else`, `enum`, `export`, `extends`, `false`, `finally`, `for`, `function`, `if`, `import`, `in`
    case `instanceof`, `new`, `null`, `return`, `super`, `switch`, `this`, `throw`, `true`, `try`, `typeof`
    case `var`, `void`, `while`, `with`, `yield`
    // Strict-mode reserved
    case `let`, `static`, `implements`, `interface`, `package`, `private`, `protected`, `public`
    // Contextual
    case `async`, `of`, `get`, `set`, `target`, `arguments`, `eval`, `constructor`, `accessor`

    /// Reserved in all code (except `await`/`yield`, which depend on context).
    var isAlwaysReserved: Bool { rawValue >= Keyword.break.rawValue && rawValue <= Keyword.with.rawValue }
    /// Reserved only in strict-mode code.
    var isStrictReserved: Bool { rawValue >= Keyword.let.rawValue && rawValue <= Keyword.public.rawValue || self == .yield }
}

@inline(__always)
func classifyKeyword(_ p: UnsafePointer<UInt8>, _ n: Int) -> Keyword {
    @inline(__always) func eq(_ s: StaticString) -> Bool {
        let q = s.utf8Start
        var i = 1
        while i < n { if p[i] != q[i] { return false }; i += 1 }
        return true
    }
    switch n {
    case 2:
        switch p[0] {
        case UInt8(ascii: "d"): return p[1] == UInt8(ascii: "o") ? .do : .none
        case UInt8(ascii: "i"): return p[1] == UInt8(ascii: "f") ? .if : p[1] == UInt8(ascii: "n") ? .in : .none
        case UInt8(ascii: "o"): return p[1] == UInt8(ascii: "f") ? .of : .none
        default: return .none
        }
    case 3:
        switch p[0] {
        case UInt8(ascii: "f"): return eq("for") ? .for : .none
        case UInt8(ascii: "g"): return eq("get") ? .get : .none
        case UInt8(ascii: "l"): return eq("let") ? .let : .none
        case UInt8(ascii: "n"): return eq("new") ? .new : .none
        case UInt8(ascii: "s"): return eq("set") ? .set : .none
        case UInt8(ascii: "t"): return eq("try") ? .try : .none
        case UInt8(ascii: "v"): return eq("var") ? .var : .none
        default: return .none
        }
    case 4:
        switch p[0] {
        case UInt8(ascii: "c"): return eq("case") ? .case : .none
        case UInt8(ascii: "e"): return eq("else") ? .else : eq("enum") ? .enum : eq("eval") ? .eval : .none
        case UInt8(ascii: "n"): return eq("null") ? .null : .none
        case UInt8(ascii: "t"): return eq("this") ? .this : eq("true") ? .true : .none
        case UInt8(ascii: "v"): return eq("void") ? .void : .none
        case UInt8(ascii: "w"): return eq("with") ? .with : .none
        default: return .none
        }
    case 5:
        switch p[0] {
        case UInt8(ascii: "a"): return eq("await") ? .await : eq("async") ? .async : .none
        case UInt8(ascii: "b"): return eq("break") ? .break : .none
        case UInt8(ascii: "c"): return eq("catch") ? .catch : eq("class") ? .class : eq("const") ? .const : .none
        case UInt8(ascii: "f"): return eq("false") ? .false : .none
        case UInt8(ascii: "s"): return eq("super") ? .super : .none
        case UInt8(ascii: "t"): return eq("throw") ? .throw : .none
        case UInt8(ascii: "w"): return eq("while") ? .while : .none
        case UInt8(ascii: "y"): return eq("yield") ? .yield : .none
        default: return .none
        }
    case 6:
        switch p[0] {
        case UInt8(ascii: "d"): return eq("delete") ? .delete : .none
        case UInt8(ascii: "e"): return eq("export") ? .export : .none
        case UInt8(ascii: "i"): return eq("import") ? .import : .none
        case UInt8(ascii: "p"): return eq("public") ? .public : .none
        case UInt8(ascii: "r"): return eq("return") ? .return : .none
        case UInt8(ascii: "s"): return eq("switch") ? .switch : eq("static") ? .static : .none
        case UInt8(ascii: "t"): return eq("typeof") ? .typeof : eq("target") ? .target : .none
        default: return .none
        }
    case 7:
        switch p[0] {
        case UInt8(ascii: "d"): return eq("default") ? .default : .none
        case UInt8(ascii: "e"): return eq("extends") ? .extends : .none
        case UInt8(ascii: "f"): return eq("finally") ? .finally : .none
        case UInt8(ascii: "p"): return eq("package") ? .package : eq("private") ? .private : .none
        default: return .none
        }
    case 8:
        switch p[0] {
        case UInt8(ascii: "c"): return eq("continue") ? .continue : .none
        case UInt8(ascii: "d"): return eq("debugger") ? .debugger : .none
        case UInt8(ascii: "f"): return eq("function") ? .function : .none
        case UInt8(ascii: "a"): return eq("accessor") ? .accessor : .none
        default: return .none
        }
    case 9:
        switch p[0] {
        case UInt8(ascii: "i"): return eq("interface") ? .interface : .none
        case UInt8(ascii: "p"): return eq("protected") ? .protected : .none
        case UInt8(ascii: "a"): return eq("arguments") ? .arguments : .none
        default: return .none
        }
    case 10:
        switch p[0] {
        case UInt8(ascii: "i"): return eq("instanceof") ? .instanceof : eq("implements") ? .implements : .none
        default: return .none
        }
    case 11:
        return p[0] == UInt8(ascii: "c") && eq("constructor") ? .constructor : .none
    default:
        return .none
    }
}

func classifyKeyword(_ s: String) -> Keyword {
    var s = s
    return s.withUTF8 { b in b.count == 0 ? .none : classifyKeyword(b.baseAddress!, b.count) }
}
