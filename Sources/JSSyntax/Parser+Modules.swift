// The Module goal: import and export declarations, `import()`, `import.meta`
// (https://tc39.es/ecma262/#sec-modules), and ParseModule's import/export entries.
//
// Import bindings are declared as `const` bindings of the module scope (the compiler
// turns them into indirections to the exporting module's environment); `export default`
// of an expression or an anonymous class initializes the binding `*default*`, an
// anonymous default function is a hoisted function declaration of that name.

extension Parser {
    // MARK: - Entry

    func parseModuleTopLevel() throws(ParseError) -> Program {
        isModule = true
        lexer.isModule = true
        strict = true
        let info = ModuleInfo()
        moduleInfo = info
        let scope = enterScope(.script, flags: .top)
        try next()
        var body: [Stmt] = []
        while type != .eof {
            body.append(try parseStatement(context: .topLevel))
        }
        let program = Program(body: consume body, isStrict: true, scope: scope, source: source)
        program.module = info
        exitScope()
        try checkModuleEarlyErrors(info, scope: scope)
        try ScopeAnalyzer.analyze(program, parser: self)
        return program
    }

    /// ParseModule's early errors over the finished entry lists, and the rewriting of
    /// local re-exports of imports into indirect exports.
    func checkModuleEarlyErrors(_ info: ModuleInfo, scope: Scope) throws(ParseError) {
        var exported: Set<String> = []
        for e in info.localExports + info.indirectExports {
            if !exported.insert(e.exportName).inserted {
                throw error("Duplicate export of '\(e.exportName)'", at: e.offset)
            }
        }
        var local: [ModuleExportEntry] = []
        for e in info.localExports {
            guard let name = e.localName else { continue }
            if scope.binding(named: name) == nil {
                throw error("Export '\(name)' is not defined in module", at: e.offset)
            }
            if let imp = info.imports.first(where: { $0.localName == name }) {
                // `import {a} from "m"; export {a}`: a re-export of "m"'s binding (of its
                // namespace for `import * as a`, which resolves like `export * as a from "m"`).
                info.indirectExports.append(ModuleExportEntry(exportName: e.exportName, localName: nil, request: imp.request,
                                                              importName: imp.importName, offset: e.offset))
            } else {
                local.append(e)
            }
        }
        info.localExports = local
    }

    // MARK: - Tokens

    /// The current token is the unescaped identifier `word` (`from`, `as`, `meta`).
    func isWord(_ word: String) -> Bool {
        type == .name && !lexer.s.containsEscape && lexer.nameValue == word
    }

    func expectWord(_ word: String) throws(ParseError) {
        if !isWord(word) { throw unexpected() }
        try next()
    }

    /// A string literal's value, which must be well-formed Unicode (module specifiers,
    /// export names, attribute values).
    func parseWellFormedString(_ what: String) throws(ParseError) -> String {
        guard type == .string else { throw unexpected() }
        guard let s = String(validatingUTF16: lexer.stringValue) else {
            throw error("\(what) must be a well-formed Unicode string")
        }
        try next()
        return s
    }

    /// ModuleExportName: an IdentifierName (reserved words included) or a string literal.
    func parseModuleExportName() throws(ParseError) -> (name: String, isString: Bool, keyword: Keyword, offset: Int) {
        let pos = start
        if type == .string { return (try parseWellFormedString("A module export name"), true, .none, pos) }
        guard type == .name else { throw unexpected() }
        let name = lexer.nameValue
        let kw = lexer.s.containsEscape ? classifyKeyword(name) : keyword
        try next()
        return (name, false, kw, pos)
    }

    /// ImportedBinding: a binding identifier, declared as an immutable binding of the module.
    func parseImportedBinding() throws(ParseError) -> String {
        let pos = start
        guard type == .name else { throw unexpected() }
        let name = lexer.nameValue
        if name == "eval" || name == "arguments" { throw error("Unexpected eval or arguments in strict mode", at: pos) }
        _ = try parseIdentifier()
        try declareImportBinding(name, at: pos)
        return name
    }

    func declareImportBinding(_ name: String, at pos: Int) throws(ParseError) {
        if name == "let" { throw error("let is disallowed as a lexically bound name", at: pos) }
        try declareName(name, mode: .lexical, kind: .const, at: pos)
    }

    /// `FromClause WithClause? ;` after the import/export clause: the request's index.
    func parseFromClause() throws(ParseError) -> Int {
        try expectWord("from")
        return try parseModuleRequestRest()
    }

    /// At a module specifier string: the specifier, its attributes, the `;`.
    func parseModuleRequestRest() throws(ParseError) -> Int {
        let pos = start
        let specifier = try parseWellFormedString("A module specifier")
        var attributes: [ModuleAttribute] = []
        if isKeyword(.with) && !lexer.s.containsEscape {
            try next()
            try expect(.braceL)
            var keys: Set<String> = []
            while !(try eat(.braceR)) {
                let keyPos = start
                let key: String
                if type == .string {
                    key = try parseWellFormedString("An import attribute key")
                } else if type == .name {
                    key = lexer.nameValue
                    try next()
                } else {
                    throw unexpected()
                }
                if !keys.insert(key).inserted { throw error("Import attribute '\(key)' is given twice", at: keyPos) }
                try expect(.colon)
                let value = try parseWellFormedString("An import attribute value")
                attributes.append(ModuleAttribute(key: key, value: value))
                if type != .braceR { try expect(.comma) }
            }
        }
        try semicolon()
        attributes.sort { $0.key < $1.key }
        return moduleInfo!.request(ModuleRequest(specifier: specifier, attributes: attributes, offset: Int32(pos)))
    }

    // MARK: - import

    /// At `import` (not `import(` or `import.`).
    func parseImportDeclaration() throws(ParseError) -> Stmt {
        let startPos = start
        try next()
        let info = moduleInfo!
        if type == .string {
            _ = try parseModuleRequestRest()
            return Stmt(.empty, Span(startPos, lastEnd))
        }
        // ImportClause, entries collected first: the request index is known after `from`.
        var pending: [(importName: String?, localName: String, offset: Int)] = []
        var needsMore = true
        if type == .name {
            // ImportedDefaultBinding
            let pos = start
            let local = try parseImportedBinding()
            pending.append(("default", local, pos))
            needsMore = false
            if try eat(.comma) { needsMore = true } else { needsMore = false }
        }
        if needsMore || pending.isEmpty {
            if type == .star {
                try next()
                try expectWord("as")
                let pos = start
                let local = try parseImportedBinding()
                pending.append((nil, local, pos))
            } else if type == .braceL {
                try next()
                while !(try eat(.braceR)) {
                    let pos = start
                    let imported = try parseModuleExportName()
                    let local: String
                    if isWord("as") {
                        try next()
                        local = try parseImportedBinding()
                    } else {
                        if imported.isString { throw error("A string import name needs 'as' and a binding name", at: imported.offset) }
                        if imported.keyword != .none {
                            try checkIdentifierReserved(imported.name, keyword: imported.keyword, at: imported.offset)
                        }
                        if imported.name == "eval" || imported.name == "arguments" {
                            throw error("Unexpected eval or arguments in strict mode", at: imported.offset)
                        }
                        try declareImportBinding(imported.name, at: imported.offset)
                        local = imported.name
                    }
                    pending.append((imported.name, local, pos))
                    if type != .braceR { try expect(.comma) }
                }
            } else {
                throw unexpected()
            }
        }
        let request = try parseFromClause()
        for p in pending {
            info.imports.append(ModuleImportEntry(request: request, importName: p.importName, localName: p.localName, offset: Int32(p.offset)))
        }
        return Stmt(.empty, Span(startPos, lastEnd))
    }

    // MARK: - export

    /// At `export`.
    func parseExportDeclaration() throws(ParseError) -> Stmt {
        let startPos = start
        try next()
        let info = moduleInfo!
        func local(_ name: String, _ exportName: String, _ offset: Int) {
            info.localExports.append(ModuleExportEntry(exportName: exportName, localName: name, request: nil, importName: nil, offset: Int32(offset)))
        }
        switch type {
        case .star:
            try next()
            if isWord("as") {
                try next()
                let name = try parseModuleExportName()
                let request = try parseFromClause()
                info.indirectExports.append(ModuleExportEntry(exportName: name.name, localName: nil, request: request, importName: nil, offset: Int32(name.offset)))
            } else {
                let request = try parseFromClause()
                info.starExports.append(request)
            }
            return Stmt(.empty, Span(startPos, lastEnd))
        case .braceL:
            try next()
            var specs: [(local: (name: String, isString: Bool, keyword: Keyword, offset: Int), exported: String)] = []
            while !(try eat(.braceR)) {
                let l = try parseModuleExportName()
                var exported = l.name
                if isWord("as") {
                    try next()
                    exported = try parseModuleExportName().name
                }
                specs.append((l, exported))
                if type != .braceR { try expect(.comma) }
            }
            if isWord("from") {
                let request = try parseFromClause()
                for s in specs {
                    info.indirectExports.append(ModuleExportEntry(exportName: s.exported, localName: nil, request: request,
                                                                  importName: s.local.name, offset: Int32(s.local.offset)))
                }
            } else {
                try semicolon()
                for s in specs {
                    if s.local.isString { throw error("A string export name needs 'from'", at: s.local.offset) }
                    if s.local.keyword.isAlwaysReserved || s.local.keyword.isStrictReserved || s.local.keyword == .await {
                        throw error("Unexpected reserved word '\(s.local.name)'", at: s.local.offset)
                    }
                    local(s.local.name, s.exported, s.local.offset)
                }
            }
            return Stmt(.empty, Span(startPos, lastEnd))
        default:
            break
        }
        guard type == .name else { throw unexpected() }
        if keyword == .default && !lexer.s.containsEscape {
            let defaultPos = start
            try next()
            let declPos = start
            if isKeyword(.function) && !lexer.s.containsEscape {
                let fn = try parseDefaultFunction(isAsync: false, startPos: declPos)
                local(fn.name!, "default", defaultPos)
                return Stmt(.function(fn), Span(declPos, lastEnd))
            }
            if isContextual(.async), try isAsyncFunction() {
                try next()
                let fn = try parseDefaultFunction(isAsync: true, startPos: declPos)
                local(fn.name!, "default", defaultPos)
                return Stmt(.function(fn), Span(declPos, lastEnd))
            }
            if isKeyword(.class) && !lexer.s.containsEscape {
                let t = try peekToken()
                if t.type == .name && !(t.keyword == .extends && !t.escaped) {
                    let cls = try parseClass(isStatement: true, startPos: declPos)
                    local(cls.name!, "default", defaultPos)
                    return Stmt(.class(cls), Span(declPos, lastEnd))
                }
                let cls = try parseClass(isStatement: false, startPos: declPos)
                try declareName(ModuleInfo.defaultBinding, mode: .lexical, kind: .let, at: declPos)
                local(ModuleInfo.defaultBinding, "default", defaultPos)
                return Stmt(.exportDefault(Expr(.class(cls), Span(declPos, lastEnd))), Span(startPos, lastEnd))
            }
            let e = try parseMaybeAssign()
            try semicolon()
            try declareName(ModuleInfo.defaultBinding, mode: .lexical, kind: .let, at: declPos)
            local(ModuleInfo.defaultBinding, "default", defaultPos)
            return Stmt(.exportDefault(e), Span(startPos, lastEnd))
        }
        // export Declaration / VariableStatement
        let declStart = start
        let stmt: Stmt
        switch keyword {
        case .var, .const, .let, .function, .class:
            if lexer.s.containsEscape { throw unexpected() }
            stmt = try parseStatement(context: .topLevel)
        case .async:
            guard try isAsyncFunction() else { throw unexpected() }
            stmt = try parseStatement(context: .topLevel)
        default:
            throw unexpected()
        }
        switch stmt.kind {
        case .variable(let d):
            var names: [(String, Int)] = []
            for decl in d.declarations { Parser.boundNames(decl.target, into: &names) }
            for (n, off) in names { local(n, n, off) }
        case .function(let fn):
            local(fn.name!, fn.name!, declStart)
        case .class(let c):
            local(c.name!, c.name!, declStart)
        default:
            throw error("Unexpected token 'export'", at: startPos)
        }
        return stmt
    }

    /// `export default function [name] (...) {...}` at `function`: a hoisted declaration,
    /// bound to its name or, when anonymous, to `*default*`.
    func parseDefaultFunction(isAsync: Bool, startPos: Int) throws(ParseError) -> FunctionNode {
        let snap = snapshot()
        try next() // function
        _ = try eat(.star)
        let named = type == .name
        restore(snap)
        if named { return try parseFunctionStatement(isAsync: isAsync, hanging: false, startPos: startPos) }
        try next() // function
        let isGenerator = try eat(.star)
        try declareName(ModuleInfo.defaultBinding, mode: .function, kind: .function, at: startPos)
        let fn = try parseFunctionRest(name: nil, nameStart: -1, isAsync: isAsync, isGenerator: isGenerator,
                                       kind: .normal, startPos: startPos, extraFlags: [], isExpression: false)
        fn.name = ModuleInfo.defaultBinding
        return fn
    }

    /// The names a binding pattern declares, with their offsets.
    static func boundNames(_ p: Pattern, into names: inout [(String, Int)]) {
        switch p.kind {
        case .identifier(let n): names.append((n, Int(p.span.start)))
        case .expression: break
        case .object(let props, let rest):
            for prop in props { boundNames(prop.value, into: &names) }
            if let r = rest { boundNames(r, into: &names) }
        case .array(let els, let rest):
            for e in els { if let e { boundNames(e, into: &names) } }
            if let r = rest { boundNames(r, into: &names) }
        case .withDefault(let t, _): boundNames(t, into: &names)
        }
    }

    // MARK: - import() and import.meta

    /// At `import` in an expression.
    func parseImportExpression(startPos: Int, forNew: Bool) throws(ParseError) -> Expr {
        try next()
        if type == .dot {
            try next()
            if !isWord("meta") { throw error("The only valid meta property for import is 'import.meta'") }
            if !isModule { throw error("Cannot use 'import.meta' outside a module", at: startPos) }
            try next()
            return Expr(.importMeta, Span(startPos, lastEnd))
        }
        guard type == .parenL, !forNew else { throw unexpected() }
        try next()
        if type == .parenR { throw error("import() requires a specifier") }
        let specifier = try parseMaybeAssign()
        var options: Expr? = nil
        if try eat(.comma) {
            if type != .parenR {
                options = try parseMaybeAssign()
                _ = try eat(.comma)
            }
        }
        try expect(.parenR)
        return Expr(.dynamicImport(specifier, options: options), Span(startPos, lastEnd))
    }
}

/// Parses a module (ECMAScript `Module` goal): strict code with import and export
/// declarations; `Program.module` holds its entries.
public func parseModule(_ source: SourceFile) throws(ParseError) -> Program {
    let parser = try Parser(source: source, options: ParseOptions(strict: true))
    return try parser.parseModuleTopLevel()
}
