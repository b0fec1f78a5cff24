/**
 * Checks the import structure of src/ (`npx tsx scripts/import-layers.ts`): no file reaches itself
 * through its imports, even through a type-only one, and no folder imports a folder on its own layer
 * or above (LAYERS). Prints one line per finding and exits 1 when there is any, 0 when there is none.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** src/'s folders from the ground up: a folder imports only folders on the layers below its own. */
export const LAYERS: readonly (readonly string[])[] = [
  ['core', 'timer', 'mock-ollama'],
  ['llm', 'rotation'],
  ['config'],
  ['judging', 'store'],
  ['agents'],
  ['context', 'analytics'],
  ['render'],
  ['formats'],
  ['manager'],
  ['session'],
  ['web', 'batch', 'tournament'],
  ['cli'],
];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every module a file names: imports and exports (type-only ones too), import(), import types, augmentations. */
function namedModules(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const names: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      names.push(node.moduleSpecifier.text);
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      names.push(node.name.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      names.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      names.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** The file of `src` that a relative module name means, or null for a package or a file elsewhere. */
function resolve(from: string, name: string, known: ReadonlySet<string>): string | null {
  if (!name.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), name).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')])
    if (known.has(candidate)) return candidate;
  return null;
}

/** The groups of files that import each other in a loop (Tarjan's strongly connected components). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.has(file)) found.push(group.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return found;
}

/** What breaks the rules in `root`'s src/: one line per cycle, per import up or across the layers, per folder on no layer. */
export function importFindings(root: string, layers: readonly (readonly string[])[] = LAYERS): string[] {
  const src = path.join(root, 'src');
  const files = sourceFiles(src).sort();
  const known = new Set(files);
  const shown = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const folderOf = (file: string) => path.relative(src, file).split(path.sep)[0] ?? '';
  const layerOf = new Map(layers.flatMap((folders, at) => folders.map((folder) => [folder, at] as const)));
  const graph = new Map<string, Set<string>>();
  const findings: string[] = [];
  for (const file of files) {
    const targets = new Set(namedModules(file).flatMap((name) => resolve(file, name, known) ?? []));
    graph.set(file, targets);
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      const [fromLayer, toLayer] = [layerOf.get(from), layerOf.get(to)];
      if (from === to || fromLayer === undefined || toLayer === undefined || toLayer < fromLayer) continue;
      const how = toLayer === fromLayer ? 'on the same layer' : 'up the layers';
      findings.push(
        `import ${how}: ${shown(file)} -> ${shown(target)} (src/${from}/ may import only layers below it)`,
      );
    }
  }
  const folders = new Set(files.map(folderOf).filter((folder) => !folder.endsWith('.ts')));
  for (const folder of [...folders].sort()) {
    if (!layerOf.has(folder))
      findings.push(`src/${folder}/ is on no layer: add it to LAYERS in scripts/import-layers.ts`);
  }
  for (const group of cycles(graph)) {
    const inside = new Set(group);
    const ties = group.flatMap((file) =>
      [...(graph.get(file) ?? [])]
        .filter((target) => inside.has(target))
        .map((target) => `${shown(file)} -> ${shown(target)}`),
    );
    findings.push(`import cycle of ${group.length} file(s): ${ties.join(', ')}`);
  }
  return findings;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const findings = importFindings(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
  for (const finding of findings) process.stdout.write(`${finding}\n`);
  process.stdout.write(
    findings.length === 0
      ? 'src/: no import cycle, and every import points down the layers\n'
      : `src/: ${findings.length} finding(s)\n`,
  );
  process.exitCode = findings.length === 0 ? 0 : 1;
}
