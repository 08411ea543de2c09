// ESLint rule `local/layering`: holds the import graph between the source folders.
//
// Each folder is a layer that may only import from the layers listed for it, so that the folder a
// file lives in says which runtime APIs it may touch (src-core: none; src-renderer: the browser;
// src-main: Node, and Electron only in the thin adapter folders).
import path from 'node:path';
import { builtinModules } from 'node:module';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/**
 * Layer table: `from` is a path prefix relative to the repository root; `local` the prefixes its
 * relative imports may reach; `packages` the bare specifiers allowed (exact name or `name/…`);
 * `node` whether Node built-ins are allowed. The first matching `from` wins, so list deeper
 * folders first.
 */
export const LAYERS = [
  {
    // The report's zod schema, from which docs/report.schema.json is generated (not bundled into the app).
    from: 'src-core/report/schema.ts',
    local: ['src-core/'],
    packages: ['zod'],
    node: false,
  },
  {
    from: 'src-core/',
    local: ['src-core/'],
    packages: ['quickhull3d', 'manifold-3d', 'occt-import-js'],
    node: false,
  },
  {
    from: 'src-main/contract/',
    local: ['src-main/contract/', 'src-core/'],
    packages: ['zod'],
    node: false,
  },
  {
    from: 'src-main/preload/',
    local: ['src-main/preload/', 'src-main/contract/'],
    packages: ['electron', 'zod'],
    node: false,
  },
  {
    from: 'src-main/main/',
    local: ['src-main/', 'src-core/', 'package.json'],
    packages: ['*'],
    node: true,
  },
  {
    from: 'src-main/',
    local: ['src-main/', 'src-core/', 'package.json'],
    packages: ['*', '!electron'],
    node: true,
  },
  {
    from: 'src-renderer/',
    local: ['src-renderer/', 'src-core/', 'src-main/contract/', 'assets/'],
    packages: ['*', '!electron'],
    node: false,
  },
];

function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function packageAllowed(layer, name) {
  if (layer.packages.includes(`!${name}`)) return false;
  return layer.packages.includes('*') || layer.packages.includes(name);
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Keep each source folder to the imports its runtime allows.' },
    schema: [],
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    const layer = LAYERS.find((l) => file.startsWith(l.from));
    if (!layer) return {};
    function check(node, spec) {
      if (typeof spec !== 'string') return;
      if (spec.startsWith('.')) {
        const target = path
          .relative(ROOT, path.resolve(path.dirname(context.filename), spec))
          .split(path.sep)
          .join('/');
        if (!layer.local.some((p) => target.startsWith(p) || `${target}/` === p || target === p)) {
          context.report({ node, message: `${layer.from} may not import '${spec}' (resolves to ${target}).` });
        }
        return;
      }
      if (NODE_BUILTINS.has(spec)) {
        if (!layer.node) context.report({ node, message: `${layer.from} may not use the Node built-in '${spec}'.` });
        return;
      }
      const name = packageName(spec);
      if (!packageAllowed(layer, name)) {
        context.report({ node, message: `${layer.from} may not import the package '${name}'.` });
      }
    }
    return {
      ImportDeclaration(node) {
        check(node, node.source.value);
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value);
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value);
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value);
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') {
          check(node, node.arguments[0].value);
        }
      },
    };
  },
};
