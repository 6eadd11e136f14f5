// Modules: a Source Text Module Record's code (https://tc39.es/ecma262/#sec-source-text-module-records).
//
// Every binding of the module scope lives in one environment the runtime creates at link
// time (slot order: `CompiledModule.slotNames`), so that other modules' imports can read
// it live. The module's code is two functions closed over that environment:
// - `initCode` (InitializeEnvironment): vars start `undefined`, function declarations
//   are instantiated (so a cycle can call them before the module runs);
// - `bodyCode` (ExecuteModule): the statements; an async function when the module has a
//   top-level `await`.
// Named imports are not slots: `getImport index` reads the exporting module's binding
// through the runtime's resolved import table (`CompiledModule.importNames[index]`).
// Namespace imports (`import * as ns`) are ordinary immutable slots the runtime fills.

import JSSyntax
import JSBytecode

/// A compiled module: its code, its environment layout and its static entries.
public final class CompiledModule {
    public let info: ModuleInfo
    public let initCode: CodeBlock
    public let bodyCode: CodeBlock
    /// The module environment's slots, in order (the binding names).
    public let slotNames: [String]
    /// The named imports, in `getImport` index order: (local name, import entry index).
    public let importNames: [(local: String, entry: Int)]
    public let source: SourceFile

    init(info: ModuleInfo, initCode: CodeBlock, bodyCode: CodeBlock, slotNames: [String],
         importNames: [(local: String, entry: Int)], source: SourceFile) {
        self.info = info; self.initCode = initCode; self.bodyCode = bodyCode
        self.slotNames = slotNames; self.importNames = importNames; self.source = source
    }

    /// The environment slot of a module-scope binding.
    public func slot(of name: String) -> Int? { slotNames.firstIndex(of: name) }

    /// Every code block of the module (both entry points and everything nested in them).
    public var allCodeBlocks: [CodeBlock] {
        var out: [CodeBlock] = []
        var pending = [initCode, bodyCode]
        var seen = Set<ObjectIdentifier>()
        while let b = pending.popLast() {
            guard seen.insert(ObjectIdentifier(b)).inserted else { continue }
            out.append(b)
            for c in b.constants {
                switch c {
                case .function(let f): pending.append(f)
                case .classTemplate(let t): pending.append(t.constructor)
                default: break
                }
            }
        }
        return out
    }
}

extension Compiler {
    /// Compiles a parsed module (`parseModule`).
    public static func compileModule(_ program: Program) throws(CompileError) -> CompiledModule {
        guard let info = program.module else { throw CompileError(message: "not a module", offset: 0) }
        let scopeCode = CodeBlock(name: "", span: Span(0, program.source.bytes.count))
        scopeCode.source = program.source
        scopeCode.isStrict = true
        let outer = FunctionCompiler(code: scopeCode, parent: nil, function: nil, source: program.source)
        let cs = CompileScope(scope: program.scope, owner: outer)
        cs.hasEnvironment = true
        var importNames: [(local: String, entry: Int)] = []
        for b in program.scope.bindings {
            if let entry = info.imports.firstIndex(where: { $0.localName == b.name && $0.importName != nil }) {
                cs.names[b.name] = BindingInfo(location: .importBinding(importNames.count), kind: .const, declarationEnd: -1)
                importNames.append((b.name, entry))
                continue
            }
            cs.names[b.name] = BindingInfo(location: .environment(hops: 0, slot: cs.environmentSize), kind: b.kind, declarationEnd: b.offset)
            cs.slotNames.append(b.name)
            cs.environmentSize += 1
        }
        outer.scopes.append(cs)

        // InitializeEnvironment: vars, then the hoisted function declarations.
        let initCode = CodeBlock(name: "", span: Span(0, program.source.bytes.count))
        initCode.source = program.source
        initCode.isStrict = true
        // The environment's slot names for direct eval's dynamic lookups (kind-prefixed).
        initCode.functionScopeNames = program.scope.bindings.filter { cs.names[$0.name].map { info in
            if case .environment = info.location { return true } else { return false } } ?? false
        }.map { Compiler.slotName($0.name, $0.kind) }
        let ic = FunctionCompiler(code: initCode, parent: outer, function: nil, source: program.source)
        for b in program.scope.bindings where b.kind == .var {
            let r = ic.temp()
            ic.emit(.loadUndefined, r)
            try ic.storeName(b.name, r, initialize: true, offset: b.offset)
            ic.nextRegister -= 1
        }
        try ic.hoistFunctions(program.body)
        ic.finish()

        // The body.
        let bodyCode = CodeBlock(name: "", span: Span(0, program.source.bytes.count))
        bodyCode.source = program.source
        bodyCode.isStrict = true
        bodyCode.isAsync = info.hasTopLevelAwait
        let bc = FunctionCompiler(code: bodyCode, parent: outer, function: nil, source: program.source)
        bc.skipFunctionHoisting = true
        if info.hasTopLevelAwait {
            let g = bc.temp()
            bc.bindingRegisters.insert(g)
            bc.generatorRegister = g
            bc.emit(.generatorStart, g)
        }
        try bc.withDisposal(of: program.body) { fc throws(CompileError) in for s in program.body { try fc.statement(s) } }
        bc.finish()
        return CompiledModule(info: info, initCode: initCode, bodyCode: bodyCode, slotNames: cs.slotNames,
                              importNames: importNames, source: program.source)
    }
}
