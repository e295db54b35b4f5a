import type { Plugin } from 'vite';

/** The contract's and the protocol's sources: their top-level declarations build schemas and tables, nothing else. */
const CONTRACT_SOURCE = /\/packages\/(contract|protocol)\/src\/[\w-]+(\/[\w-]+)?\.ts$/;

/** Initialisers that cost nothing to keep and nothing to drop: left as they are. */
const PLAIN = new Set(['Literal', 'Identifier', 'ArrowFunctionExpression', 'FunctionExpression']);

interface Node {
  type: string;
  start: number;
  end: number;
  declaration?: Node | null;
  declarations?: Array<{ init?: Node | null }>;
}

/**
 * Wraps each top-level declaration of the contract and the protocol in a call marked pure (`const X = Type.Object(...)` becomes
 * `const X = /* @__PURE__ *\/ (() => Type.Object(...))()`), so that one no page reads is dropped from the build
 * and TypeBox with the schemas: the browser never checks one. The bundler cannot tell by itself that building a
 * schema, spreading a list or reading a limit has no effect.
 */
export function pureSchemas(): Plugin {
  return {
    name: 'lumigrid-pure-schemas',
    apply: 'build',
    transform: {
      filter: { id: CONTRACT_SOURCE },
      handler(code) {
        const program = this.parse(code) as unknown as { body: Node[] };
        const inits: Node[] = [];
        for (const statement of program.body) {
          const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
          if (declaration?.type !== 'VariableDeclaration') continue;
          for (const { init } of declaration.declarations ?? []) if (init && !PLAIN.has(init.type)) inits.push(init);
        }
        if (inits.length === 0) return null;
        let out = '';
        let at = 0;
        for (const init of inits) {
          out += `${code.slice(at, init.start)}/* @__PURE__ */ (() => (${code.slice(init.start, init.end)}))()`;
          at = init.end;
        }
        return { code: out + code.slice(at), map: null };
      },
    },
  };
}
